//@ rmcp = "3.11"
// rmcp 3.x: the result in the fallback arm is wrapped by `.into()` or `CallToolResponse::Complete`.
use rmcp::{
    model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Units;

impl ServerHandler for Units {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let value = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("value"))
            .and_then(|v| v.as_f64())
            .unwrap_or_default();
        match request.name.as_ref() {
            "km_to_miles" => Ok(CallToolResult::success(vec![ContentBlock::text((value * 0.621_371).to_string())]).into()),
            "miles_to_km" => Ok(CallToolResponse::Complete(CallToolResult::success(vec![ContentBlock::text(
                (value / 0.621_371).to_string(),
            )]))),
            unknown => {
                tracing::warn!("client asked for unknown tool {unknown}");
                Ok(CallToolResponse::Complete(CallToolResult::error(vec![ContentBlock::text(format!( //~ unknown_tool_as_tool_error
                    "Unknown tool: {unknown}; available: km_to_miles, miles_to_km"
                ))])))
            }
        }
    }
}

#[derive(Clone)]
pub struct Units2;

impl ServerHandler for Units2 {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        match request.name.as_ref() {
            "ping" => Ok(CallToolResult::success(vec![ContentBlock::text("pong")]).into()),
            _ => Ok(CallToolResult::error(vec![ContentBlock::text(format!("Unknown tool: {}", request.name))]).into()), //~ unknown_tool_as_tool_error
        }
    }
}
