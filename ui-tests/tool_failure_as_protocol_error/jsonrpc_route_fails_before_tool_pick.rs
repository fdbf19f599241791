//@ dep: serde_json = "1"
// A hand-rolled router's `"tools/call"` arm refuses a request it cannot dispatch before it picks
// a tool: no `name` in the params, or no project selected in the server's state. That is the
// request's failure (or the server's), not a tool's: a protocol error is the right channel, so
// MCP001 stays silent, whether the refusal is built inline or by a helper the `let .. else`
// calls; the helper is no tool dispatcher. The legacy code it writes is still MCP004, also in
// the helper the router's other arms use. A tool's own failure, which the route gets back from
// the dispatch call and sends as a protocol error, is reported.
use serde_json::{json, Value};

pub struct Project;

fn json_rpc_result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn json_rpc_error(id: Value, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": message}}) //~ legacy_error_code
}

fn call_tool(_project: &Project, name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "read" => {
            let path = args.get("path").and_then(Value::as_str).unwrap_or("README.md");
            std::fs::read_to_string(path)
                .map(Value::String)
                .map_err(|e| format!("cannot read {path}: {e}"))
        }
        other => Ok(json!({"content": [{"type": "text", "text": format!("Unknown tool: {other}")}], "isError": true})), //~ unknown_tool_as_tool_error
    }
}

pub fn dispatch(project: Option<&Project>, request: &Value) -> Option<Value> {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let method = request.get("method").and_then(Value::as_str)?;
    let response = match method {
        "tools/call" => {
            let params = request.get("params").cloned().unwrap_or_else(|| json!({}));
            let Some(name) = params.get("name").and_then(Value::as_str) else {
                return Some(json_rpc_error(id, "tools/call requires name".to_owned()));
            };
            let Some(project) = project else {
                return Some(json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": {"code": -32000, "message": "no project selected; call select_project first"} //~ legacy_error_code
                }));
            };
            let arguments = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
            match call_tool(project, name, &arguments) {
                Ok(value) => json_rpc_result(id, value),
                Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": e}}), //~ tool_failure_as_protocol_error
            }
        }
        _ => json_rpc_error(id, format!("unknown method: {method}")),
    };
    Some(response)
}
