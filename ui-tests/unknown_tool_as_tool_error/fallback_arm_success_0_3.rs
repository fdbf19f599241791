//@ rmcp = "0.3"
// rmcp 0.3, `rmcp::Error as McpError`, a binding pattern as the fallback arm, and a *success*
// result for the unknown tool (worse still: the model thinks the call worked). A struct-literal
// isError result in the fallback of a second dispatcher is reported too.
use rmcp::{
    model::{CallToolRequestParam, CallToolResult, Content},
    service::RequestContext,
    Error as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Greeter;

impl ServerHandler for Greeter {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match &*request.name {
            "hello" => Ok(CallToolResult::success(vec![Content::text("Hello!")])),
            "bye" => Ok(CallToolResult::success(vec![Content::text("Goodbye!")])),
            other => Ok(CallToolResult::success(vec![Content::text(format!("no tool named {other}"))])), //~ unknown_tool_as_tool_error
        }
    }
}

#[derive(Clone)]
pub struct Echo;

impl ServerHandler for Echo {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "echo" => {
                let text = request.arguments.map(|a| serde_json::Value::Object(a).to_string()).unwrap_or_default();
                Ok(CallToolResult::success(vec![Content::text(text)]))
            }
            name => Ok(CallToolResult { //~ unknown_tool_as_tool_error
                content: vec![Content::text(format!("Unknown tool: {name}"))],
                is_error: Some(true),
            }),
        }
    }
}
