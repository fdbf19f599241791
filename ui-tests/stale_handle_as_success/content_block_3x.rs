//@ rmcp = "3.11"
// rmcp 3.x manual dispatcher: the success result for a missing handle is wrapped by `.into()`.
use std::collections::HashMap;
use std::sync::Arc;

use rmcp::{
    model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};
use tokio::sync::Mutex;

#[derive(Clone)]
pub struct Terminals {
    terms: Arc<Mutex<HashMap<String, Vec<String>>>>,
}

impl ServerHandler for Terminals {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let term_id = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("terminal_id"))
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        match request.name.as_ref() {
            "read_output" => match self.terms.lock().await.get(&term_id) {
                Some(lines) => Ok(CallToolResult::success(vec![ContentBlock::text(lines.join("\n"))]).into()),
                None => Ok(CallToolResult::success(vec![ContentBlock::text("")]).into()), //~ stale_handle_as_success
            },
            "kill" => {
                if self.terms.lock().await.remove(&term_id).is_none() {
                    return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                        "terminal {term_id} is gone (killed or timed out); start a new one with open_terminal"
                    ))])
                    .into());
                }
                Ok(CallToolResult::success(vec![ContentBlock::text(format!("killed {term_id}"))]).into())
            }
            _ => Err(McpError::invalid_params(format!("Unknown tool: {}", request.name), None)),
        }
    }
}
