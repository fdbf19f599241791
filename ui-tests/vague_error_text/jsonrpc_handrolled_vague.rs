//@ dep: serde_json = "1"
// A hand-rolled MCP server: the text of an `"isError": true` result and the `"message"` of an error
// object reached from `"tools/call"` are error text. Vague text there is reported at the string
// literal (and an error object in a tool is a protocol error as well). Text with detail is not
// vague, and neither are messages of the JSON-RPC plumbing outside tools that say what failed.
use serde_json::{json, Value};

fn fail(id: &Value, text: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }], "isError": true } })
}

fn convert(id: &Value, args: &Value) -> Value {
    let Some(amount) = args["amount"].as_f64() else {
        return json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": "failed" }], "isError": true } }); //~ vague_error_text
    };
    let currency = args["currency"].as_str().unwrap_or("EUR");
    if currency.len() != 3 {
        return fail(id, "invalid input"); //~ vague_error_text
    }
    if amount < 0.0 {
        return fail(id, &format!("amount must be >= 0, got {amount}"));
    }
    if currency != "EUR" && currency != "USD" {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": "internal error" } }); //~ tool_failure_as_protocol_error
        //~^ vague_error_text
    }
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": format!("{:.2} {currency}", amount * 1.08) }] } })
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/call") => match request["params"]["name"].as_str() {
            Some("convert") => convert(id, &request["params"]["arguments"]),
            other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("Unknown tool: {}", other.unwrap_or("<none>")) } }),
        },
        Some(method) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": format!("method not found: {method}") } }),
        None => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32600, "message": "request has no method" } }),
    }
}
