//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
// Hand-rolled servers whose tool-call handler hands the requested tool's name to a helper that
// matches it: read out of the request's JSON (`params.get("name").and_then(Value::as_str)`, also
// through locals holding the request's `params` or the name, bound by `let` or a `match`), or
// the `name` field of the request decoded into a local (`let call: CallToolRequest =
// serde_json::from_value(params)`). The helper continues the dispatch: its catch-all is the
// unknown-tool answer. Not: a helper of the same shape given a name the server chose itself (a
// helper also called that way is shared, and its catch-all is not read as a dispatch's).
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
pub struct CallToolRequest {
    pub name: String,
    #[serde(default)]
    pub arguments: Value,
}

fn tool_error(id: Value, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": message }], "isError": true } })
}

fn dispatch(name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "echo" => Ok(args.clone()),
        other => Err(format!("unknown tool: {other}")), //~ unknown_tool_as_tool_error
    }
}

fn execute(name: &str, args: Value) -> Value {
    match name {
        "echo" => json!({ "content": [{ "type": "text", "text": args.to_string() }] }),
        _ => json!({ "content": [{ "type": "text", "text": format!("Unknown tool: {name}") }], "isError": true }), //~ unknown_tool_as_tool_error
    }
}

fn handle_call(id: Value, params: Value) -> Value {
    let name = params.get("name").and_then(Value::as_str).unwrap_or("");
    let args = params.get("arguments").cloned().unwrap_or(json!({}));
    match dispatch(name, &args) {
        Ok(value) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": value.to_string() }] } }),
        Err(e) => tool_error(id, &e),
    }
}

fn handle_call_tool(id: Value, params: Value) -> Value {
    let call: CallToolRequest = match serde_json::from_value(params) {
        Ok(c) => c,
        Err(e) => return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("Invalid params: {e}") } }),
    };
    let result = execute(&call.name, call.arguments);
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn run_tool(name: &str) -> Value {
    match name {
        "time" => json!({ "content": [{ "type": "text", "text": "12:00" }] }),
        _ => json!({ "content": [{ "type": "text", "text": format!("No tool named {name}") }], "isError": true }), //~ unknown_tool_as_tool_error
    }
}

/// Given the whole request: the name is read through a local holding its `params`.
fn handle_call_request(request: &Value) -> Value {
    let params = &request["params"];
    let name = params["name"].as_str().unwrap_or_default().to_string();
    json!({ "jsonrpc": "2.0", "id": request["id"].clone(), "result": run_tool(&name) })
}

fn call_backend(name: &str) -> Value {
    match name {
        "date" => json!({ "content": [{ "type": "text", "text": "2026-12-04" }] }),
        _ => json!({ "content": [{ "type": "text", "text": format!("No backend lists {name}") }], "isError": true }), //~ unknown_tool_as_tool_error
    }
}

/// The name taken out of the request's `params` by a `match` and handed on through another local.
fn handle_call_matched(request: &Value) -> Value {
    let params = &request["params"];
    let tool_name = match params.get("name") {
        Some(Value::String(name)) => name.clone(),
        _ => return json!({ "jsonrpc": "2.0", "id": request["id"].clone(), "error": { "code": -32602, "message": "tools/call needs a tool name" } }),
    };
    let name_for_backend = tool_name;
    json!({ "jsonrpc": "2.0", "id": request["id"].clone(), "result": call_backend(&name_for_backend) })
}

/// The same shape, given a name the server chose: its catch-all answers no requested tool.
fn probe(name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "echo" => Ok(args.clone()),
        other => Err(format!("unknown probe: {other}")),
    }
}

/// A health probe that runs one fixed tool: no requested name reaches the helper.
fn health(id: Value) -> Value {
    let tool = "echo";
    match probe(tool, &json!({})) {
        Ok(_) => json!({ "jsonrpc": "2.0", "id": id, "result": {} }),
        Err(e) => tool_error(id, &e),
    }
}

pub fn handle(request: Value) -> Value {
    let id = request["id"].clone();
    let params = request["params"].clone();
    match request["method"].as_str() {
        Some("tools/call") if request["v4"] == true => handle_call_matched(&request),
        Some("tools/call") if request["v3"] == true => handle_call_request(&request),
        Some("tools/call") if request["v2"] == true => handle_call_tool(id, params),
        Some("tools/call") => handle_call(id, params),
        Some("health") => health(id),
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "Method not found" } }),
    }
}
