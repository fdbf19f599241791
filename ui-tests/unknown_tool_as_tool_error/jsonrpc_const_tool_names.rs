//@ dep: serde_json = "1"
// Hand-rolled dispatchers whose known tools are named by constants (`Some(TOOL_NAME) => ..`,
// `RUN => ..`, `tools::ECHO => ..`, `if name != TOOL_NAME`) route on the tool name as literal
// names would: the fallback's isError result is the unknown-tool answer, and a tool arm's findings
// name the tool by the constant's text (`run`). Not reported: the same dispatch answering the
// unknown tool with -32602 naming it.
use serde_json::{json, Value};

pub const TOOL_NAME: &str = "run_command";
pub const RUN: &str = "run";

pub mod tools {
    pub const ECHO: &str = "echo";
}

fn ok(id: Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn tool_error(text: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": text }], "isError": true })
}

fn text(s: String) -> Value {
    json!({ "content": [{ "type": "text", "text": s }] })
}

pub fn call_tool(id: Value, params: &Value) -> Value {
    match params.get("name").and_then(Value::as_str) {
        None => return error(id, -32602, "params.name is missing"),
        Some(TOOL_NAME) => {}
        Some(other) => return ok(id, tool_error(&format!("Unknown tool: {other}"))), //~ unknown_tool_as_tool_error
    }
    ok(id, text("ran".to_string()))
}

pub fn call_named(id: Value, name: &str) -> Value {
    match name {
        RUN => match std::fs::read_to_string("/etc/run.conf") {
            Ok(conf) => ok(id, text(conf)),
            Err(e) => error(id, -32603, &format!("cannot read /etc/run.conf: {e}")), //~ tool_failure_as_protocol_error
        },
        tools::ECHO => ok(id, text("echo".to_string())),
        other => ok(id, tool_error(&format!("Unknown tool: {other}"))), //~ unknown_tool_as_tool_error
    }
}

pub fn call_guarded(id: Value, name: &str) -> Value {
    if name != TOOL_NAME {
        return ok(id, tool_error(&format!("Unknown tool: {name}"))); //~ unknown_tool_as_tool_error
    }
    ok(id, text("ran".to_string()))
}

pub fn call_right(id: Value, name: &str) -> Value {
    match name {
        RUN => ok(id, text("ran".to_string())),
        other => error(id, -32602, &format!("Unknown tool: {other}")),
    }
}

pub fn handle(request: &Value) -> Value {
    let id = request["id"].clone();
    let params = &request["params"];
    let name = params["name"].as_str().unwrap_or_default();
    match request["method"].as_str() {
        Some("tools/call") if name.starts_with("n_") => call_named(id, name),
        Some("tools/call") if name.starts_with("g_") => call_guarded(id, name),
        Some("tools/call") if name.starts_with("r_") => call_right(id, name),
        Some("tools/call") => call_tool(id, params),
        _ => error(id, -32601, "Method not found"),
    }
}
