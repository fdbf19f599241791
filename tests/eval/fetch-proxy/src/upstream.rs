//! Client side: we are also an MCP *client* of an upstream search server, and translate its
//! failures for our own tools.

use rmcp::model::{CallToolRequestParam, CallToolResult, ErrorCode, RawContent};
use rmcp::service::{RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde::Deserialize;
use serde_json::json;
use tokio::process::Command;

/// Servers written against the 2025 drafts still send these for "temporarily unavailable".
const LEGACY_UNAVAILABLE: i32 = -32001;

#[derive(Debug, thiserror::Error)]
pub enum UpstreamError {
    #[error("the search server rejected the query: {0}")]
    Rejected(String),
    #[error("the search tool failed: {0}")]
    Tool(String),
    #[error("the search server is unavailable ({0})")]
    Unavailable(String),
    #[error("could not talk to the search server: {0}")]
    Transport(String),
    #[error("unexpected search result: {0}")]
    Malformed(String),
}

#[derive(Debug, Deserialize)]
pub struct Hit {
    pub title: String,
    pub url: String,
    #[serde(default)]
    pub snippet: String,
}

pub struct Upstream {
    client: RunningService<RoleClient, ()>,
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| match &c.raw {
            RawContent::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Upstream {
    pub async fn connect(cmd: &str) -> anyhow::Result<Self> {
        let mut parts = cmd.split_whitespace();
        let program = parts
            .next()
            .ok_or_else(|| anyhow::anyhow!("SEARCH_SERVER_CMD is empty"))?;
        let mut command = Command::new(program);
        command.args(parts);
        let client = ().serve(TokioChildProcess::new(command)?).await?;
        Ok(Self { client })
    }

    pub async fn search(&self, query: &str) -> Result<Vec<Hit>, UpstreamError> {
        let params = CallToolRequestParam {
            name: "search".into(),
            arguments: json!({ "q": query, "limit": 10 }).as_object().cloned(),
        };
        match self.client.call_tool(params).await {
            Ok(result) if result.is_error == Some(true) => {
                Err(UpstreamError::Tool(text_of(&result)))
            }
            Ok(result) => {
                let text = text_of(&result);
                serde_json::from_str(&text).map_err(|e| UpstreamError::Malformed(e.to_string()))
            }
            Err(ServiceError::McpError(e)) if e.code == ErrorCode::INVALID_PARAMS => {
                Err(UpstreamError::Rejected(e.message.to_string()))
            }
            Err(ServiceError::McpError(e))
                if e.code == ErrorCode(LEGACY_UNAVAILABLE) || e.code.0 == -32002 =>
            {
                Err(UpstreamError::Unavailable(e.message.to_string()))
            }
            Err(ServiceError::McpError(e)) => Err(UpstreamError::Transport(format!(
                "error {}: {}",
                e.code.0, e.message
            ))),
            Err(e) => Err(UpstreamError::Transport(e.to_string())),
        }
    }
}
