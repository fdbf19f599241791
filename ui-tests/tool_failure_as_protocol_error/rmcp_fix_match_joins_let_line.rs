//@ rmcp = "3.11"
// rustfmt broke `let meta =` before a `map_err(..)?` that did not fit; the `match` the fix writes
// goes up to the `let` line, as rustfmt puts it.
use rmcp::{
    handler::server::wrapper::Parameters, model::CallToolResult, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SizeArgs {
    pub path: String,
}

pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "A file's size in bytes")]
    async fn size(
        &self,
        Parameters(SizeArgs { path }): Parameters<SizeArgs>,
    ) -> Result<CallToolResult, McpError> {
        let metadata_of_the_file =
            std::fs::metadata(&path).map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![
            rmcp::model::ContentBlock::text(metadata_of_the_file.len().to_string()),
        ]))
    }
}
