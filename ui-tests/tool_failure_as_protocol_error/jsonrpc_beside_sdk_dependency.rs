//@ dep: serde_json = "1"
//@ dep: pmcp = "2.17"
// A hand-rolled `"tools/call"` route in a crate that also depends on an SDK (pmcp, for another
// server in the crate) is still a hand-rolled server: the route is in the code, and the SDK is
// only in the manifest, a comment (`crate::mcp_pmcp::run_stdio_server`, see `pmcp::Server`) and a
// string ("pmcp::Error"), none of which is code using it. Its tools' failures sent as JSON-RPC
// errors are this lint, and -32000 is a legacy code.
use serde_json::{json, Value};

/// The other entry point is `crate::mcp_pmcp::run_stdio_server` (pmcp::Server).
pub struct McpResponse {
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<Value>,
}

impl McpResponse {
    pub fn success(id: Value, result: Value) -> Self {
        McpResponse { id, result: Some(result), error: None }
    }

    pub fn error(id: Value, code: i32, message: String) -> Self {
        McpResponse { id, result: None, error: Some(json!({"code": code, "message": message})) }
    }
}

fn churn(id: Value, args: &Value) -> McpResponse {
    let path = args["path"].as_str().unwrap_or(".");
    match std::fs::read_to_string(path) {
        Ok(text) => McpResponse::success(id, json!({"content": [{"type": "text", "text": text}]})),
        Err(e) => McpResponse::error(id, -32000, format!("cannot analyze {path}: {e} (pmcp::Error)")), //~ tool_failure_as_protocol_error
        //~| legacy_error_code
    }
}

fn handle_tool_call(id: Value, params: &Value) -> McpResponse {
    match params["name"].as_str().unwrap_or_default() {
        "churn" => churn(id, &params["arguments"]),
        name => McpResponse::error(id, -32602, format!("Unknown tool: {name}")),
    }
}

pub fn handle_request(request: &Value) -> McpResponse {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("tools/call") => handle_tool_call(id, &request["params"]),
        _ => McpResponse::error(id, -32601, "Method not found".to_string()),
    }
}
