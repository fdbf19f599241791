//@ rmcp = "3.11"
// A tool that needs a capability the client never declared in `initialize` (sampling,
// elicitation) fails a protocol-level check of the session: the spec's answer is a protocol
// error (-32021, MissingRequiredClientCapability), so neither MCP006 (it is no argument value)
// nor MCP001 (it is no tool failure) fires, whether the check is inline, in a local or in the
// helper the tool calls, and whichever way round the branch is written. The same tool's check of
// its argument's value is still reported.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, service::RequestContext, tool,
    tool_router, ErrorData as McpError, Peer, RoleServer,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AskArgs {
    pub question: String,
}

pub struct Server;

async fn generate(question: &str, peer: &Peer<RoleServer>) -> Result<String, McpError> {
    let declares_sampling = peer
        .peer_info()
        .is_some_and(|info| info.capabilities.sampling.is_some());
    if !declares_sampling {
        return Err(McpError::invalid_params(
            "This client does not support sampling; pass a query instead",
            None,
        ));
    }
    Ok(question.to_string())
}

#[tool_router]
impl Server {
    #[tool(description = "Answer a question, generating the query through the client's model")]
    async fn ask(
        &self,
        Parameters(args): Parameters<AskArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if ctx
            .peer
            .peer_info()
            .and_then(|info| info.capabilities.elicitation.as_ref())
            .is_some()
        {
            // The client can elicit: nothing to check.
        } else {
            return Err(McpError::internal_error("client cannot elicit", None));
        }
        if args.question.trim().is_empty() {
            return Err(McpError::invalid_params("question must not be empty", None)); //~ tool_input_as_invalid_params
        }
        let query = generate(&args.question, &ctx.peer).await?;
        Ok(CallToolResult::success(vec![Content::text(query)]))
    }
}
