//@ rmcp = "1.8"
// `value.map_err(|e| McpError::..)?` becomes a `match` that returns the isError result on the
// error path; the value stays as written. Only a call to a fn of this crate declared to return a
// `Result` makes the value's type evident (MachineApplicable); other values get MaybeIncorrect.
// `ok_or_else`/`ok_or` work on an `Option` (MachineApplicable). Statements and comments in the
// closure stay; a `match` followed by `.len()` gets parentheses.
use std::collections::HashMap;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PathArgs {
    pub path: String,
}

pub struct Files {
    aliases: HashMap<String, String>,
    tool_router: ToolRouter<Self>,
}

fn resolve(root: &str, path: &str) -> Result<std::path::PathBuf, std::io::Error> {
    std::fs::canonicalize(std::path::Path::new(root).join(path))
}

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    async fn read(&self, Parameters(PathArgs { path }): Parameters<PathArgs>) -> Result<CallToolResult, McpError> {
        let full = resolve("/srv", &path)
            .map_err(|e| McpError::internal_error(format!("cannot resolve {path}: {e}"), None))?; //~ tool_failure_as_protocol_error
        let text = std::fs::read_to_string(&full)
            .map_err(|e: std::io::Error| McpError::internal_error(format!("cannot read {}: {e}", full.display()), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Size of a file, through an alias")]
    async fn size(&self, Parameters(PathArgs { path }): Parameters<PathArgs>) -> Result<CallToolResult, McpError> {
        let target = self
            .aliases
            .get(&path)
            .ok_or_else(|| McpError::internal_error(format!("no alias {path}"), None))?; //~ tool_failure_as_protocol_error
        let len = std::fs::metadata(target)
            .map_err(|e| {
                tracing::warn!("metadata of {target} failed: {e}");
                // Logged, then reported.
                McpError::internal_error(format!("cannot stat {target}: {e}"), None) //~ tool_failure_as_protocol_error
            })?
            .len();
        let lines = std::fs::read_to_string(target).map_err(|_| McpError::internal_error(format!("{target} is not text"), None))?.lines().count(); //~ tool_failure_as_protocol_error
        let first = self.aliases.get("first").ok_or(McpError::invalid_request("no alias named first", None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(format!("{len} bytes, {lines} lines, first alias {first}"))]))
    }
}
