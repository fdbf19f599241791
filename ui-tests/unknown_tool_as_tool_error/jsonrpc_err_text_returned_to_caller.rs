//@ dep: serde_json = "1"
// A hand-rolled server whose tool dispatcher returns `Err(format!("Unknown tool: {name}"))` from
// its catch-all, and whose caller answers every `Err` of it with an isError result
// (`match call_tool(name, args) { Ok(v) => .., Err(e) => tool_error(id, &e) }`): reported at
// the `Err`, with the caller's answer as the related location. Not: a second server whose caller
// answers the dispatcher's errors with a -32602 protocol error.
use serde_json::{json, Value};

fn tool_error(id: Value, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": message }], "isError": true } })
}

fn call_tool(name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "echo" => Ok(args.clone()),
        "fail" => Err("the tool failed on purpose".to_string()),
        _ => Err(format!("Unknown tool: {name}")), //~ unknown_tool_as_tool_error
    }
}

fn call_tool_v2(name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "echo" => Ok(args.clone()),
        _ => Err(format!("Unknown tool: {name}")),
    }
}

pub fn handle(request: &Value) -> Value {
    let id = request["id"].clone();
    let params = &request["params"];
    let name = params["name"].as_str().unwrap_or_default();
    match request["method"].as_str() {
        Some("tools/call") if request["v2"] == true => match call_tool_v2(name, &params["arguments"]) {
            Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": v.to_string() }] } }),
            Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": e } }),
        },
        Some("tools/call") => match call_tool(name, &params["arguments"]) {
            Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": v.to_string() }] } }),
            Err(e) => tool_error(id, &e),
        },
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "Method not found" } }),
    }
}
