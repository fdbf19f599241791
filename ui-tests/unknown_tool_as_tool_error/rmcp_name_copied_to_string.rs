//@ rmcp = "3.1"
// `call_tool` copies the requested name into a local (`request.name.to_string()`, as `.clone()`
// would) and hands it to a routing helper: the helper's `match` on it is the tool dispatch, and
// its fallback answered as an isError result is MCP007. Not: a same-shaped helper handed a topic
// the server writes (`self.explain("usage")`), whose fallback answers no tool name.
use rmcp::{model::*, service::RequestContext, ErrorData as McpError, RoleServer, ServerHandler};

pub struct S;

impl S {
    async fn execute(&self, name: &str) -> CallToolResult {
        let result = match name {
            "add" => Ok(CallToolResult::success(vec![ContentBlock::text("3")])),
            other => Err(format!("Unknown tool: {other}")), //~ unknown_tool_as_tool_error
        };
        match result {
            Ok(r) => r,
            Err(e) => CallToolResult::error(vec![ContentBlock::text(e)]),
        }
    }

    async fn explain(&self, topic: &str) -> CallToolResult {
        let text = match topic {
            "usage" => Ok("call `add`".to_string()),
            other => Err(format!("no help on {other}")),
        };
        match text {
            Ok(t) => CallToolResult::success(vec![ContentBlock::text(t)]),
            Err(e) => CallToolResult::error(vec![ContentBlock::text(e)]),
        }
    }
}

impl ServerHandler for S {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let name = request.name.to_string();
        if name.is_empty() {
            return Ok(self.explain("usage").await);
        }
        Ok(self.execute(&name).await)
    }
}
