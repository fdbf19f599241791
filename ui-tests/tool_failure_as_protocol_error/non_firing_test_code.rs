//@ rmcp = "1.8"
// `#[cfg(test)]` modules and `#[test]` fns are test context and not linted by default: a mock
// server in a unit test may fail however it likes, and assertions build errors to compare.
use rmcp::{model::CallToolResult, ErrorData as McpError};

pub fn render(result: &CallToolResult) -> String {
    format!("{:?}", result.content)
}

#[test]
fn internal_errors_render_their_message() {
    let err = McpError::internal_error("disk full", None);
    assert_eq!(err.message, "disk full");
}

#[cfg(test)]
mod tests {
    use rmcp::{
        handler::server::router::tool::ToolRouter, model::*, tool, tool_handler, tool_router, ErrorData as McpError,
        ServerHandler,
    };

    #[derive(Clone)]
    struct FailingServer {
        tool_router: ToolRouter<Self>,
    }

    #[tool_router]
    impl FailingServer {
        #[tool(description = "Always fails, to test the client's error path")]
        async fn boom(&self) -> Result<CallToolResult, McpError> {
            Err(McpError::internal_error("upstream exploded", None))
        }
    }

    #[tool_handler]
    impl ServerHandler for FailingServer {}

    #[tokio::test]
    async fn boom_is_a_protocol_error() {
        let server = FailingServer { tool_router: FailingServer::tool_router() };
        let err = server.boom().await.unwrap_err();
        assert_eq!(err.code, ErrorCode::INTERNAL_ERROR);
    }
}
