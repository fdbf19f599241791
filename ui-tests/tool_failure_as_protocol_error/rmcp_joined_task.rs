//@ rmcp = "3.11"
//@ dep: tokio = { version = "1", features = ["rt", "time"] }
//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// `Ok(Err(e))` of a joined task (`spawn_blocking(move || ..).await`, `tokio::spawn(async move {
// .. }).await`) or of a timeout (`timeout(d, fut).await`) is the error of the value the task or
// the future answers: a failure of the tool's own work when that work is, and a server fault
// when that work only handles the server's own values. The `Err(e)` of the join is the task's
// `JoinError`, a server fault, and -32603 is right there, also when the join's outcome was kept
// in a local first (`let joined = spawn_blocking(..).await; joined.map_err(..)?`).
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

#[derive(serde::Serialize)]
pub struct Stats {
    pub reads: u64,
}

fn read_file(path: &str) -> std::io::Result<String> {
    std::fs::read_to_string(path)
}

async fn fetch(url: String) -> Result<String, std::io::Error> {
    Err(std::io::Error::other(url))
}

pub struct S {
    stats: Stats,
}

#[tool_router]
impl S {
    #[tool(description = "Read a file the model names, on a blocking thread")]
    async fn read(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        match tokio::task::spawn_blocking(move || read_file(&p.path)).await {
            Ok(Ok(text)) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Ok(Err(e)) => Err(McpError::internal_error(format!("read failed: {e}"), None)), //~ tool_failure_as_protocol_error
            Err(e) => Err(McpError::internal_error(format!("worker failed: {e}"), None)),
        }
    }

    #[tool(description = "Fetch a URL the model names, with a time limit")]
    async fn fetch(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        match tokio::time::timeout(Duration::from_secs(5), fetch(p.path)).await {
            Ok(Ok(text)) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Ok(Err(e)) => Err(McpError::internal_error(format!("fetch failed: {e}"), None)), //~ tool_failure_as_protocol_error
            Err(_) => Ok(CallToolResult::error(vec![ContentBlock::text(
                "the fetch took longer than 5 s; try a smaller page",
            )])),
        }
    }

    #[tool(description = "The server's own counters")]
    async fn stats(&self) -> Result<CallToolResult, McpError> {
        let reads = self.stats.reads;
        // Serialising the server's own value: a server fault.
        match tokio::task::spawn_blocking(move || serde_json::to_string(&Stats { reads })).await {
            Ok(Ok(text)) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Ok(Err(e)) => Err(McpError::internal_error(format!("encode failed: {e}"), None)),
            Err(e) => Err(McpError::internal_error(format!("worker failed: {e}"), None)),
        }
    }

    #[tool(description = "Read a file the model names, keeping the join in a local")]
    async fn read_kept(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let joined = tokio::task::spawn_blocking(move || read_file(&p.path)).await;
        let outcome = joined.map_err(|e| McpError::internal_error(format!("worker failed: {e}"), None))?;
        let text = outcome.map_err(|e| McpError::internal_error(format!("read failed: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}
