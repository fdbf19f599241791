//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
//@ dep: reqwest = { version = "0.12", features = ["json"] }
//@ dep: thiserror = "2"
// `self.http.get(url).send().await?` fails with reqwest's error, whose type the source does
// not write: it can only become a variant the enum's conversions of another crate's errors
// build (`Http`, `Io`), never `NotFound`, which only `find` builds (its tool answers it as an
// isError result). So `fetch`'s `?` reaches the `Http` and `Io` arms (-32603), not `NotFound`'s
// -32602: no MCP006 at it.
use std::collections::HashMap;

use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("no record {0}")]
    NotFound(String),
    #[error("upstream: {0}")]
    Http(#[from] reqwest::Error),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

impl From<AppError> for McpError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::NotFound(id) => McpError::invalid_params(format!("no record {id}"), None),
            other => McpError::internal_error(other.to_string(), None), //~ tool_failure_as_protocol_error
        }
    }
}

pub struct Client {
    http: reqwest::Client,
    cache: HashMap<String, String>,
}

impl Client {
    pub async fn fetch(&self, url: &str) -> Result<String, AppError> {
        let resp = self.http.get(url).send().await?;
        Ok(resp.text().await?)
    }

    pub fn find(&self, id: &str) -> Result<String, AppError> {
        self.cache.get(id).cloned().ok_or_else(|| AppError::NotFound(id.to_string()))
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct FetchArgs {
    pub url: String,
}

pub struct Server {
    client: Client,
}

#[tool_router]
impl Server {
    #[tool(description = "Fetch a page")]
    async fn fetch_page(&self, Parameters(args): Parameters<FetchArgs>) -> Result<CallToolResult, McpError> {
        let text = self.client.fetch(&args.url).await?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "Show a cached record")]
    async fn cached(&self, Parameters(args): Parameters<FetchArgs>) -> Result<CallToolResult, McpError> {
        match self.client.find(&args.url) {
            Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())])),
        }
    }
}
