// A tool impl cut off mid-edit: the file cannot be parsed, so mcp-lint reports parse_error at
// the delimiter that is never closed (the impl's opening brace) and lints nothing else in it.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::*,
    tool, tool_router, ErrorData as McpError,
};

#[derive(Clone)]
pub struct Notes {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Notes { //~ parse_error
    #[tool(description = "Append a note")]
    async fn append(&self, Parameters(text): Parameters<String>) -> Result<CallToolResult, McpError> {
        // This would be tool_failure_as_protocol_error in a file that parses; not here.
        Err(McpError::internal_error("failed", None))
    }
