//@ dep: serde_json = "1"
//@ dep: anyhow = "1"
// A hand-rolled dispatcher failing with anyhow: its catch-all `anyhow::bail!("Unknown tool: ..")`
// returns `Err` as `Err(anyhow!(..))` would, and the `tools/call` route answers every `Err` of
// the dispatch with an isError result; the same with the name taken by a let-else and the
// arguments handed on through a local (`let args = &params["arguments"]`). Not reported: a
// `bail!` in a known tool's arm (that tool's own failure, rightly an isError result).
use serde_json::{json, Value};

fn call_tool(name: &str, args: &Value) -> anyhow::Result<Value> {
    match name {
        "echo" => Ok(args.clone()),
        "fail" => anyhow::bail!("disk /data is full: free some space and retry"),
        _ => anyhow::bail!("Unknown tool: {name}"), //~ unknown_tool_as_tool_error
    }
}

pub fn handle(request: &Value) -> Value {
    let id = request["id"].clone();
    let params = &request["params"];
    match request["method"].as_str() {
        Some("tools/call") if params["name"].as_str().is_some_and(|n| n.starts_with("admin_")) => {
            admin_call(id, params)
        }
        Some("tools/call") if params["name"].as_str().is_some_and(|n| n.starts_with("ops_")) => {
            ops_call(id, params.clone())
        }
        Some("tools/call") => tools_call(id, params),
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "Method not found" } }),
    }
}

fn tools_call(id: Value, params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    match call_tool(name, &params["arguments"]) {
        Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": v.to_string() }] } }),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": format!("tool error: {e}") }], "isError": true } }),
    }
}

fn call_admin_tool(name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "admin_echo" => Ok(args.clone()),
        _ => Err(format!("Unknown tool: {name}")), //~ unknown_tool_as_tool_error
    }
}

fn admin_call(id: Value, params: &Value) -> Value {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "params.name is missing" } });
    };
    let args = &params["arguments"];
    match call_admin_tool(name, args) {
        Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": v.to_string() }] } }),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": e }], "isError": true } }),
    }
}

fn call_ops_tool(name: &str, args: Value) -> anyhow::Result<Value> {
    match name {
        "ops_echo" => Ok(args),
        other => anyhow::bail!("unknown tool: {other}"), //~ unknown_tool_as_tool_error
    }
}

pub fn ops_call(id: Value, params: Value) -> Value {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "params.name is missing" } });
    };
    let name = name.to_string();
    let args = params.get("arguments").cloned().unwrap_or(Value::Null);
    let text = match call_ops_tool(&name, args) {
        Ok(v) => v.to_string(),
        Err(e) => {
            return json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": format!("tool error: {e}") }], "isError": true } });
        }
    };
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } })
}
