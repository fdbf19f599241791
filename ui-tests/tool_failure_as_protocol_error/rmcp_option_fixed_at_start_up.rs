//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// The `None` of an `Option` the server's configuration holds, read through `&self` and fields
// that cannot change behind a shared reference (`self.config.export_dir` in an `Arc<Config>`),
// was fixed when the server was built: no tool call can fill it, so a missing value is the
// server's fault and -32603 is right there, through `ok_or_else` or `let Some(..) = .. else`.
// An optional argument the model left out is the tool's failure.
use std::path::PathBuf;
use std::sync::Arc;

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

pub struct Config {
    pub export_dir: Option<PathBuf>,
    pub api_token: Option<String>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ExportArgs {
    pub name: String,
    pub format: Option<String>,
}

pub struct Console {
    config: Arc<Config>,
}

#[tool_router]
impl Console {
    #[tool(description = "Export a table")]
    async fn export(&self, Parameters(a): Parameters<ExportArgs>) -> Result<CallToolResult, McpError> {
        let dir = self
            .config
            .export_dir
            .as_ref()
            .ok_or_else(|| McpError::internal_error("no export directory was configured at start-up", None))?;
        let Some(token) = &self.config.api_token else {
            return Err(McpError::internal_error("MCP_API_TOKEN was not set at start-up", None));
        };
        let format = a
            .format
            .as_ref()
            .ok_or_else(|| McpError::internal_error("say which format to export", None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "{}/{}.{format} ({} chars of token)",
            dir.display(),
            a.name,
            token.len()
        ))]))
    }
}
