//@ rmcp = "2.2"
//@ rename: mcp = rmcp
// The manifest says `mcp = { package = "rmcp", .. }`: `mcp::` paths are rmcp's, found through
// the import, a qualified constructor and a helper in another module, and the fix's new `use`
// says `mcp::model::ContentBlock` (a `use rmcp::..` would not compile).
use mcp::model::CallToolResult;
use mcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router, ErrorData as McpError};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub q: String,
}

mod checks {
    pub fn too_long(q: &str) -> Result<(), mcp::ErrorData> {
        if q.len() > 200 {
            return Err(mcp::ErrorData::invalid_request(format!("the query has {} characters; the limit is 200", q.len()), None)); //~ tool_failure_as_protocol_error
        }
        Ok(())
    }
}

pub struct Search;

#[tool_router]
impl Search {
    #[tool(description = "Search the index")]
    async fn search(&self, Parameters(Query { q }): Parameters<Query>) -> Result<CallToolResult, McpError> {
        checks::too_long(&q)?;
        if q.contains('*') {
            return Err(McpError::internal_error("wildcards are not supported; list the terms instead", None)); //~ tool_failure_as_protocol_error
        }
        Ok(CallToolResult::success(Vec::new()))
    }
}
