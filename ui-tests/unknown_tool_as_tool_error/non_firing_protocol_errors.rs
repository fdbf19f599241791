//@ rmcp = "1.8"
// An unknown tool answered with any protocol error is not this lint: -32602 "Unknown tool: .."
// (the spec's example), rmcp's `method_not_found::<CallToolRequestMethod>()` turbofish (-32601,
// what rmcp's docs suggest), or delegation to `ToolRouter::call`. Tool results inside the known
// arms are not the unknown-tool branch. (The -32601 answer is unknown_tool_wrong_code instead.)
use rmcp::{
    handler::server::{router::tool::ToolRouter, tool::ToolCallContext},
    model::{CallToolRequestMethod, CallToolRequestParams, CallToolResult, Content},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Strict;

impl ServerHandler for Strict {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "status" => Ok(CallToolResult::success(vec![Content::text("all systems nominal")])),
            "reboot" => Ok(CallToolResult::error(vec![Content::text("reboot is disabled on this host; use `status` to inspect it")])),
            name => Err(McpError::invalid_params(format!("Unknown tool: {name}"), None)),
        }
    }
}

#[derive(Clone)]
pub struct Docs;

impl ServerHandler for Docs {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "version" => Ok(CallToolResult::success(vec![Content::text(env!("CARGO_PKG_VERSION"))])),
            _ => Err(McpError::method_not_found::<CallToolRequestMethod>()), //~ unknown_tool_wrong_code
        }
    }
}

#[derive(Clone)]
pub struct Routed {
    tool_router: ToolRouter<Self>,
}

impl ServerHandler for Routed {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        self.tool_router.call(ToolCallContext::new(self, request, context)).await
    }
}
