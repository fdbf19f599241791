//@ rmcp = "3.11"
// With the error value in scope, the fixes write what failed and the error (MaybeIncorrect:
// offered in the editor and by --unsafe-fixes) instead of a placeholder.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PathArgs {
    pub path: String,
}

pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    async fn read(
        &self,
        Parameters(args): Parameters<PathArgs>,
    ) -> Result<CallToolResult, McpError> {
        match std::fs::read_to_string(&args.path) {
            Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            //~v empty_error_content
            Err(e) => Ok(CallToolResult::error(vec![])),
        }
    }

    #[tool(description = "Size of a file")]
    async fn size(
        &self,
        Parameters(args): Parameters<PathArgs>,
    ) -> Result<CallToolResult, McpError> {
        match std::fs::metadata(&args.path) {
            Ok(m) => Ok(CallToolResult::success(vec![ContentBlock::text(
                m.len().to_string(),
            )])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(
                "something went wrong", //~ vague_error_text
            )])),
        }
    }
}
