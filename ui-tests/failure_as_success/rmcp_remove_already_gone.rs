//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// Removing a file that is already gone reaches what the removal was for: the `Err(e) if e.kind()
// == ErrorKind::NotFound` arm of `fs::remove_file` answered as success is no failure. Any other
// error of the removal answered as success is.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub path: String,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Discard an export file")]
    async fn discard(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        match std::fs::remove_file(&p.path) {
            Ok(()) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("discarded {}", p.path))])),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Ok(CallToolResult::success(vec![ContentBlock::text(format!("{} was already gone", p.path))]))
            }
            Err(e) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("could not discard {}: {e}", p.path))])), //~ failure_as_success
        }
    }
}
