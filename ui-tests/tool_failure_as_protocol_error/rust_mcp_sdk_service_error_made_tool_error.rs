//@ dep: rust-mcp-sdk = { version = "1.0", features = ["server", "macros"] }
//@ dep: async-trait = "0.1"
//@ dep: thiserror = "2"
//@ dep: serde = { version = "1", features = ["derive"] }
// rust-mcp-sdk: a service method builds an `RpcError` (-32603) and wraps it in the crate's own
// error (`#[from] RpcError`); the tool's `run_tool` hands that error to `CallToolError::new`
// (point-free or in a closure) before `?`, so it reaches the model as an isError result. The
// `RpcError` inside is no protocol error: nothing here is reported, however the dispatcher
// reaches `run_tool` (a hand-written `match` on the `tool_box!` enum). Only the unknown tool's
// isError answer is reported (MCP007).
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{CallToolRequestParams, CallToolResult, RpcError, TextContent};
use rust_mcp_sdk::McpServer;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{0}")]
    Rpc(#[from] RpcError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

pub struct FileService;

impl FileService {
    pub async fn apply_edit(&self, path: &str, replace_all: bool) -> Result<String, ServiceError> {
        let content = std::fs::read_to_string(path)?;
        if !replace_all && content.matches("old").count() > 1 {
            return Err(RpcError::internal_error()
                .with_message("oldText occurs more than once: pass replace_all=true".to_string())
                .into());
        }
        Ok(content.replace("old", "new"))
    }
}

#[mcp_tool(name = "edit_file", description = "Replace text in a file")]
#[derive(Debug, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct EditFile {
    path: String,
    replace_all: bool,
}

impl EditFile {
    pub async fn run_tool(params: Self, service: &FileService) -> Result<CallToolResult, CallToolError> {
        let text = service.apply_edit(&params.path, params.replace_all).await.map_err(CallToolError::new)?;
        Ok(CallToolResult::text_content(vec![TextContent::from(text)]))
    }
}

#[mcp_tool(name = "edit_all", description = "Replace every occurrence of text in a file")]
#[derive(Debug, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct EditAll {
    path: String,
}

impl EditAll {
    pub async fn run_tool(params: Self, service: &FileService) -> Result<CallToolResult, CallToolError> {
        let text = service.apply_edit(&params.path, true).await.map_err(|e| CallToolError::new(e))?;
        Ok(CallToolResult::text_content(vec![TextContent::from(text)]))
    }
}

rust_mcp_sdk::tool_box!(FileTools, [EditFile, EditAll]);

pub struct Handler {
    service: FileService,
}

#[async_trait]
impl ServerHandler for Handler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<CallToolResult, CallToolError> {
        let tool = FileTools::try_from(params).map_err(|_| CallToolError::unknown_tool("unknown".to_string()))?; //~ unknown_tool_as_tool_error
        match tool {
            FileTools::EditFile(params) => EditFile::run_tool(params, &self.service).await,
            FileTools::EditAll(params) => EditAll::run_tool(params, &self.service).await,
        }
    }
}
