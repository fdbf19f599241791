//@ rmcp = "2.2"
// The fix writes `ContentBlock`, which this file does not import: it adds
// `use rmcp::model::ContentBlock;` after the last `use`, once however many fixes need it (the
// second fix waits a round and then finds the import). In `mod legacy`, where a local type is
// called `ContentBlock`, the fix writes the full path instead.
use rmcp::model::CallToolResult;
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router, ErrorData as McpError};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub q: String,
}

pub struct Search;

#[tool_router]
impl Search {
    #[tool(description = "Search the index")]
    async fn search(&self, Parameters(Query { q }): Parameters<Query>) -> Result<CallToolResult, McpError> {
        if q.len() > 200 {
            return Err(McpError::internal_error(format!("the query has {} characters; the limit is 200", q.len()), None)); //~ tool_failure_as_protocol_error
        }
        if q.contains('*') {
            return Err(McpError::internal_error("wildcards are not supported; list the terms instead", None)); //~ tool_failure_as_protocol_error
        }
        Ok(CallToolResult::success(Vec::new()))
    }
}

mod legacy {
    use rmcp::{model::CallToolResult, tool, tool_router, ErrorData as McpError};

    /// A local type that takes the name.
    pub struct ContentBlock;

    pub struct Archive;

    #[tool_router]
    impl Archive {
        #[tool(description = "Restore an archived document")]
        async fn restore(&self) -> Result<CallToolResult, McpError> {
            Err(McpError::internal_error("the archive is read-only until the migration ends", None)) //~ tool_failure_as_protocol_error
        }
    }
}
