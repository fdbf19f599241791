//@ rmcp = "3.11"
// The fixes remove the only uses of `ErrorCode` and `CallToolRequestMethod`: their imports go
// too (narrowed out of their groups), so a `-D warnings` build has no unused import.
use rmcp::model::{ErrorCode, ErrorData};
use rmcp::{
    model::{
        CallToolRequestMethod, CallToolRequestParams, CallToolResponse, CallToolResult,
        ContentBlock,
    },
    service::RequestContext,
    tool, tool_router, RoleServer, ServerHandler,
};

pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    async fn read(&self, path: String) -> Result<CallToolResult, ErrorData> {
        if path.ends_with(".tmp") {
            //~v tool_failure_as_protocol_error
            return Err(ErrorData {
                code: ErrorCode::INTERNAL_ERROR,
                message: format!("{path} is a temporary file; read the saved one").into(),
                data: None,
            });
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(path)]))
    }
}

pub struct Ping;

impl ServerHandler for Ping {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            "ping" => Ok(CallToolResult::success(vec![ContentBlock::text("pong")]).into()),
            //~v unknown_tool_wrong_code
            _ => Err(ErrorData::method_not_found::<CallToolRequestMethod>()),
        }
    }
}
