//@ rmcp = "3.11"
//@ dep: serde = "1"
//@ dep: dirs = "5"
// The process's own environment and clock, asked with nothing the request carries, are the
// server's: `dirs::home_dir()` missing and `SystemTime::now().duration_since(UNIX_EPOCH)` failing
// (a clock set before 1970, also read through `.map(|d| d.as_secs())` in a helper that a resource
// handler calls too, so each tool's call of it is judged) are server faults, where -32603 is
// right. A date computed from the
// model's value (`now.checked_sub(Duration::from_secs(days * 86_400))`) fails on that value:
// reported.
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NotesArgs {
    pub days: u64,
}

pub struct Notes;

fn now_secs() -> Result<u64, McpError> {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .map_err(|e| McpError::internal_error(format!("system clock is before the epoch: {e}"), None))
}

impl Notes {
    pub async fn read_stamp(&self) -> Result<ReadResourceResult, McpError> {
        let now = now_secs()?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(now.to_string(), "notes://stamp")]))
    }
}

#[tool_router]
impl Notes {
    #[tool(description = "The server's clock")]
    async fn clock(&self) -> Result<CallToolResult, McpError> {
        let now = now_secs()?;
        Ok(CallToolResult::success(vec![ContentBlock::text(now.to_string())]))
    }

    #[tool(description = "Notes changed in the last days")]
    async fn recent(&self, Parameters(args): Parameters<NotesArgs>) -> Result<CallToolResult, McpError> {
        let home = dirs::home_dir()
            .ok_or_else(|| McpError::internal_error("the server has no home directory", None))?;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_err(|e| McpError::internal_error(format!("system clock: {e}"), None))?;
        let since = SystemTime::now()
            .checked_sub(Duration::from_secs(args.days * 86_400))
            .ok_or_else(|| McpError::internal_error(format!("{} days back is before the epoch", args.days), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "{} {} {:?}",
            home.display(),
            now.as_secs(),
            since
        ))]))
    }
}
