// A file that parses is never reported as parse_error, even next to broken ones.
use rmcp::{model::*, ErrorData as McpError};

pub fn ok_text(text: &str) -> Result<CallToolResult, McpError> {
    Ok(CallToolResult::success(vec![Content::text(text.to_string())]))
}
