//@ rmcp = "1.8"
// rmcp tools whose isError result in a closure of a method chain has empty or vague text, in a
// file rustfmt leaves alone. The fix writes what failed and the error in scope, which no longer
// fits on the closure's line: laid out as rustfmt does (the closure body in a block, the chain
// one call per line or its last call back on the first line).
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ReadArgs {
    pub path: String,
}

pub struct Notes;

#[tool_router]
impl Notes {
    #[tool(description = "Read a note")]
    async fn read(
        &self,
        Parameters(args): Parameters<ReadArgs>,
    ) -> Result<CallToolResult, McpError> {
        //~vvv empty_error_content
        Ok(std::fs::read_to_string(&args.path)
            .map(|t| CallToolResult::success(vec![ContentBlock::text(t)]))
            .unwrap_or_else(|e| CallToolResult::error(vec![])))
    }

    #[tool(description = "Size of a note")]
    async fn size(
        &self,
        Parameters(args): Parameters<ReadArgs>,
    ) -> Result<CallToolResult, McpError> {
        //~vvv vague_error_text
        Ok(std::fs::metadata(&args.path)
            .map(|m| CallToolResult::success(vec![ContentBlock::text(m.len().to_string())]))
            .unwrap_or_else(|e| CallToolResult::error(vec![ContentBlock::text("failed")])))
    }
}
