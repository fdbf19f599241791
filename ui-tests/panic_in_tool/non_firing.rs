//@ rmcp = "1.8"
// Not tool context: `main`, constructors, resource handlers, tests. Panics there are not
// reported even with the lint enabled.
use rmcp::{
    handler::server::router::tool::ToolRouter,
    model::{CallToolResult, Content, ReadResourceRequestParams, ReadResourceResult, ResourceContents},
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler, ServiceExt,
};

#[derive(Clone)]
pub struct Motd {
    text: String,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Motd {
    pub fn from_env() -> Self {
        let text = std::env::var("MOTD").expect("MOTD must be set");
        Self { text, tool_router: Self::tool_router() }
    }

    #[tool(description = "Message of the day")]
    async fn motd(&self) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![Content::text(self.text.clone())]))
    }
}

#[tool_handler]
impl ServerHandler for Motd {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let index: usize = request.uri.trim_start_matches("motd://").parse().unwrap();
        let line = self.text.lines().nth(index).unwrap_or_default().to_string();
        Ok(ReadResourceResult::new(vec![ResourceContents::text(line, request.uri)]))
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let service = Motd::from_env().serve(rmcp::transport::stdio()).await.unwrap();
    service.waiting().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn motd_returns_the_text() {
        std::env::set_var("MOTD", "hello");
        let result = Motd::from_env().motd().await.unwrap();
        assert_eq!(result.content.len(), 1);
    }
}
