//@ rmcp = "0.8"
//@ target-protocol: 2025-11-25
// SEP-1303 moved input validation to tool execution errors in 2025-11-25: the lint applies from
// that version on (the same tools are silent when targeting 2025-06-18).
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PageArgs {
    pub page: u32,
    pub per_page: u32,
}

#[derive(Clone)]
pub struct Issues {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Issues {
    #[tool(description = "List open issues")]
    async fn list_issues(&self, Parameters(PageArgs { page, per_page }): Parameters<PageArgs>) -> Result<CallToolResult, McpError> {
        if per_page == 0 || per_page > 100 {
            return Err(McpError::invalid_params(format!("per_page must be 1-100, got {per_page}"), None)); //~ tool_input_as_invalid_params
        }
        if page == 0 {
            return Err(McpError::invalid_params("page numbers start at 1", None)); //~ tool_input_as_invalid_params
        }
        Ok(CallToolResult::success(vec![Content::text(format!("page {page} of issues"))]))
    }
}

#[tool_handler]
impl ServerHandler for Issues {}
