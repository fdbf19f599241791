//@ rmcp = "1.8"
// `// mcp-lint: allow(..) reason` on the finding's line or the line above. A used one silences its
// finding and is not reported; one that matches no finding is reported on the comment's line.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct JobArgs {
    pub job: String,
}

#[derive(Clone)]
pub struct Scheduler {
    queue: std::sync::Arc<crate::queue::Queue>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Scheduler {
    #[tool(description = "Enqueue a job")]
    async fn enqueue(&self, Parameters(JobArgs { job }): Parameters<JobArgs>) -> Result<CallToolResult, McpError> {
        if self.queue.is_full() {
            // mcp-lint: allow(tool_failure_as_protocol_error) our gateway retries -32603 with backoff
            return Err(McpError::internal_error("job queue is full; retry in a few seconds", None));
        }
        self.queue
            .push(&job)
            .await
            .map_err(|e| McpError::internal_error(format!("queue rejected {job}: {e}"), None))?; // mcp-lint: allow(MCP001) same gateway retry
        //~v unused_suppression
        // mcp-lint: allow(empty_error_content) older clients expect an empty error here
        Ok(CallToolResult::success(vec![Content::text(format!("queued {job}"))]))
    }

    #[tool(description = "Cancel a job")]
    async fn cancel(&self, Parameters(JobArgs { job }): Parameters<JobArgs>) -> Result<CallToolResult, McpError> {
        if !self.queue.remove(&job).await {
            //~v unused_suppression
            // mcp-lint: allow(vague_error_text) product wants a short message
            return Ok(CallToolResult::error(vec![Content::text(format!("no queued job named {job}; list_jobs shows the queue"))]));
        }
        Ok(CallToolResult::success(vec![Content::text(format!("cancelled {job}"))]))
    }
}

#[tool_handler]
impl ServerHandler for Scheduler {}
