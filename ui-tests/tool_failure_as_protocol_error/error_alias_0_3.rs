//@ rmcp = "0.3"
// rmcp 0.2-0.3: `#[tool_router]` + `#[tool_handler]`, `Parameters` from `handler::server::tool`,
// and the deprecated `rmcp::Error` still imported as `McpError`. Also the non-`-32603` codes
// that are just as wrong for a tool's own failure: `-32600` and a raw `ErrorCode`.
use rmcp::{
    handler::server::tool::{Parameters, ToolRouter},
    model::{CallToolResult, Content, ErrorCode, ServerCapabilities, ServerInfo},
    schemars, tool, tool_handler, tool_router, Error as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CloneArgs {
    pub url: String,
    pub branch: Option<String>,
}

#[derive(Clone)]
pub struct GitServer {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl GitServer {
    pub fn new() -> Self {
        Self { tool_router: Self::tool_router() }
    }

    #[tool(description = "Clone a repository into the scratch directory")]
    async fn clone_repo(&self, Parameters(CloneArgs { url, branch }): Parameters<CloneArgs>) -> Result<CallToolResult, McpError> {
        let mut cmd = tokio::process::Command::new("git");
        cmd.arg("clone").arg(&url);
        if let Some(branch) = &branch {
            cmd.arg("--branch").arg(branch);
        }
        let output = cmd
            .output()
            .await
            .map_err(|e| McpError::internal_error(format!("could not start git: {e}"), None))?; //~ tool_failure_as_protocol_error
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr).to_string();
            return Err(McpError::invalid_request(format!("git clone {url} failed: {stderr}"), None)); //~ tool_failure_as_protocol_error
        }
        Ok(CallToolResult::success(vec![Content::text(format!("cloned {url}"))]))
    }

    #[tool(description = "Show the last commits of the cloned repository")]
    async fn log(&self) -> Result<CallToolResult, McpError> {
        let output = tokio::process::Command::new("git")
            .args(["log", "--oneline", "-n", "20"])
            .output()
            .await
            .map_err(|e| McpError::new(ErrorCode::INTERNAL_ERROR, e.to_string(), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(String::from_utf8_lossy(&output.stdout).to_string())]))
    }
}

#[tool_handler]
impl ServerHandler for GitServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            capabilities: ServerCapabilities::builder().enable_tools().build(),
            ..Default::default()
        }
    }
}
