//@ rmcp = "2.2"
// rmcp 2.x. A call written as a `tokio::select!` arm's future (or its precondition) is a call
// like any other: a helper that only a tool reaches through a `select!` future is tool code, so
// its protocol error is reported where it is built. A helper that only the server's own
// background loop reaches through a `select!` builds protocol errors freely.
use std::time::Duration;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct FetchArgs {
    pub path: String,
}

#[derive(Clone)]
pub struct Files {
    tool_router: ToolRouter<Self>,
}

impl Files {
    async fn load(&self, path: &str) -> Result<String, McpError> {
        tokio::fs::read_to_string(path).await.map_err(|e| McpError::internal_error(format!("cannot read {path}: {e}"), None)) //~ tool_failure_as_protocol_error
    }

    /// Only the refresh loop below reaches this one.
    async fn reload_index(&self) -> Result<String, McpError> {
        tokio::fs::read_to_string("index.txt").await.map_err(|e| McpError::internal_error(format!("cannot reload the index: {e}"), None))
    }

    pub async fn refresh(&self, mut stop: tokio::sync::oneshot::Receiver<()>) {
        loop {
            tokio::select! {
                biased;
                _ = &mut stop => break,
                index = self.reload_index() => {
                    if index.is_err() {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        }
    }
}

#[tool_router]
impl Files {
    pub fn new() -> Self {
        Self { tool_router: Self::tool_router() }
    }

    #[tool(description = "Read a file, or give up after five seconds")]
    async fn fetch(&self, Parameters(FetchArgs { path }): Parameters<FetchArgs>) -> Result<CallToolResult, McpError> {
        tokio::select! {
            text = self.load(&path) => Ok(CallToolResult::success(vec![ContentBlock::text(text?)])),
            _ = tokio::time::sleep(Duration::from_secs(5)), if !path.is_empty() => {
                Ok(CallToolResult::error(vec![ContentBlock::text(format!("reading {path} took over five seconds"))]))
            }
            else => Ok(CallToolResult::error(vec![ContentBlock::text("an empty path names no file")])),
        }
    }
}
