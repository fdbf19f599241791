//@ dep: serde_json = "1"
// A hand-rolled server that writes protocol version 2026-07-28 in its `initialize` answer: the
// 2026-07-28 rules apply, as they do to a server that declares nothing, and each finding says
// which version it was judged against.
use serde_json::{json, Value};

fn reply(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn fail(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

pub fn dispatch(request: &Value, authorised: bool) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("initialize") => reply(id, json!({ "protocolVersion": "2026-07-28", "capabilities": { "resources": {} } })),
        Some("resources/read") if !authorised => fail(id, -32005, "not authorised for this resource"), //~ legacy_error_code
        Some("resources/read") => match std::fs::read_to_string(request["params"]["uri"].as_str().unwrap_or_default()) {
            Ok(text) => reply(id, json!({ "contents": [{ "text": text }] })),
            Err(_) => fail(id, -32002, "no such resource"), //~ legacy_error_code: retired
        },
        Some("tools/call") => fail(id, -32602, "Unknown tool: this server has none"),
        _ => fail(id, -32601, "method not found"),
    }
}
