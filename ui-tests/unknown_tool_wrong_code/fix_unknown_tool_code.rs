//@ rmcp = "2.2"
// The unknown-tool answer with a legacy code and a message that does not name the tool becomes
// -32602 `Unknown tool: <name>`, with the error type as this file writes it (`ErrorData`).
use rmcp::{
    model::{CallToolRequestParams, CallToolResult, ContentBlock, ErrorCode},
    service::RequestContext,
    ErrorData, RoleServer, ServerHandler,
};

pub struct Echo;

impl ServerHandler for Echo {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        match request.name.as_ref() {
            "echo" => Ok(CallToolResult::success(vec![ContentBlock::text("echo")])),
            unknown => Err(ErrorData::new(ErrorCode(-32001), "no such tool", None)), //~ unknown_tool_wrong_code
            //~^ legacy_error_code
        }
    }
}
