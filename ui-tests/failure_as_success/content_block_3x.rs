//@ rmcp = "3.11"
// rmcp 3.x: `#[tool]` fns with `ContentBlock`, and a manual dispatcher wrapping with `.into()`.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock},
    schemars,
    service::RequestContext,
    tool, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RepoArgs {
    pub owner: String,
    pub repo: String,
}

#[derive(Clone)]
pub struct GitHub {
    octo: octocrab::Octocrab,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl GitHub {
    #[tool(description = "Star count of a repository")]
    async fn stars(&self, Parameters(RepoArgs { owner, repo }): Parameters<RepoArgs>) -> Result<CallToolResult, McpError> {
        match self.octo.repos(&owner, &repo).get().await {
            Ok(r) => Ok(CallToolResult::success(vec![ContentBlock::text(r.stargazers_count.unwrap_or(0).to_string())])),
            Err(e) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("GitHub error: {e}"))])), //~ failure_as_success
        }
    }
}

impl ServerHandler for GitHub {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        match request.name.as_ref() {
            "rate_limit" => match self.octo.ratelimit().get().await {
                Ok(limit) => Ok(CallToolResult::success(vec![ContentBlock::text(limit.rate.remaining.to_string())]).into()),
                Err(e) => Ok(CallToolResult::success(vec![ContentBlock::text(e.to_string())]).into()), //~ failure_as_success
            },
            _ => {
                let context = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
                self.tool_router.call(context).await
            }
        }
    }
}
