//@ rmcp = "1.8"
// rmcp: a helper given the client's `Peer<RoleServer>` (from `context.peer`) that sends a
// progress notification: its failure is a round trip to the client failing, not the tool's
// work, so -32603 is not reported (as when the tool sends it itself). The same helper's failure
// on the file the model named is the tool's: reported. So is a round trip's result kept in a
// local a `match` fills from a tuple in each arm (`let (result, what) = match ask { .. }`) and
// mapped later; when one arm holds something else (a file read), the mapping is reported.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, Content, CreateMessageRequestParams, ListRootsResult, NumberOrString,
        ProgressNotificationParam, ProgressToken,
    },
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

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AskArgs {
    pub sample: bool,
    pub prompt: String,
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

    #[tool(description = "Ask the client")]
    async fn ask(
        &self,
        Parameters(args): Parameters<AskArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let (result, what) = match args.sample {
            true => (
                context
                    .peer
                    .create_message(CreateMessageRequestParams::default())
                    .await
                    .map(|r| format!("{r:?}")),
                "sampling/createMessage",
            ),
            false => (
                context.peer.list_roots().await.map(|r: ListRootsResult| format!("{r:?}")),
                "roots/list",
            ),
        };
        let answer = result
            .map_err(|e| McpError::internal_error(format!("{what} failed: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(answer)]))
    }

    #[tool(description = "Read the prompt file, retrying once")]
    async fn prompt(
        &self,
        Parameters(args): Parameters<AskArgs>,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        // A tuple local rebound from itself: read a few levels deep, not forever.
        let (text, tries) = (std::fs::read_to_string(&args.prompt), 1);
        let (text, tries) = (text.map(|t| t.trim().to_string()), tries + 1);
        let body = text
            .map_err(|e| McpError::internal_error(format!("read failed after {tries}: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(body)]))
    }

    #[tool(description = "Ask the client, or read the prompt from a file")]
    async fn ask_or_read(
        &self,
        Parameters(args): Parameters<AskArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let (result, what) = match args.sample {
            true => (context.peer.list_roots().await.map(|r| format!("{r:?}")).map_err(|e| e.to_string()), "roots/list"),
            false => (std::fs::read_to_string(&args.prompt).map_err(|e| e.to_string()), "reading the prompt"),
        };
        let answer = result
            .map_err(|e| McpError::internal_error(format!("{what} failed: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(answer)]))
    }
}
