//! Method dispatch and the `tools/call` router.

use serde_json::{json, Value};

use crate::jobs::{self, State};
use crate::rpc::{ok, rpc_error, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND};

pub fn handle(state: &State, request: &Value) -> Option<Value> {
    // Notifications carry no id and get no response.
    let id = request.get("id")?.clone();
    let Some(method) = request.get("method").and_then(Value::as_str) else {
        return Some(rpc_error(&id, INVALID_REQUEST, "request has no `method` string"));
    };
    let params = request.get("params").cloned().unwrap_or(Value::Null);
    let response = match method {
        "initialize" => ok(
            &id,
            json!({
                "protocolVersion": "2026-07-28",
                "capabilities": { "tools": {}, "resources": {} },
                "serverInfo": { "name": "jobrunner", "version": env!("CARGO_PKG_VERSION") }
            }),
        ),
        "ping" => ok(&id, json!({})),
        "tools/list" => ok(&id, json!({ "tools": jobs::tool_list() })),
        "tools/call" => call_tool(state, &id, &params),
        "resources/list" => ok(&id, json!({ "resources": jobs::resource_list(state) })),
        "resources/read" => jobs::read_log(state, &id, &params),
        other => rpc_error(&id, METHOD_NOT_FOUND, &format!("method not found: {other}")),
    };
    Some(response)
}

fn call_tool(state: &State, id: &Value, params: &Value) -> Value {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return rpc_error(id, INVALID_PARAMS, "tools/call needs a string `name`");
    };
    let empty = json!({});
    let args = params.get("arguments").unwrap_or(&empty);
    if !args.is_object() {
        return rpc_error(id, INVALID_PARAMS, "`arguments` must be an object");
    }
    match name {
        "run_command" => jobs::run_command(state, id, args),
        "start_job" => jobs::start_job(state, id, args),
        "job_output" => jobs::job_output(state, id, args),
        "kill_job" => jobs::kill_job(state, id, args),
        "list_jobs" => jobs::list_jobs(state, id),
        "tail_file" => jobs::tail_file(id, args),
        other => rpc_error(id, INVALID_PARAMS, &format!("Unknown tool: {other}")),
    }
}
