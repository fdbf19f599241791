//@ rmcp = "1.8"
// rmcp, hand-written `ServerHandler::call_tool`: the fallback arm's protocol error is judged by its
// code and message. `McpError::method_not_found::<CallToolRequestMethod>()` (what rmcp's own
// `call_tool` docs suggest) is -32601 with the message "tools/call": wrong code, no tool name.
// `invalid_params("tool not found", None)` has the right code but does not say which tool.
// `invalid_params(format!("Unknown tool: {name}"), None)` is the spec's example, and so is
// `ErrorData::new(ErrorCode::INVALID_PARAMS, ..)` naming the tool. Delegating to `ToolRouter::call`
// leaves the answer to rmcp (`invalid_params("tool not found")`, inside the SDK): never reported.
use rmcp::{
    handler::server::{router::tool::ToolRouter, tool::ToolCallContext},
    model::{CallToolRequestMethod, CallToolRequestParams, CallToolResult, Content, ErrorCode},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

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
pub struct Status;

impl ServerHandler for Status {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "status" => Ok(CallToolResult::success(vec![Content::text("all systems nominal")])),
            _ => Err(McpError::invalid_params("tool not found", None)), //~ unknown_tool_wrong_code
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
        match request.name.as_ref() {
            "ping" => Ok(CallToolResult::success(vec![Content::text("pong")])),
            "time" => Ok(CallToolResult::success(vec![Content::text(format!("{:?}", std::time::SystemTime::now()))])),
            name if name.starts_with("admin_") => {
                Err(McpError::new(ErrorCode::INVALID_PARAMS, format!("Unknown tool: {name} (admin tools are disabled)"), None))
            }
            name => Err(McpError::invalid_params(format!("Unknown tool: {name}"), None)),
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
