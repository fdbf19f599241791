//! Notes as files in a directory, written with rmcp's `#[tool_router]` macros.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, Content, ErrorCode, ReadResourceRequestParams, ReadResourceResult, ResourceContents,
        ServerCapabilities, ServerInfo,
    },
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;
use tokio::sync::Mutex;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NoteName {
    /// The note's file name, e.g. `groceries.md`.
    pub name: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    /// A word to look for.
    pub query: String,
    /// How many note names to return, 1-50.
    pub limit: u32,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SaveArgs {
    pub name: String,
    pub text: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct DraftArgs {
    /// The id `start_draft` returned.
    pub draft_id: String,
    pub text: String,
}

#[derive(Clone)]
pub struct Notes {
    dir: PathBuf,
    drafts: Arc<Mutex<HashMap<String, String>>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Notes {
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            drafts: Arc::default(),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Read a note")]
    async fn read_note(&self, Parameters(NoteName { name }): Parameters<NoteName>) -> Result<CallToolResult, McpError> {
        // tool_failure_as_protocol_error (MCP001): a missing note is something the model can fix,
        // but a JSON-RPC error hides the message from it.
        let text = tokio::fs::read_to_string(self.dir.join(&name))
            .await
            .map_err(|e| McpError::internal_error(format!("cannot read note {name}: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Find the notes that contain a word")]
    async fn search(&self, Parameters(SearchArgs { query, limit }): Parameters<SearchArgs>) -> Result<CallToolResult, McpError> {
        if limit == 0 || limit > 50 {
            // tool_input_as_invalid_params (MCP006): a bad argument value is a tool execution
            // error since 2025-11-25, not -32602.
            return Err(McpError::invalid_params(format!("limit must be 1-50, got {limit}"), None));
        }
        if query.trim().is_empty() {
            // empty_error_content (MCP002): an error result that tells the model nothing.
            return Ok(CallToolResult::error(vec![]));
        }
        let mut entries = match tokio::fs::read_dir(&self.dir).await {
            Ok(entries) => entries,
            // vague_error_text (MCP003): says neither what failed nor what to do.
            Err(_) => return Ok(CallToolResult::error(vec![Content::text("Something went wrong")])),
        };
        let mut hits = Vec::new();
        while let Ok(Some(entry)) = entries.next_entry().await {
            if hits.len() >= limit as usize {
                break;
            }
            let text = tokio::fs::read_to_string(entry.path()).await.unwrap_or_default();
            if text.contains(&query) {
                hits.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        Ok(CallToolResult::success(vec![Content::text(hits.join("\n"))]))
    }

    #[tool(description = "Save a note, replacing any note with the same name")]
    async fn save_note(&self, Parameters(SaveArgs { name, text }): Parameters<SaveArgs>) -> Result<CallToolResult, McpError> {
        let lock = self.dir.join(format!("{name}.lock"));
        if tokio::fs::try_exists(&lock).await.unwrap_or(false) {
            // legacy_error_code (MCP004): -32001 is in the legacy range -32000..-32019. Inside a
            // tool it is also tool_failure_as_protocol_error (MCP001).
            return Err(McpError::new(ErrorCode(-32001), format!("note {name} is locked by another editor"), None));
        }
        match tokio::fs::write(self.dir.join(&name), text).await {
            Ok(()) => Ok(CallToolResult::success(vec![Content::text(format!("saved {name}"))])),
            // failure_as_success (MCP009): the write failed, but `isError` is not set.
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!("Error: {e}"))])),
        }
    }

    #[tool(description = "Start a draft; returns its id")]
    async fn start_draft(&self) -> Result<CallToolResult, McpError> {
        let mut drafts = self.drafts.lock().await;
        let id = format!("draft-{}", drafts.len() + 1);
        drafts.insert(id.clone(), String::new());
        Ok(CallToolResult::success(vec![Content::text(id)]))
    }

    #[tool(description = "Append text to a draft")]
    async fn append_draft(&self, Parameters(DraftArgs { draft_id, text }): Parameters<DraftArgs>) -> Result<CallToolResult, McpError> {
        let mut drafts = self.drafts.lock().await;
        let Some(draft) = drafts.get_mut(&draft_id) else {
            // stale_handle_as_success (MCP008): an unknown or expired handle answered as success,
            // so the model never learns to start a new draft.
            return Ok(CallToolResult::success(vec![Content::text(format!("draft {draft_id} not found"))]));
        };
        draft.push_str(&text);
        Ok(CallToolResult::success(vec![Content::text(format!("{} characters", draft.len()))]))
    }

    #[tool(description = "Count the words of a note")]
    async fn word_count(&self, Parameters(NoteName { name }): Parameters<NoteName>) -> Result<CallToolResult, McpError> {
        // panic_in_tool (MCP010, off by default; see it with `-W panic_in_tool`): a missing note
        // kills the request instead of answering it.
        let text = tokio::fs::read_to_string(self.dir.join(&name)).await.unwrap();
        Ok(CallToolResult::success(vec![Content::text(text.split_whitespace().count().to_string())]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Notes {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_instructions("Notes stored as files. Read them as note://<name> resources or with the tools.")
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        // Resource handlers answer with protocol errors by right: none of these is tool context.
        let Some(name) = request.uri.strip_prefix("note://") else {
            return Err(McpError::invalid_params(format!("not a note URI: {}", request.uri), None));
        };
        if name.starts_with("archive/") {
            // reserved_error_code (MCP005): -32020..-32099 belongs to the spec, which defines only
            // -32020, -32021 and -32022 there.
            return Err(McpError::new(ErrorCode(-32050), "the archive is read-only during the migration", None));
        }
        let text = tokio::fs::read_to_string(self.dir.join(name))
            .await
            .map_err(|e| McpError::invalid_params(format!("no note at {}: {e}", request.uri), None))?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]))
    }
}
