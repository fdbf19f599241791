//@ dep: my-rpc = "1.0"
//@ rename: rmcp = my-rpc
// The manifest says `rmcp = { package = "my-rpc", .. }`: `rmcp::` here is another crate, whose
// `#[tool]`, `ErrorData` and `internal_error` merely share rmcp's names. Not an MCP server.
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router, ErrorData as McpError};

pub struct Search;

#[tool_router]
impl Search {
    #[tool(description = "Search the index")]
    async fn search(&self, q: String) -> Result<CallToolResult, McpError> {
        if q.contains('*') {
            return Err(McpError::internal_error("wildcards are not supported; list the terms instead", None));
        }
        Err(rmcp::ErrorData::internal_error("no index", None))
    }
}
