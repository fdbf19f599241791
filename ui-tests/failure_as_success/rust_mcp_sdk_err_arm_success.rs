//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
// rust-mcp-sdk 2.x: `CallToolResult::text_content(..)` is a success result (`is_error: None`).
// Built from the error in an `Err` arm, it reports a failure as success; `Err(CallToolError::..)`
// (an isError result from `handle_call_tool_request`) is the answer.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::ServerHandler,
    schema::{schema_utils::CallToolError, CallToolRequestParams, CallToolResult, ServerResult, TextContent},
    McpServer, RequestContext,
};

pub struct Hosts;

#[async_trait]
impl ServerHandler for Hosts {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, CallToolError> {
        match params.name.as_str() {
            "hosts" => match std::fs::read_to_string("/etc/hosts") {
                Ok(text) => Ok(CallToolResult::text_content(vec![TextContent::from(text)]).into()),
                Err(e) => Ok(CallToolResult::text_content(vec![TextContent::from(format!("Error: {e}"))]).into()), //~ failure_as_success
            },
            "hostname" => match std::fs::read_to_string("/etc/hostname") {
                Ok(text) => Ok(CallToolResult::text_content(vec![TextContent::from(text.trim().to_string())]).into()),
                Err(e) => Err(CallToolError::from_message(format!("cannot read /etc/hostname: {e}"))),
            },
            other => Err(CallToolError::unknown_tool(other.to_string())), //~ unknown_tool_as_tool_error
        }
    }
}
