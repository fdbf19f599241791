//@ rmcp = "1.8"
// Genuine server faults the model cannot fix are protocol errors by right: a poisoned lock, a
// closed internal channel, a `JoinError` from `spawn_blocking(..).await`, cancellation, and
// serializing the server's own output. None of these is reported.
use std::sync::{Arc, Mutex};

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct HashArgs {
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct Stats {
    pub calls: u64,
    pub last: Option<String>,
}

pub struct Job {
    pub text: String,
    pub reply: oneshot::Sender<String>,
}

#[derive(Clone)]
pub struct Hasher {
    stats: Arc<Mutex<Stats>>,
    jobs: mpsc::Sender<Job>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Hasher {
    #[tool(description = "Hash a text with a slow password hash")]
    async fn hash(
        &self,
        Parameters(HashArgs { text }): Parameters<HashArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if context.ct.is_cancelled() {
            return Err(McpError::internal_error("request cancelled by the client", None));
        }
        let input = text.clone();
        let digest = tokio::task::spawn_blocking(move || blake3::hash(input.as_bytes()).to_hex().to_string())
            .await
            .map_err(|e| McpError::internal_error(format!("hashing task panicked: {e}"), None))?;
        {
            let mut stats = self
                .stats
                .lock()
                .map_err(|_| McpError::internal_error("stats lock poisoned", None))?;
            stats.calls += 1;
            stats.last = Some(text);
        }
        Ok(CallToolResult::success(vec![Content::text(digest)]))
    }

    #[tool(description = "Hash a text on the background worker")]
    async fn hash_queued(&self, Parameters(HashArgs { text }): Parameters<HashArgs>) -> Result<CallToolResult, McpError> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job { text, reply })
            .await
            .map_err(|_| McpError::internal_error("hash worker channel closed", None))?;
        let digest = answer
            .await
            .map_err(|_| McpError::internal_error("hash worker dropped the reply channel", None))?;
        Ok(CallToolResult::success(vec![Content::text(digest)]))
    }

    #[tool(description = "Usage statistics as JSON")]
    async fn stats(&self) -> Result<CallToolResult, McpError> {
        let stats = self.stats.lock().map_err(|_| McpError::internal_error("stats lock poisoned", None))?;
        let json = serde_json::to_string(&*stats)
            .map_err(|e| McpError::internal_error(format!("cannot serialize stats: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(json)]))
    }
}

#[tool_handler]
impl ServerHandler for Hasher {}
