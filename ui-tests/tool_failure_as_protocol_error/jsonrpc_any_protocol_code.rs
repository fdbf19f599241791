//@ dep: serde_json = "1"
// Any protocol error counts: a tool's own failure sent as a JSON-RPC error is this lint whatever
// the code, -32600, -32700 or an application's own (1003, beside `"jsonrpc": "2.0"`). Not: -32021,
// which the 2026-07-28 spec defines for a missing client capability; the unknown-tool answer
// (MCP011 judges its code); an HTTP API's `{"error": {"code": 404, ..}}` body, which is no JSON-RPC error.
use serde_json::{json, Value};

fn lookup(id: &Value, args: &Value, client_has_sampling: bool) -> Value {
    let key = args.get("key").and_then(Value::as_str).unwrap_or("");
    if key.starts_with('/') {
        return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": format!("key {key} must be relative")}}); //~ tool_failure_as_protocol_error
    }
    if key.ends_with(".json") {
        let text = std::fs::read_to_string(key).unwrap_or_default();
        if serde_json::from_str::<Value>(&text).is_err() {
            return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32700, "message": format!("{key} is not JSON")}}); //~ tool_failure_as_protocol_error
        }
    }
    if !client_has_sampling {
        return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32021, "message": "lookup needs the sampling capability"}});
    }
    match std::fs::read_to_string(key) {
        Ok(text) => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}}),
        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": 1003, "message": format!("cannot read {key}: {e}")}}), //~ tool_failure_as_protocol_error
    }
}

/// The body an upstream HTTP API answers with, quoted to the model as text.
fn upstream_body(key: &str) -> String {
    json!({"error": {"code": 404, "message": format!("no such key: {key}")}}).to_string()
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/call") => {
            let args = &request["params"]["arguments"];
            match request["params"]["name"].as_str() {
                Some("lookup") => lookup(id, args, false),
                Some("upstream") => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": upstream_body("k")}]}}),
                Some(other) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": 1004, "message": format!("Unknown tool: {other}")}}), //~ unknown_tool_wrong_code
                None => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "tools/call needs a tool name"}}),
            }
        }
        _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "method not found"}}),
    }
}
