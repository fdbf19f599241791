//@ rmcp = "1.8"
//@ role: test
// A file under `tests/` is test context as a whole: the same tool that fires in `src/` is silent.
use rmcp::{
    handler::server::router::tool::ToolRouter, model::*, tool, tool_handler, tool_router, ErrorData as McpError,
    ServerHandler,
};

#[derive(Clone)]
struct FlakyUpstream {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl FlakyUpstream {
    #[tool(description = "Fails like an unreachable upstream")]
    async fn fetch(&self) -> Result<CallToolResult, McpError> {
        Err(McpError::internal_error("connection refused", None))
    }
}

#[tool_handler]
impl ServerHandler for FlakyUpstream {}

#[tokio::test]
async fn client_sees_the_protocol_error() {
    let server = FlakyUpstream { tool_router: FlakyUpstream::tool_router() };
    assert!(server.fetch().await.is_err());
}
