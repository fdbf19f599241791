//@ rmcp = "1.8"
// A hand-written `call_tool` whose fallback arm answers an unknown tool with an isError result.
// The spec's answer is a protocol error ("Unknown tool: <name>", -32602). The span is the result
// expression in the arm.
use rmcp::{
    model::{CallToolRequestParams, CallToolResult, Content},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Math;

impl ServerHandler for Math {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let a = args.get("a").and_then(|v| v.as_f64()).unwrap_or(0.0);
        let b = args.get("b").and_then(|v| v.as_f64()).unwrap_or(0.0);
        match request.name.as_ref() {
            "add" => Ok(CallToolResult::success(vec![Content::text((a + b).to_string())])),
            "mul" => Ok(CallToolResult::success(vec![Content::text((a * b).to_string())])),
            _ => Ok(CallToolResult::error(vec![Content::text(format!("Unknown tool: {}", request.name))])), //~ unknown_tool_as_tool_error
        }
    }
}
