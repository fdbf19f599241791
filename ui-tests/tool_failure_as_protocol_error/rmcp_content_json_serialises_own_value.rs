//@ rmcp = "1.8"
// rmcp's `Content::json(value)` is `serde_json::to_string` of the server's own value: it fails
// only through the server (rmcp itself answers that failure with -32603), so mapping it to
// -32603 is right, whatever its message says. Parsing what the model sent is the tool's failure.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Recall {
    pub query: String,
    pub filter: String,
}

pub struct Memory;

#[tool_router]
impl Memory {
    #[tool(description = "Recall memories matching a query")]
    async fn recall(&self, Parameters(args): Parameters<Recall>) -> Result<CallToolResult, McpError> {
        let filter: serde_json::Value = serde_json::from_str(&args.filter)
            .map_err(|e| McpError::internal_error(format!("bad filter: {e}"), None))?; //~ tool_failure_as_protocol_error
        let response = json!({ "query": args.query, "filter": filter, "hits": [] });
        Ok(CallToolResult::success(vec![Content::json(&response)
            .map_err(|e| McpError::internal_error(format!("Failed to serialize: {e}"), None))?]))
    }

    #[tool(description = "Forget a memory")]
    async fn forget(&self, Parameters(args): Parameters<Recall>) -> Result<CallToolResult, McpError> {
        let content = Content::json(json!({ "forgotten": args.query }))
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![content]))
    }
}
