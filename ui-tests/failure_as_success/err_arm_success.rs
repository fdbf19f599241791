//@ rmcp = "1.8"
// A failure path answered with a success result: `CallToolResult::success(..)` in an `Err(e) =>`
// arm, or in an `if let Err(e)` branch. The model reads "Error: .." as the tool's output and
// carries on. The span is the success result expression.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct WriteArgs {
    pub path: String,
    pub content: String,
}

#[derive(Clone)]
pub struct Editor {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Editor {
    #[tool(description = "Write a file")]
    async fn write(&self, Parameters(WriteArgs { path, content }): Parameters<WriteArgs>) -> Result<CallToolResult, McpError> {
        match tokio::fs::write(&path, content.as_bytes()).await {
            Ok(()) => Ok(CallToolResult::success(vec![Content::text(format!("wrote {} bytes to {path}", content.len()))])),
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!("Error: {e}"))])), //~ failure_as_success
        }
    }

    #[tool(description = "Append to a file")]
    async fn append(&self, Parameters(WriteArgs { path, content }): Parameters<WriteArgs>) -> Result<CallToolResult, McpError> {
        use tokio::io::AsyncWriteExt;
        let file = tokio::fs::OpenOptions::new().append(true).open(&path).await;
        let mut file = match file {
            Ok(f) => f,
            Err(err) => {
                tracing::warn!("append to {path}: {err}");
                return Ok(CallToolResult::success(vec![Content::text(format!( //~ failure_as_success
                    "could not open {path}: {err}"
                ))]));
            }
        };
        if let Err(e) = file.write_all(content.as_bytes()).await {
            return Ok(CallToolResult::success(vec![Content::text(e.to_string())])); //~ failure_as_success
        }
        Ok(CallToolResult::success(vec![Content::text(format!("appended to {path}"))]))
    }
}

#[tool_handler]
impl ServerHandler for Editor {}
