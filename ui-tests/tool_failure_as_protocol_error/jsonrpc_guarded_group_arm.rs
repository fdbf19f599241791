//@ dep: serde_json = "1"
// A hand-rolled dispatcher that routes a group of tools with a guard, `tool_name if
// is_analysis_tool(tool_name) => handle_analysis_tools(..)`, has not picked a tool in that arm:
// the sub-router it hands the call to picks it (its literal arms are the tools, its `_` the
// unknown-tool answer). So the guarded arm is no unknown-tool fallback (no
// unknown_tool_wrong_code there), a tool's failure under the sub-router is this lint where it is
// built, and the sub-router's own `-32602 "Unsupported analysis tool"` answer to a name it does
// not know is right (no tool_input_as_invalid_params). The dispatcher's unguarded fallback is
// still the unknown-tool answer: its -32000 is the wrong code.
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

fn is_analysis_tool(name: &str) -> bool {
    matches!(name, "churn" | "complexity")
}

fn churn(id: Value, args: &Value) -> Value {
    let path = args["path"].as_str().unwrap_or(".");
    match std::fs::read_to_string(path) {
        Ok(body) => text(id, body),
        Err(e) => error(id, -32603, format!("cannot read {path}: {e}")), //~ tool_failure_as_protocol_error
    }
}

fn complexity(id: Value, args: &Value) -> Value {
    let path = args["path"].as_str().unwrap_or(".");
    match std::fs::metadata(path) {
        Ok(m) => text(id, m.len().to_string()),
        Err(e) => error(id, -32603, format!("cannot stat {path}: {e}")), //~ tool_failure_as_protocol_error
    }
}

fn handle_analysis_tools(id: Value, tool_params: ToolParams) -> Value {
    match tool_params.name.as_str() {
        "churn" => churn(id, &tool_params.arguments),
        "complexity" => complexity(id, &tool_params.arguments),
        _ => error(id, -32602, format!("Unsupported analysis tool: {}", tool_params.name)),
    }
}

fn dispatch_tool_call(id: Value, tool_params: ToolParams) -> Value {
    match tool_params.name.as_str() {
        "info" => text(id, "v1".to_string()),
        tool_name if is_analysis_tool(tool_name) => handle_analysis_tools(id, tool_params),
        _ => error(id, -32000, format!("Unknown tool: {}", tool_params.name)), //~ unknown_tool_wrong_code
        //~| legacy_error_code
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
