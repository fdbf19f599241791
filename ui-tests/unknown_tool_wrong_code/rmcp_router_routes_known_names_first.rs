//@ rmcp = "1.8"
// rmcp, hand-written `ServerHandler::call_tool` that hands the router's own tools to it first
// (`if self.tool_router.has_route(name) { return self.tool_router.call(tcc).await; }`) and
// matches the few extra tools after: that early return routes the known names away, so the
// `match`'s fallback still answers every unknown name and is judged (-32601 is the wrong code).
// A guard that answers the unknown names itself first (`if !self.tool_router.has_route(name)
// && name != "trigger" { return Err(..) }`) leaves the fallback for no name: not reported.
use rmcp::{
    handler::server::{router::tool::ToolRouter, tool::ToolCallContext},
    model::{CallToolRequestMethod, CallToolRequestParams, CallToolResult, Content},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Cron {
    tool_router: ToolRouter<Cron>,
}

impl ServerHandler for Cron {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if self.tool_router.has_route(request.name.as_ref()) {
            let tcc = ToolCallContext::new(self, request, context);
            return self.tool_router.call(tcc).await;
        }
        match request.name.as_ref() {
            "trigger" => Ok(CallToolResult::success(vec![Content::text("triggered")])),
            _ => Err(McpError::method_not_found::<CallToolRequestMethod>()), //~ unknown_tool_wrong_code
        }
    }
}

#[derive(Clone)]
pub struct Guarded {
    tool_router: ToolRouter<Guarded>,
}

impl ServerHandler for Guarded {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if !self.tool_router.has_route(request.name.as_ref()) && request.name != "trigger" {
            return Err(McpError::invalid_params(format!("Unknown tool: {}", request.name), None));
        }
        match request.name.as_ref() {
            "trigger" => Ok(CallToolResult::success(vec![Content::text("triggered")])),
            _ => Err(McpError::method_not_found::<CallToolRequestMethod>()),
        }
    }
}
