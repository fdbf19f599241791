//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
// rust-mcp-sdk's own example handlers (rust-mcp-extra's `examples/common/handler.rs`) dispatch
// with `if params.name.eq(&Tool::tool_name()) { .. } else { .. }`, the name fn `#[mcp_tool]`
// gives each tool struct: the final `else` answers a name no tool has. Answered with a
// `CallToolError` it is an isError result (MCP007); answered from the MRTR handler with -32602 it
// is the spec's answer. An `.eq` on an argument that is not the tool's name (`args.mode.eq("fast")`)
// is no dispatch, and its `else` is not an unknown tool.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    macros::{mcp_tool, JsonSchema},
    mcp_server::ServerHandler,
    schema::{
        schema_utils::CallToolError, CallToolRequestParams, CallToolResult, RpcError, ServerResult, TextContent,
    },
    McpServer, RequestContext,
};

#[mcp_tool(name = "show_auth_info", description = "Show the caller's authentication info")]
#[derive(Debug, Default, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct ShowAuthInfo {}

impl ShowAuthInfo {
    pub fn call_tool(&self) -> Result<CallToolResult, CallToolError> {
        Ok(CallToolResult::text_content(vec![TextContent::from("anonymous")]))
    }
}

#[mcp_tool(name = "echo", description = "Echo the text back")]
#[derive(Debug, Default, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct EchoTool {
    text: String,
    mode: String,
}

impl EchoTool {
    pub fn call_tool(&self) -> Result<CallToolResult, CallToolError> {
        if self.mode.eq("upper") {
            Ok(CallToolResult::text_content(vec![TextContent::from(self.text.to_uppercase())]))
        } else {
            Ok(CallToolResult::text_content(vec![TextContent::from(self.text.clone())]))
        }
    }
}

/// The example's shape.
pub struct AuthHandler;

#[async_trait]
impl ServerHandler for AuthHandler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, CallToolError> {
        if params.name.eq(&ShowAuthInfo::tool_name()) {
            let tool = ShowAuthInfo::default();
            tool.call_tool().map(|r| r.into())
        } else if params.name.eq(&EchoTool::tool_name()) {
            EchoTool::default().call_tool().map(|r| r.into())
        } else {
            Err(CallToolError::from_message(format!( //~ unknown_tool_as_tool_error
                "Tool \"{}\" does not exists or inactive!",
                params.name,
            )))
        }
    }
}

/// Right: the MRTR variant answers the name no tool has with -32602.
pub struct StrictAuthHandler;

#[async_trait]
impl ServerHandler for StrictAuthHandler {
    async fn handle_call_tool_request_mrtr(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        if params.name.eq(&ShowAuthInfo::tool_name()) {
            Ok(CallToolResult::text_content(vec![TextContent::from("anonymous")]).into())
        } else {
            Err(RpcError::invalid_params().with_message(format!("Unknown tool: {}", params.name)))
        }
    }
}
