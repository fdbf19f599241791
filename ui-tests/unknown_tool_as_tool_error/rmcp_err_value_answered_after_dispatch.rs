//@ rmcp = "1.8"
// rmcp, hand-written `ServerHandler::call_tool` that gives a `Result` for every tool name and
// answers it after the `match`: the catch-all's `Err("unknown tool ..")` becomes an isError
// result in the later `Err` arm. Reported at the catch-all's value, with no fix (the value's
// type is the arms'; the answer is built elsewhere). Not: a dispatch whose catch-all returns
// the protocol error itself.
use rmcp::{
    model::{CallToolRequestParams, CallToolResult, Content},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Files;

fn read(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
}

impl ServerHandler for Files {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let path = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("path"))
            .and_then(|p| p.as_str())
            .unwrap_or_default()
            .to_string();
        let result = match request.name.as_ref() {
            "read" => read(&path),
            "exists" => Ok(std::path::Path::new(&path).exists().to_string()),
            other => Err(format!("unknown tool: {other}")), //~ unknown_tool_as_tool_error
        };
        match result {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(e) => Ok(CallToolResult::error(vec![Content::text(e)])),
        }
    }
}

#[derive(Clone)]
pub struct Strict;

impl ServerHandler for Strict {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let result = match request.name.as_ref() {
            "read" => read("/etc/hostname"),
            other => return Err(McpError::invalid_params(format!("Unknown tool: {other}"), None)),
        };
        match result {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(e) => Ok(CallToolResult::error(vec![Content::text(e)])),
        }
    }
}
