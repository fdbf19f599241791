//@ dep: serde_json = "1"
// A hand-rolled server's tool fn runs one tool early (`if name == "connect" { return .. }`)
// and then matches the name for the rest: the early branch is a tool, not a guard that
// answered every unknown name, so the match's catch-all still answers the unknown tool, as an
// isError result through the tools/call arm: this lint. The second fn's `if` before its match
// is a guard: it answers every name outside TOOLS (this lint, there), so the match's catch-all
// is not reached: no finding at the catch-all.
use serde_json::{json, Value};

const TOOLS: &[&str] = &["status", "echo"];

fn call_tool(name: &str, args: &Value) -> Result<Value, String> {
    if name == "connect" {
        let key = args.get("key").and_then(Value::as_str).ok_or("missing argument `key`")?;
        return Ok(json!({ "connected": key }));
    }
    match name {
        "status" => Ok(json!("ok")),
        "echo" => Ok(args.clone()),
        other => Err(format!("unknown tool `{other}`")), //~ unknown_tool_as_tool_error
    }
}

fn call_tool_guarded(name: &str, args: &Value) -> Result<Value, String> {
    if !TOOLS.contains(&name) {
        return Err(format!("no tool `{name}` here")); //~ unknown_tool_as_tool_error
    }
    match name {
        "status" => Ok(json!("ok")),
        "echo" => Ok(args.clone()),
        other => Err(format!("unknown tool `{other}`")),
    }
}

fn rpc_error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

pub fn handle(request: &Value) -> Option<Value> {
    let id = request.get("id")?;
    let Some(method) = request.get("method").and_then(Value::as_str) else {
        return Some(rpc_error(id, -32600, "invalid request: no method"));
    };
    let params = request.get("params").cloned().unwrap_or(Value::Null);
    let result = match method {
        "tools/list" => json!({ "tools": [] }),
        "tools/call" => {
            let Some(name) = params.get("name").and_then(Value::as_str) else {
                return Some(rpc_error(id, -32602, "tools/call needs a tool `name`"));
            };
            let args = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
            match call_tool(name, &args) {
                Ok(value) => json!({ "content": [{ "type": "text", "text": value.to_string() }], "isError": false }),
                Err(message) => json!({ "content": [{ "type": "text", "text": message }], "isError": true }),
            }
        }
        other => return Some(rpc_error(id, -32601, &format!("method not found: {other}"))),
    };
    Some(json!({ "jsonrpc": "2.0", "id": id, "result": result }))
}

pub fn handle_guarded(request: &Value) -> Option<Value> {
    let id = request.get("id")?;
    let method = request.get("method").and_then(Value::as_str)?;
    let params = request.get("params").cloned().unwrap_or(Value::Null);
    let result = match method {
        "tools/call" => {
            let name = params.get("name").and_then(Value::as_str)?;
            let args = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
            match call_tool_guarded(name, &args) {
                Ok(value) => json!({ "content": [{ "type": "text", "text": value.to_string() }], "isError": false }),
                Err(message) => json!({ "content": [{ "type": "text", "text": message }], "isError": true }),
            }
        }
        other => return Some(rpc_error(id, -32601, &format!("method not found: {other}"))),
    };
    Some(json!({ "jsonrpc": "2.0", "id": id, "result": result }))
}
