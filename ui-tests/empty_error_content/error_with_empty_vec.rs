//@ rmcp = "1.8"
// `CallToolResult::error` with nothing the model can read: an empty vec, `Vec::new()`, or text
// blocks that are empty or whitespace only. The span is the whole `CallToolResult::error(..)`.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PathArgs {
    pub path: String,
}

#[derive(Clone)]
pub struct Files {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Files {
    #[tool(description = "Print a file")]
    async fn cat(&self, Parameters(PathArgs { path }): Parameters<PathArgs>) -> Result<CallToolResult, McpError> {
        match tokio::fs::read_to_string(&path).await {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(_) => Ok(CallToolResult::error(vec![])), //~ empty_error_content
        }
    }

    #[tool(description = "Size of a file in bytes")]
    async fn size(&self, Parameters(PathArgs { path }): Parameters<PathArgs>) -> Result<CallToolResult, McpError> {
        let Ok(meta) = tokio::fs::metadata(&path).await else {
            return Ok(CallToolResult::error(Vec::new())); //~ empty_error_content
        };
        Ok(CallToolResult::success(vec![Content::text(meta.len().to_string())]))
    }

    #[tool(description = "Remove a file")]
    async fn rm(&self, Parameters(PathArgs { path }): Parameters<PathArgs>) -> Result<CallToolResult, McpError> {
        if path.ends_with(".lock") {
            return Ok(CallToolResult::error(vec![Content::text("")])); //~ empty_error_content
        }
        if let Err(e) = tokio::fs::remove_file(&path).await {
            tracing::warn!("rm {path}: {e}");
            // Whitespace is no more readable than nothing.
            return Ok(CallToolResult::error(vec![Content::text("  \n")])); //~ empty_error_content
        }
        Ok(CallToolResult::success(vec![Content::text(format!("removed {path}"))]))
    }
}

#[tool_handler]
impl ServerHandler for Files {}
