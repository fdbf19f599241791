//@ rmcp = "3.11"
//@ dep: serde = "1"
//@ dep: serde_json = "1"
// Reading back a value the server has just serialised itself (`serde_json::from_value(v)` with
// `v = serde_json::to_value(&self.state)?`, `from_str(&text)` with `text = to_string(&args)?`)
// fails only on the server's own types: a server fault, where -32603 is right. Decoding the
// model's text is the tool's failure: reported.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
pub struct ImportArgs {
    pub text: String,
}

#[derive(Clone, Default, Deserialize, Serialize)]
pub struct Board {
    pub cards: u32,
}

pub struct Kanban {
    board: Board,
}

#[tool_router]
impl Kanban {
    #[tool(description = "Import cards into the board")]
    async fn import(&self, Parameters(args): Parameters<ImportArgs>) -> Result<CallToolResult, McpError> {
        let snapshot = serde_json::to_value(&self.board)
            .map_err(|e| McpError::internal_error(format!("snapshot: {e}"), None))?;
        let copy: Board = serde_json::from_value(snapshot)
            .map_err(|e| McpError::internal_error(format!("snapshot read-back: {e}"), None))?;
        let echoed = serde_json::to_string(&args)
            .map_err(|e| McpError::internal_error(format!("echo: {e}"), None))?;
        let request: ImportArgs = serde_json::from_str(&echoed)
            .map_err(|e| McpError::internal_error(format!("echo read-back: {e}"), None))?;
        let imported: Board = serde_json::from_str(&args.text)
            .map_err(|e| McpError::internal_error(format!("cards JSON: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "{} + {} cards ({})",
            copy.cards,
            imported.cards,
            request.text.len()
        ))]))
    }
}
