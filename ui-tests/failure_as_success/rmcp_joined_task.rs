//@ rmcp = "3.11"
//@ dep: tokio = { version = "1", features = ["rt", "time"] }
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// `Ok(Err(e))` of a joined task (`spawn_blocking(move || ..).await`, `tokio::spawn(async move {
// .. }).await`) or of a timeout (`timeout(d, fut).await`) is the tool's work failing: answered
// with a success result, the model takes the failure for the tool's output.
use std::time::Duration;

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub path: String,
}

fn read_file(path: &str) -> std::io::Result<String> {
    std::fs::read_to_string(path)
}

async fn fetch(url: String) -> Result<String, std::io::Error> {
    Err(std::io::Error::other(url))
}

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "Read a file the model names, on a blocking thread")]
    async fn read(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        match tokio::task::spawn_blocking(move || read_file(&p.path)).await {
            Ok(Ok(text)) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Ok(Err(e)) => Ok(CallToolResult::success(vec![ContentBlock::text(format!( //~ failure_as_success
                "read failed: {e}"
            ))])),
            Err(e) => Err(McpError::internal_error(format!("worker failed: {e}"), None)),
        }
    }

    #[tool(description = "Fetch a URL the model names, on a task of its own")]
    async fn fetch(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        match tokio::spawn(async move { fetch(p.path).await }).await {
            Ok(Ok(text)) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Ok(Err(e)) => Ok(CallToolResult::success(vec![ContentBlock::text(format!( //~ failure_as_success
                "fetch failed: {e}"
            ))])),
            Err(e) => Err(McpError::internal_error(format!("task failed: {e}"), None)),
        }
    }

    #[tool(description = "Fetch a URL the model names, on a task kept in a local")]
    async fn fetch_kept(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let task = tokio::spawn(fetch(p.path));
        match task.await {
            Ok(Ok(text)) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Ok(Err(e)) => Ok(CallToolResult::success(vec![ContentBlock::text(format!( //~ failure_as_success
                "fetch failed: {e}"
            ))])),
            Err(e) => Err(McpError::internal_error(format!("task failed: {e}"), None)),
        }
    }

    #[tool(description = "Fetch a URL the model names, with a time limit")]
    async fn fetch_in_time(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        match tokio::time::timeout(Duration::from_secs(5), fetch(p.path)).await {
            Ok(Ok(text)) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Ok(Err(e)) => Ok(CallToolResult::success(vec![ContentBlock::text(format!( //~ failure_as_success
                "fetch failed: {e}"
            ))])),
            Err(_) => Ok(CallToolResult::error(vec![ContentBlock::text(
                "the fetch took longer than 5 s; try a smaller page",
            )])),
        }
    }

    /// Not reported: the task's failure is an isError result.
    #[tool(description = "Read a file the model names, answering failures as tool errors")]
    async fn read_checked(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        match tokio::task::spawn_blocking(move || read_file(&p.path)).await {
            Ok(Ok(text)) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Ok(Err(e)) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "cannot read {}: {e}",
                "the file"
            ))])),
            Err(e) => Err(McpError::internal_error(format!("worker failed: {e}"), None)),
        }
    }
}
