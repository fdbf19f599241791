//@ rmcp = "1.8"
// The declared error type of a `#[tool]` fn decides the channel: `Err` of `String`, `Content` or
// `CallToolResult` becomes an isError result (fine), `Err` of `McpError` a protocol error, also
// when the success type is `String` or `Json<T>`.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::{Json, Parameters}},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct UrlArgs {
    pub url: String,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Headers {
    pub status: u16,
    pub content_type: Option<String>,
}

#[derive(Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Fetcher {
    #[tool(description = "Fetch a page as text")]
    async fn fetch_text(&self, Parameters(UrlArgs { url }): Parameters<UrlArgs>) -> Result<String, String> {
        let response = self.client.get(&url).send().await.map_err(|e| format!("cannot fetch {url}: {e}"))?;
        response.text().await.map_err(|e| format!("{url} sent a body that is not text: {e}"))
    }

    #[tool(description = "Fetch a page's status line and content type")]
    async fn head(&self, Parameters(UrlArgs { url }): Parameters<UrlArgs>) -> Result<Json<Headers>, McpError> {
        let response = self
            .client
            .head(&url)
            .send()
            .await
            .map_err(|e| McpError::internal_error(format!("cannot fetch {url}: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(Json(Headers {
            status: response.status().as_u16(),
            content_type: response.headers().get("content-type").and_then(|v| v.to_str().ok()).map(String::from),
        }))
    }

    #[tool(description = "Fetch a page and return its length")]
    async fn length(&self, Parameters(UrlArgs { url }): Parameters<UrlArgs>) -> Result<String, McpError> {
        let body = self.client.get(&url).send().await.and_then(|r| r.error_for_status());
        match body {
            Ok(r) => Ok(r.content_length().unwrap_or(0).to_string()),
            Err(e) => Err(McpError::internal_error(format!("cannot fetch {url}: {e}"), None)), //~ tool_failure_as_protocol_error
        }
    }

    #[tool(description = "Check that a page answers")]
    async fn ping(&self, Parameters(UrlArgs { url }): Parameters<UrlArgs>) -> Result<String, Content> {
        let response = self.client.get(&url).send().await;
        match response {
            Ok(r) if r.status().is_success() => Ok(format!("{url} is up")),
            Ok(r) => Err(Content::text(format!("{url} answered {}", r.status()))),
            Err(e) => Err(Content::text(format!("{url} is unreachable: {e}"))),
        }
    }

    #[tool(description = "Check that a page answers, with a ready-made error result")]
    async fn probe(&self, Parameters(UrlArgs { url }): Parameters<UrlArgs>) -> Result<CallToolResult, CallToolResult> {
        match self.client.get(&url).send().await {
            Ok(r) => Ok(CallToolResult::success(vec![Content::text(r.status().to_string())])),
            Err(e) => Err(CallToolResult::error(vec![Content::text(format!("{url} is unreachable: {e}"))])),
        }
    }
}

#[tool_handler]
impl ServerHandler for Fetcher {}
