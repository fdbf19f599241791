//@ rmcp = "1.8"
// rmcp, hand-written `call_tool`: a helper fails with `internal_error`, and the dispatcher's
// `Err(err)` arm either passes that error on (`Err(err) => Err(err)`: the helper's error is the
// answer, reported at the helper) or replaces it with one of its own
// (`Err(McpError::internal_error(format!("Search error: {err}"), None))`: only the replacement
// goes out, reported there, once).
use rmcp::{
    model::{CallToolRequestParams, CallToolResult, Content},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Crawler;

async fn fetch(url: &str) -> Result<String, String> {
    Err(format!("GET {url}: connection refused"))
}

impl Crawler {
    async fn search(&self, query: &str) -> Result<String, McpError> {
        let text = fetch(&format!("https://api.example.com/search?q={query}"))
            .await
            .map_err(|e| McpError::internal_error(e, None))?;
        Ok(text)
    }

    async fn scrape(&self, url: &str) -> Result<String, McpError> {
        fetch(url).await.map_err(|e| McpError::internal_error(e, None)) //~ tool_failure_as_protocol_error
    }
}

impl ServerHandler for Crawler {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let arg = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("q"))
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        match request.name.as_ref() {
            "search" => match self.search(&arg).await {
                Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
                Err(err) => Err(McpError::internal_error(format!("Search error: {err}"), None)), //~ tool_failure_as_protocol_error
            },
            "scrape" => match self.scrape(&arg).await {
                Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
                Err(err) => Err(err),
            },
            other => Err(McpError::invalid_params(format!("Unknown tool: {other}"), None)),
        }
    }
}
