//@ rmcp = "3.11"
// rmcp 3.x: `ContentBlock::text` inside a hand-written dispatcher, results wrapped by `.into()`.
use rmcp::{
    model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Shell;

impl ServerHandler for Shell {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let command = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("command"))
            .and_then(|c| c.as_str())
            .unwrap_or_default()
            .to_string();
        match request.name.as_ref() {
            "run" => match tokio::process::Command::new("sh").arg("-c").arg(&command).output().await {
                Ok(out) if out.status.success() => {
                    Ok(CallToolResult::success(vec![ContentBlock::text(String::from_utf8_lossy(&out.stdout).into_owned())]).into())
                }
                Ok(_) => Ok(CallToolResult::error(vec![ContentBlock::text("Internal error")]).into()), //~ vague_error_text
                Err(_) => Ok(CallToolResult::error(vec![ContentBlock::text("error")]).into()), //~ vague_error_text
            },
            _ => Err(McpError::invalid_params(format!("Unknown tool: {}", request.name), None)),
        }
    }
}
