//@ dep: serde_json = "1"
// A hand-rolled server whose tools return a crate struct named `ToolResponse` but shaped as an
// outcome (`{ success, data, error }`), which the caller turns into a success result or a
// JSON-RPC error: the unknown tool's `ToolResponse::error(..)` is not an isError result (the
// caller's -32000 is judged at the caller). A crate `ToolResult` shaped as a tool result
// (`content` and `is_error`) built in the unknown-tool arm is this lint's.
use serde_json::{json, Value};

pub struct ToolResponse {
    pub success: bool,
    pub data: Option<Value>,
    pub error: Option<String>,
}

impl ToolResponse {
    pub fn ok(data: Value) -> Self {
        ToolResponse { success: true, data: Some(data), error: None }
    }

    pub fn error(message: impl Into<String>) -> Self {
        ToolResponse { success: false, data: None, error: Some(message.into()) }
    }
}

pub struct ToolResult {
    pub content: Vec<Value>,
    pub is_error: bool,
}

fn call_tool(name: &str, args: Value) -> ToolResponse {
    match name {
        "echo" => ToolResponse::ok(args),
        _ => ToolResponse::error(format!("Unknown tool: {name}")),
    }
}

fn call_tool_v2(name: &str, args: Value) -> ToolResult {
    match name {
        "echo" => ToolResult { content: vec![json!({ "type": "text", "text": args.to_string() })], is_error: false },
        _ => ToolResult { content: vec![json!({ "type": "text", "text": format!("Unknown tool: {name}") })], is_error: true }, //~ unknown_tool_as_tool_error
    }
}

pub fn handle(request: &Value) -> Value {
    let id = request["id"].clone();
    let name = request["params"]["name"].as_str().unwrap_or_default();
    let args = request["params"]["arguments"].clone();
    match request["method"].as_str() {
        Some("tools/call") if request["v2"] == true => {
            let r = call_tool_v2(name, args);
            json!({ "jsonrpc": "2.0", "id": id, "result": { "content": r.content, "isError": r.is_error } })
        }
        Some("tools/call") => {
            let result = call_tool(name, args);
            if result.success {
                json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": result.data.unwrap_or_default().to_string() }] } })
            } else {
                //~v legacy_error_code
                json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32000, "message": result.error.unwrap_or_default() } }) //~ tool_failure_as_protocol_error
            }
        }
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "Method not found" } }),
    }
}
