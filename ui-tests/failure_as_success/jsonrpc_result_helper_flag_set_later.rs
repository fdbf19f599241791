//@ dep: serde_json = "1"
// A hand-rolled stdio server whose tool results come from one helper that builds the result
// without a flag and sets `isError` when its parameter says so (`let mut result = json!({
// "content": [..] }); if is_error { result["isError"] = json!(true); } send_result(id,
// result);`): each call builds the result with the flag it passes. A failure passed with `false`
// is a failure answered as success; the same text passed with `true` is an isError result (not
// reported), and so is the helper's own `json!` (a success only where a call says so).
use serde_json::{json, Value};

fn send(message: &Value) {
    println!("{message}");
}

fn send_result(id: &Value, result: Value) {
    send(&json!({ "jsonrpc": "2.0", "id": id, "result": result }));
}

fn send_tool_result(id: &Value, text: &str, is_error: bool) {
    let mut result = json!({
        "content": [{ "type": "text", "text": text }]
    });
    if is_error {
        result["isError"] = json!(true);
    }
    send_result(id, result);
}

fn handle_tools_call(id: &Value, params: &Value) {
    let name = params["name"].as_str().unwrap_or("");
    let path = params["arguments"]["path"].as_str().unwrap_or("");
    match name {
        "read" => match std::fs::read_to_string(path) {
            Ok(text) => send_tool_result(id, &text, false),
            Err(e) => send_tool_result(id, &format!("Error: cannot read {path}: {e}"), true),
        },
        "stat" => match std::fs::metadata(path) {
            Ok(meta) => send_tool_result(id, &format!("{} bytes", meta.len()), false),
            Err(e) => send_tool_result(id, &format!("Error: cannot stat {path}: {e}"), false), //~ failure_as_success
        },
        _ => send_tool_result(id, &format!("Unknown tool: {name}"), true), //~ unknown_tool_as_tool_error
    }
}

pub fn handle(request: &Value) {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("tools/call") => handle_tools_call(&id, &request["params"]),
        _ => send(&json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "Method not found" } })),
    }
}
