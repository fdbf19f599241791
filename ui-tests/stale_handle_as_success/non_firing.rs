//@ rmcp = "1.8"
// Not reported: a miss answered with an isError result that says so (what the spec asks for),
// a lookup whose miss falls through to real work (a cache), a default for an optional setting,
// and a miss in a resource handler (not tool context).
use std::collections::HashMap;
use std::sync::Arc;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content, ReadResourceRequestParams, ReadResourceResult, ResourceContents},
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;
use tokio::sync::Mutex;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct HandleArgs {
    pub handle: String,
}

#[derive(Clone)]
pub struct Browser {
    pages: Arc<Mutex<HashMap<String, String>>>,
    cache: Arc<Mutex<HashMap<String, String>>>,
    settings: Arc<HashMap<String, String>>,
    client: reqwest::Client,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Browser {
    #[tool(description = "Read the text of an open page")]
    async fn read_page(&self, Parameters(HandleArgs { handle }): Parameters<HandleArgs>) -> Result<CallToolResult, McpError> {
        let pages = self.pages.lock().await;
        let Some(text) = pages.get(&handle) else {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "page handle {handle} has expired or was never opened; call open_page to get a new one"
            ))]));
        };
        Ok(CallToolResult::success(vec![Content::text(text.clone())]))
    }

    #[tool(description = "Fetch a URL, cached")]
    async fn fetch(&self, Parameters(HandleArgs { handle: url }): Parameters<HandleArgs>) -> Result<CallToolResult, McpError> {
        if let Some(body) = self.cache.lock().await.get(&url) {
            return Ok(CallToolResult::success(vec![Content::text(body.clone())]));
        }
        let body = match self.client.get(&url).send().await {
            Ok(r) => r.text().await.unwrap_or_default(),
            Err(e) => return Ok(CallToolResult::error(vec![Content::text(format!("cannot fetch {url}: {e}"))])),
        };
        self.cache.lock().await.insert(url, body.clone());
        Ok(CallToolResult::success(vec![Content::text(body)]))
    }

    #[tool(description = "The user agent this browser sends")]
    async fn user_agent(&self) -> Result<CallToolResult, McpError> {
        let agent = self.settings.get("user_agent").cloned().unwrap_or_else(|| "mcp-browser/1.0".to_string());
        Ok(CallToolResult::success(vec![Content::text(agent)]))
    }
}

#[tool_handler]
impl ServerHandler for Browser {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let handle = request.uri.trim_start_matches("page://");
        let text = match self.pages.lock().await.get(handle) {
            Some(text) => text.clone(),
            None => String::new(),
        };
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]))
    }
}
