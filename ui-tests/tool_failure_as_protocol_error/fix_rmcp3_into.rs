//@ rmcp = "3.11"
// rmcp 3.x: a hand-written `call_tool` returns `CallToolResponse`, so the isError result goes in
// through `.into()`. The file imports neither `CallToolResult` nor `ContentBlock`: the fix adds
// both in one `use`.
use rmcp::{
    model::{CallToolRequestParams, CallToolResponse},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

pub struct Clock;

impl ServerHandler for Clock {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        match request.name.as_ref() {
            "timezone" => {
                let zone = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("zone"))
                    .and_then(|z| z.as_str())
                    .unwrap_or("UTC");
                if !zone.contains('/') && zone != "UTC" {
                    return Err(McpError::internal_error(format!("{zone} is not an IANA time zone; use one such as Europe/Paris"), None)); //~ tool_failure_as_protocol_error
                }
                Err(McpError::internal_error(format!("time zone {zone} is not installed on this server"), None)) //~ tool_failure_as_protocol_error
            }
            _ => Err(McpError::invalid_params(format!("Unknown tool: {}", request.name), None)),
        }
    }
}
