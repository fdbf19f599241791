//@ rmcp = "2.2"
//@ dep: tokio = { version = "1", features = ["rt"] }
// The error of `.map_err(|e| McpError::internal_error(e, None))?` after another adapter
// (`.map_err(|e| format!("failed to open camera {n}: {e}"))`) is the text that adapter made: the
// fix keeps it (`e.to_string()`) rather than naming the adapter ("map_err failed: .."). The
// `JoinError` of the `spawn_blocking` before it is a server fault and is not reported.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler};
use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Capture {
    camera: u32,
}

fn open(n: u32) -> Result<Vec<u8>, std::io::Error> {
    std::fs::read(format!("/dev/video{n}"))
}

#[derive(Clone)]
pub struct Vision {
    tool_router: ToolRouter<Vision>,
}

#[tool_handler]
impl ServerHandler for Vision {}

#[tool_router]
impl Vision {
    #[tool(description = "Capture a frame from a camera")]
    async fn capture(&self, Parameters(p): Parameters<Capture>) -> Result<CallToolResult, McpError> {
        let n = p.camera;
        let bytes = tokio::task::spawn_blocking(move || {
            open(n).map_err(|e| format!("failed to open camera {n}: {e}"))
        })
        .await
        .map_err(|e| McpError::internal_error(format!("task join error: {e}"), None))?
        .map_err(|e| McpError::internal_error(e, None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{} bytes", bytes.len()))]))
    }
}
