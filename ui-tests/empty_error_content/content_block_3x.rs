//@ rmcp = "3.11"
// rmcp 3.x hand-written `call_tool`: results wrapped with `.into()` or
// `CallToolResponse::Complete(..)`; the empty error inside is still found.
use rmcp::{
    model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Clock;

impl ServerHandler for Clock {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let zone = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("zone"))
            .and_then(|z| z.as_str())
            .unwrap_or("UTC")
            .to_string();
        match request.name.as_ref() {
            "now" => match zone.parse::<chrono_tz::Tz>() {
                Ok(tz) => Ok(CallToolResult::success(vec![ContentBlock::text(chrono::Utc::now().with_timezone(&tz).to_rfc3339())]).into()),
                Err(_) => Ok(CallToolResult::error(vec![]).into()), //~ empty_error_content
            },
            "offset" => match zone.parse::<chrono_tz::Tz>() {
                Ok(tz) => Ok(CallToolResult::success(vec![ContentBlock::text(tz.name().to_string())]).into()),
                Err(_) => Ok(CallToolResponse::Complete(CallToolResult::error(vec![ContentBlock::text("")]))), //~ empty_error_content
            },
            _ => Err(McpError::invalid_params(format!("Unknown tool: {}", request.name), None)),
        }
    }
}
