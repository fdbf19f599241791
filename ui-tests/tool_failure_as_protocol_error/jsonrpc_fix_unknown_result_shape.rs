//@ dep: serde = "1"
//@ dep: serde_json = "1"
// A hand-rolled server whose tool results are serde structs, not `json!`: nothing in its source
// shows how its results look in `json!`, so a tool failure sent as a `json!` error response gets
// no fix (the help still says what to send).
use serde::Serialize;
use serde_json::{json, Value};

#[derive(Serialize)]
struct Text {
    #[serde(rename = "type")]
    kind: &'static str,
    text: String,
}

#[derive(Serialize)]
struct ToolResult {
    content: Vec<Text>,
}

fn quote(id: &Value, args: &Value) -> Value {
    let symbol = args.get("symbol").and_then(Value::as_str).unwrap_or_default();
    match std::fs::read_to_string(format!("/var/quotes/{symbol}")) {
        Ok(text) => {
            let result = ToolResult { content: vec![Text { kind: "text", text }] };
            json!({ "jsonrpc": "2.0", "id": id, "result": serde_json::to_value(result).unwrap_or_default() })
        }
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": format!("no quote for {symbol}: {e}") } }), //~ tool_failure_as_protocol_error
    }
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/call") => match request["params"]["name"].as_str() {
            Some("quote") => quote(id, &request["params"]["arguments"]),
            other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("Unknown tool: {}", other.unwrap_or_default()) } }),
        },
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "method not found" } }),
    }
}
