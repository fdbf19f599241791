//@ dep: serde_json = "1"
// A hand-rolled server: a tool answers a failed query with `Ok(json!({"error": .., ..}))`, the
// dispatcher keeps each tool's `Result` and answers `Ok(value) => Ok(tool_success(value))`, a
// helper that serialises its parameter into a success result. The failure payload is reported
// where it is built, with the helper's result as the related location. Not: a result whose
// `isError` is decided at run time from the payload (`"isError": is_error`), which answers the
// same payload as isError.
use serde_json::{json, Value};

fn query(sql: &str) -> Result<Vec<String>, String> {
    Err(format!("no such extension for {sql}"))
}

fn stat_statements(_args: &Value) -> Result<Value, String> {
    match query("select * from pg_stat_statements") {
        Ok(rows) => Ok(json!({ "statements": rows })),
        Err(_) => Ok(json!({ "error": "pg_stat_statements extension not installed", "statements": [] })), //~ failure_as_success
    }
}

fn tool_success(value: Value) -> Value {
    let text = serde_json::to_string(&value).unwrap_or_else(|_| "null".to_string());
    json!({ "content": [{ "type": "text", "text": text }], "isError": false })
}

fn tool_error(message: String) -> Value {
    json!({ "content": [{ "type": "text", "text": message }], "isError": true })
}

/// The result's `isError` follows the payload's own `"error"` member.
fn tool_outcome(value: Value) -> Value {
    let is_error = value.get("error").is_some();
    json!({ "content": [{ "type": "text", "text": value.to_string() }], "isError": is_error })
}

fn lock_status(_args: &Value) -> Result<Value, String> {
    match query("select * from pg_locks") {
        Ok(rows) => Ok(json!({ "locks": rows })),
        Err(e) => Ok(json!({ "error": format!("cannot read pg_locks: {e}") })),
    }
}

fn handle_tools_call(params: &Value) -> Result<Value, String> {
    let name = params["name"].as_str().unwrap_or_default();
    let args = &params["arguments"];
    if name == "lock_status" {
        return Ok(tool_outcome(lock_status(args)?));
    }
    let result = match name {
        "get_pg_stat_statements" => stat_statements(args),
        other => return Err(format!("Unknown tool: {other}")),
    };
    match result {
        Ok(value) => Ok(tool_success(value)),
        Err(e) => Ok(tool_error(e)),
    }
}

pub fn process(request: &Value) -> Result<Value, String> {
    match request["method"].as_str().unwrap_or_default() {
        "tools/call" => handle_tools_call(&request["params"]),
        m => Err(format!("unknown method {m}")),
    }
}
