//@ rmcp = "1.8"
// Not vague: text with interpolated detail (`format!("Error: {e}")`, "Invalid input: {detail}"),
// opaque text we cannot judge (`e.to_string()`), specific messages, and vague strings that never
// reach an MCP result or error (logs, an HTTP side channel).
use axum::{http::StatusCode, response::IntoResponse};
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct FeedArgs {
    pub url: String,
    pub limit: Option<usize>,
}

#[derive(Clone)]
pub struct Feeds {
    client: reqwest::Client,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Feeds {
    #[tool(description = "Fetch the latest items of an RSS feed")]
    async fn latest(&self, Parameters(FeedArgs { url, limit }): Parameters<FeedArgs>) -> Result<CallToolResult, McpError> {
        let limit = limit.unwrap_or(10);
        if limit == 0 || limit > 50 {
            let detail = format!("limit must be between 1 and 50, got {limit}");
            return Ok(CallToolResult::error(vec![Content::text(format!("Invalid input: {detail}"))]));
        }
        let response = match self.client.get(&url).send().await {
            Ok(r) => r,
            Err(e) => {
                tracing::error!("something went wrong: {e}");
                return Ok(CallToolResult::error(vec![Content::text(format!("Error: {e}"))]));
            }
        };
        let body = match response.text().await {
            Ok(b) => b,
            Err(e) => return Ok(CallToolResult::error(vec![Content::text(e.to_string())])),
        };
        let Ok(channel) = rss::Channel::read_from(body.as_bytes()) else {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "{url} is not an RSS feed (expected an <rss> document)"
            ))]));
        };
        let titles: Vec<String> = channel.items().iter().take(limit).filter_map(|i| i.title().map(String::from)).collect();
        if titles.is_empty() {
            log::warn!("Operation failed");
            return Ok(CallToolResult::error(vec![Content::text("The feed has no items with a title")]));
        }
        Ok(CallToolResult::success(vec![Content::text(titles.join("\n"))]))
    }
}

#[tool_handler]
impl ServerHandler for Feeds {}

/// The health endpoint next to the MCP service: plain HTTP, never an MCP result.
pub async fn health(feeds_ok: bool) -> impl IntoResponse {
    if feeds_ok {
        (StatusCode::OK, "ok")
    } else {
        (StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong")
    }
}
