//@ rmcp = "3.11"
// A helper that checks what the client declared in `initialize` the other way round from `if
// !declared { return Err(..) }`: `if declared { return Ok(()); }`, then the refusal. The refusal
// runs only when the client never declared the capability: a protocol-level check of the session
// (the spec's MissingRequiredClientCapability), not a tool failure, so MCP001 stays silent. The
// same guard shape on a tool argument is the tool's own failure and is reported.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, service::RequestContext, tool,
    tool_router, ErrorData as McpError, RoleServer,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AskArgs {
    pub question: String,
    pub budget: u32,
}

pub struct Server;

fn require_sampling(context: &RequestContext<RoleServer>) -> Result<(), McpError> {
    let declared = context
        .peer
        .peer_info()
        .is_some_and(|info| info.capabilities.sampling.is_some());
    if declared {
        return Ok(());
    }
    Err(McpError::invalid_request(
        "client does not support sampling",
        None,
    ))
}

fn require_budget(args: &AskArgs) -> Result<(), McpError> {
    if args.budget > 0 {
        return Ok(());
    }
    Err(McpError::internal_error("budget exhausted", None)) //~ tool_failure_as_protocol_error
}

#[tool_router]
impl Server {
    #[tool(description = "Ask the client's model")]
    async fn ask(
        &self,
        Parameters(args): Parameters<AskArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        require_sampling(&context)?;
        require_budget(&args)?;
        Ok(CallToolResult::success(vec![Content::text(args.question)]))
    }
}
