//@ dep: serde = "1"
//@ dep: serde_json = "1"
// A hand-rolled MCP server's unknown-tool answer, as a JSON-RPC error: -32601 (a literal in the
// `json!` body, or a const handed to the response helper) is the wrong code; -32602 with a message
// that does not name the tool ("tool not found") says too little; -32602 "Unknown tool: <name>" is
// the spec's example. Reported on the fallback arm's answer, in the user's code.
use serde::Deserialize;
use serde_json::{json, Value};

const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

#[derive(Deserialize)]
struct CallParams {
    name: String,
    #[serde(default)]
    arguments: serde_json::Map<String, Value>,
}

fn error_response(id: &Value, code: i64, message: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn text(id: &Value, text: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } })
}

fn call_math(id: &Value, call: &CallParams) -> Value {
    let a = call.arguments.get("a").and_then(Value::as_f64).unwrap_or_default();
    let b = call.arguments.get("b").and_then(Value::as_f64).unwrap_or_default();
    match call.name.as_str() {
        "add" => text(id, (a + b).to_string()),
        "mul" => text(id, (a * b).to_string()),
        other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": format!("Unknown tool: {other}") } }), //~ unknown_tool_wrong_code
    }
}

fn call_text(id: &Value, call: &CallParams) -> Value {
    let s = call.arguments.get("s").and_then(Value::as_str).unwrap_or_default();
    match call.name.as_str() {
        "upper" => text(id, s.to_uppercase()),
        "lower" => text(id, s.to_lowercase()),
        "reverse" => text(id, s.chars().rev().collect()),
        name => error_response(id, METHOD_NOT_FOUND, format!("no such tool: {name}")), //~ unknown_tool_wrong_code
    }
}

fn call_time(id: &Value, call: &CallParams) -> Value {
    match call.name.as_str() {
        "now" => text(id, format!("{:?}", std::time::SystemTime::now())),
        _ => error_response(id, INVALID_PARAMS, "tool not found".to_string()), //~ unknown_tool_wrong_code
    }
}

fn call_strict(id: &Value, call: &CallParams) -> Value {
    match call.name.as_str() {
        "ping" => text(id, "pong".to_string()),
        name => error_response(id, INVALID_PARAMS, format!("Unknown tool: {name}")),
    }
}

pub fn dispatch(request: &Value, server: &str) -> Value {
    let id = &request["id"];
    match request["method"].as_str().unwrap_or_default() {
        "tools/call" => {
            let call: CallParams = match serde_json::from_value(request["params"].clone()) {
                Ok(call) => call,
                Err(e) => return error_response(id, INVALID_PARAMS, format!("invalid tools/call params: {e}")),
            };
            match server {
                "math" => call_math(id, &call),
                "text" => call_text(id, &call),
                "time" => call_time(id, &call),
                _ => call_strict(id, &call),
            }
        }
        method => error_response(id, METHOD_NOT_FOUND, format!("method not found: {method}")),
    }
}
