//@ rmcp = "2.2"
// The suggestion puts placeholder text where the missing content goes (HasPlaceholders: shown,
// never applied, so there is no `.fixed`): an empty vector gets a text block in the file's own
// block type, blank text gets the placeholder, `String::new()` a `String::from(..)`.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Cancel {
    pub order_id: String,
}

pub struct Orders;

#[tool_router]
impl Orders {
    #[tool(description = "Cancel an order")]
    async fn cancel(&self, Parameters(Cancel { order_id }): Parameters<Cancel>) -> Result<CallToolResult, McpError> {
        if order_id.starts_with("shipped-") {
            return Ok(CallToolResult::error(vec![])); //~ empty_error_content
        }
        if order_id.is_empty() {
            return Ok(CallToolResult::error(vec![ContentBlock::text(" ")])); //~ empty_error_content
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("cancelled {order_id}"))]))
    }

    #[tool(description = "Check the order service")]
    async fn ping(&self) -> Result<String, String> {
        Err(String::new()) //~ empty_error_content
    }
}
