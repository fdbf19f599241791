//@ rmcp = "1.8"
// An rmcp server negotiates the protocol version in the SDK: a `"protocolVersion"` member it
// writes elsewhere (a status page) declares nothing, and it is judged against the target.
use rmcp::{model::ErrorCode, ErrorData as McpError};
use serde_json::json;

pub const UPSTREAM_DOWN: ErrorCode = ErrorCode(-32001); //~ legacy_error_code

pub fn status() -> serde_json::Value {
    json!({ "server": "cms", "protocolVersion": "2025-06-18", "healthy": true })
}

pub fn upstream_down(detail: &str) -> McpError {
    McpError::new(UPSTREAM_DOWN, format!("CMS backend unreachable: {detail}"), None)
}
