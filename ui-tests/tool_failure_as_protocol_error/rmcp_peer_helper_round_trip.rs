//@ rmcp = "1.8"
// rmcp: a helper given the client's `Peer<RoleServer>` (from `context.peer`) that sends a
// progress notification: its failure is a round trip to the client failing, not the tool's
// work, so -32603 is not reported (as when the tool sends it itself). The same helper's failure
// on the file the model named is the tool's: reported.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content, ProgressNotificationParam, ProgressToken, NumberOrString},
    schemars,
    service::{Peer, RequestContext},
    tool, tool_router, ErrorData as McpError, RoleServer,
};
use serde::Deserialize;

async fn report_progress(peer: &Peer<RoleServer>, done: f64) -> Result<(), McpError> {
    let token = ProgressToken(NumberOrString::Number(1));
    peer.notify_progress(ProgressNotificationParam::new(token, done))
        .await
        .map_err(|e| McpError::internal_error(format!("cannot send progress: {e}"), None))
}

async fn read_with_progress(peer: &Peer<RoleServer>, path: &str) -> Result<String, McpError> {
    report_progress(peer, 0.0).await?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| McpError::internal_error(format!("cannot read {path}: {e}"), None))?; //~ tool_failure_as_protocol_error
    report_progress(peer, 1.0).await?;
    Ok(text)
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ReadArgs {
    pub path: String,
}

#[derive(Clone)]
pub struct Files {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Files {
    #[tool(description = "Read a file, reporting progress")]
    async fn read(
        &self,
        Parameters(args): Parameters<ReadArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let text = read_with_progress(&context.peer, &args.path).await?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
