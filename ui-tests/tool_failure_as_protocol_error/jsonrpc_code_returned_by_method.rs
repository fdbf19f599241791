//@ dep: serde_json = "1"
// A hand-rolled server whose error response takes its code from a method that picks one per
// variant (`McpResponse::error(id, e.to_mcp_code(), e.to_string())`, `fn to_mcp_code(&self) ->
// i32 { match self { .. } }`): the tool's failure is sent as a JSON-RPC error, and the mapping's
// -32001 is a legacy code. Not: `log_error(e.severity(), ..)`, whose integer method returns no
// JSON-RPC codes, so the call is no error response although its name says error.
use serde_json::{json, Value};

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

#[derive(Debug)]
pub enum TemplateError {
    NotFound(String),
    Render(String),
}

impl TemplateError {
    pub fn to_mcp_code(&self) -> i32 {
        match self {
            TemplateError::NotFound(_) => -32001, //~ legacy_error_code
            TemplateError::Render(_) => -32603,
        }
    }
}

impl TemplateError {
    pub fn severity(&self) -> i32 {
        match self {
            TemplateError::NotFound(_) => 1,
            TemplateError::Render(_) => 2,
        }
    }
}

fn log_error(level: i32, message: String) {
    eprintln!("[{level}] {message}");
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

fn render(uri: &str) -> Result<String, TemplateError> {
    if !uri.starts_with("template://") {
        return Err(TemplateError::NotFound(uri.to_string()));
    }
    Err(TemplateError::Render(uri.to_string()))
}

fn generate(id: Value, args: &Value) -> McpResponse {
    let uri = args["uri"].as_str().unwrap_or_default();
    match render(uri) {
        Ok(text) => McpResponse::success(id, json!({"content": [{"type": "text", "text": text}]})),
        Err(e) => {
            log_error(e.severity(), e.to_string());
            McpResponse::error(id, e.to_mcp_code(), e.to_string()) //~ tool_failure_as_protocol_error
        }
    }
}

pub fn handle_request(request: &Value) -> McpResponse {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("tools/call") => match request["params"]["name"].as_str() {
            Some("generate") => generate(id, &request["params"]["arguments"]),
            Some(other) => McpResponse::error(id, -32602, format!("Unknown tool: {other}")),
            None => McpResponse::error(id, -32602, "tools/call needs a tool name".to_string()),
        },
        _ => McpResponse::error(id, -32601, "Method not found".to_string()),
    }
}
