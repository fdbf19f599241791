//@ dep: serde_json = "1"
// A hand-rolled dispatch handed on through helpers before a tool is picked: a guarded arm routes
// a group to `handle_analysis_tools`, which only forwards the name to `dispatch_analysis_tool`,
// which asks each sub-router in turn (`match tool_name { "churn" => Some(..), _ => None }`) and
// answers the name none of them knows. Each helper continues the dispatch, so `churn`'s -32000
// is a tool failure sent as a protocol error (and a legacy code); the final answer that names the
// tool is the unknown-tool answer, right with -32602 in `dispatch_analysis_tool` and the wrong
// code with -32603 in `dispatch_report_tool`.
use serde_json::{json, Value};

pub struct ToolParams {
    pub name: String,
    pub arguments: Value,
}

fn error(id: Value, code: i32, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn text(id: Value, text: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
}

fn churn(id: Value, args: Value) -> Value {
    let path = args["path"].as_str().unwrap_or(".");
    match std::fs::read_to_string(path) {
        Ok(body) => text(id, body),
        Err(e) => error(id, -32000, format!("cannot read {path}: {e}")), //~ tool_failure_as_protocol_error
        //~| legacy_error_code
    }
}

fn handle_core_analysis_tools(id: Value, tool_name: &str, arguments: Value) -> Option<Value> {
    match tool_name {
        "churn" => Some(churn(id, arguments)),
        _ => None,
    }
}

fn dispatch_analysis_tool(id: Value, tool_name: &str, arguments: Value) -> Value {
    if let Some(response) = handle_core_analysis_tools(id.clone(), tool_name, arguments) {
        return response;
    }
    error(id, -32602, format!("Unsupported analysis tool: {tool_name}"))
}

fn handle_analysis_tools(id: Value, tool_params: ToolParams) -> Value {
    dispatch_analysis_tool(id, &tool_params.name, tool_params.arguments)
}

fn handle_report_tools(id: Value, tool_name: &str) -> Option<Value> {
    match tool_name {
        "summary" => Some(text(id, "ok".to_string())),
        _ => None,
    }
}

fn dispatch_report_tool(id: Value, tool_name: &str) -> Value {
    if let Some(response) = handle_report_tools(id.clone(), tool_name) {
        return response;
    }
    error(id, -32603, format!("Unsupported report tool: {tool_name}")) //~ unknown_tool_wrong_code
}

fn is_analysis_tool(name: &str) -> bool {
    matches!(name, "churn")
}

fn dispatch_tool_call(id: Value, tool_params: ToolParams) -> Value {
    match tool_params.name.as_str() {
        "info" => text(id, "v1".to_string()),
        tool_name if is_analysis_tool(tool_name) => handle_analysis_tools(id, tool_params),
        tool_name if tool_name.starts_with("report_") => dispatch_report_tool(id, tool_name),
        _ => error(id, -32602, format!("Unknown tool: {}", tool_params.name)),
    }
}

pub fn handle_request(request: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("tools/call") => {
            let params = &request["params"];
            let tool_params = ToolParams {
                name: params["name"].as_str().unwrap_or_default().to_string(),
                arguments: params["arguments"].clone(),
            };
            dispatch_tool_call(id, tool_params)
        }
        _ => error(id, -32601, "Method not found".to_string()),
    }
}
