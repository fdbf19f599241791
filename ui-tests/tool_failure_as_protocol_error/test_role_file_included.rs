//@ rmcp = "1.8"
//@ role: test
//@ include-tests
// With `include-tests`, test files and `#[cfg(test)]` code are linted like the rest.
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
        Err(McpError::internal_error("connection refused", None)) //~ tool_failure_as_protocol_error
    }
}

#[tool_handler]
impl ServerHandler for FlakyUpstream {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone)]
    struct AlsoFlaky {
        tool_router: ToolRouter<Self>,
    }

    #[tool_router]
    impl AlsoFlaky {
        #[tool(description = "Fails like a full disk")]
        async fn save(&self) -> Result<CallToolResult, McpError> {
            Err(McpError::internal_error("no space left on device", None)) //~ tool_failure_as_protocol_error
        }
    }

    #[tool_handler]
    impl ServerHandler for AlsoFlaky {}
}
