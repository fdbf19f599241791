//@ dep: serde_json = "1"
// A hand-rolled server that declares 2025-11-25 in its `initialize` answer. There -32042 (URL
// elicitation required) is a code the spec defines for a tool to send, so it is no tool failure;
// -32021 (missing client capability) is only defined from 2026-07-28 on, so there it is one, and
// the finding says which version it was judged against.
use serde_json::{json, Value};

fn error_response(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn connect(id: &Value, args: &Value) -> Value {
    let Some(account) = args["account"].as_str() else {
        return error_response(id, -32042, "open https://example.com/connect to link your account");
    };
    if account.is_empty() {
        return error_response(id, -32021, "this server needs the client's sampling capability"); //~ tool_failure_as_protocol_error
    }
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": account }] } })
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str().unwrap_or_default() {
        "initialize" => json!({ "jsonrpc": "2.0", "id": id, "result": { "protocolVersion": "2025-11-25", "capabilities": { "tools": {} } } }),
        "tools/call" => match request["params"]["name"].as_str().unwrap_or_default() {
            "connect" => connect(id, &request["params"]["arguments"]),
            other => error_response(id, -32602, &format!("Unknown tool: {other}")),
        },
        method => error_response(id, -32601, &format!("method not found: {method}")),
    }
}
