//@ rmcp = "1.8"
// The spec's answer to an unknown tool: -32602 with a message that names the tool. A message built
// at run time (`format!`) is taken to name it. Unknown tools answered by rmcp's own `ToolRouter`
// (`self.tool_router.call(..)`) are the SDK's business, never reported.
use rmcp::{
    handler::server::router::tool::ToolRouter,
    model::{CallToolRequestParams, CallToolResult, Content, ErrorCode},
    service::RequestContext,
    tool_handler, ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Calculator;

impl ServerHandler for Calculator {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "add" => Ok(CallToolResult::success(vec![Content::text("3")])),
            "sub" => Ok(CallToolResult::success(vec![Content::text("1")])),
            other => Err(McpError::invalid_params(format!("Unknown tool: {other}"), None)),
        }
    }
}

#[derive(Clone)]
pub struct Clock;

impl ServerHandler for Clock {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if request.name == "now" {
            Ok(CallToolResult::success(vec![Content::text("12:00")]))
        } else {
            Err(McpError::new(ErrorCode::INVALID_PARAMS, format!("Unknown tool: {}", request.name), None))
        }
    }
}

#[derive(Clone)]
pub struct Routed {
    tool_router: ToolRouter<Self>,
}

#[tool_handler]
impl ServerHandler for Routed {}
