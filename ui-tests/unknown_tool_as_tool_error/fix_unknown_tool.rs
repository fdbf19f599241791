//@ rmcp = "1.8"
// The unknown-tool branch answers with the protocol error the spec shows: -32602 and
// `Unknown tool: <name>`, naming the tool by the arm's binding or by the name the dispatcher
// tests, and the error type as the signature writes it. Statements before the answer stay.
use rmcp::{
    model::{CallToolRequestParams, CallToolResult, Content},
    service::RequestContext,
    RoleServer, ServerHandler,
};

pub struct Calculator;

impl ServerHandler for Calculator {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        match request.name.as_ref() {
            "add" => Ok(CallToolResult::success(vec![Content::text("3")])),
            other => {
                tracing::info!("the model asked for {other}");
                Ok(CallToolResult::error(vec![Content::text(format!("no tool named {other}; try add"))])) //~ unknown_tool_as_tool_error
            }
        }
    }
}

pub struct Converter;

impl ServerHandler for Converter {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        if request.name != "convert" {
            return Ok(CallToolResult::success(vec![Content::text("this server only converts")])); //~ unknown_tool_as_tool_error
        }
        Ok(CallToolResult::success(vec![Content::text("converted")]))
    }
}
