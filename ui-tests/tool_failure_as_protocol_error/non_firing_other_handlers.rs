//@ rmcp = "1.8"
// Resource, prompt, completion, initialize and list handlers are not tool context: a protocol
// error is the right answer there, whatever its code. An MCP client inspecting the error a
// server sent is not building one.
use rmcp::{
    model::{
        CallToolRequestParams, CompleteRequestParams, CompleteResult, GetPromptRequestParams,
        GetPromptResult, InitializeRequestParams, InitializeResult, ListResourcesResult,
        PaginatedRequestParams, PromptMessage, PromptMessageRole, ReadResourceRequestParams,
        ReadResourceResult, ResourceContents, ServerCapabilities,
    },
    service::{RequestContext, RunningService},
    ErrorData as McpError, RoleClient, RoleServer, ServerHandler, ServiceError,
};

#[derive(Clone)]
pub struct Docs {
    root: std::path::PathBuf,
}

impl ServerHandler for Docs {
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        if request.client_info.name.is_empty() {
            return Err(McpError::invalid_request("clientInfo.name must not be empty", None));
        }
        Ok(InitializeResult::new(ServerCapabilities::builder().enable_resources().enable_prompts().build()))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let _entries = std::fs::read_dir(&self.root)
            .map_err(|e| McpError::internal_error(format!("cannot list {}: {e}", self.root.display()), None))?;
        Ok(ListResourcesResult::default())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let path = self.root.join(request.uri.trim_start_matches("docs://"));
        let text = tokio::fs::read_to_string(&path)
            .await
            .map_err(|e| McpError::internal_error(format!("cannot read {}: {e}", path.display()), None))?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, McpError> {
        let topic = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("topic"))
            .and_then(|v| v.as_str())
            .ok_or_else(|| McpError::invalid_params("prompt `summarize` needs a `topic` argument", None))?;
        let text = tokio::fs::read_to_string(self.root.join(format!("{topic}.md")))
            .await
            .map_err(|e| McpError::internal_error(format!("no notes on {topic}: {e}"), None))?;
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(PromptMessageRole::User, text)]))
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        Err(McpError::internal_error("completion index is still loading", None))
    }
}

/// Client side: calling another server's tool and looking at the protocol error it sent.
pub async fn call_remote(client: &RunningService<RoleClient, ()>) -> Option<String> {
    let request = CallToolRequestParams::new("search");
    match client.call_tool(request).await {
        Ok(result) => Some(format!("{:?}", result.content)),
        Err(ServiceError::McpError(e)) if e.code == rmcp::model::ErrorCode::INTERNAL_ERROR => {
            tracing::warn!("remote tool failed: {}", e.message);
            None
        }
        Err(_) => None,
    }
}
