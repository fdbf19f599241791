//@ rmcp = "1.8"
// The item attribute without `reason = ".."`, and `allow-file(..)` without text, are reported
// where they are written.
//~v suppression_without_reason
// mcp-lint: allow-file(vague_error_text)
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct BackupArgs {
    pub database: String,
}

#[derive(Clone)]
pub struct Backups {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Backups {
    //~v suppression_without_reason
    #[cfg_attr(mcp_lint, allow(mcp_lint::empty_error_content))]
    #[tool(description = "Back up a database")]
    async fn backup(&self, Parameters(BackupArgs { database }): Parameters<BackupArgs>) -> Result<CallToolResult, McpError> {
        let status = tokio::process::Command::new("pg_dump").arg(&database).status().await;
        match status {
            Ok(s) if s.success() => Ok(CallToolResult::success(vec![Content::text(format!("backed up {database}"))])),
            Ok(_) => Ok(CallToolResult::error(vec![])),
            Err(_) => Ok(CallToolResult::error(vec![Content::text("Operation failed")])),
        }
    }
}

#[tool_handler]
impl ServerHandler for Backups {}
