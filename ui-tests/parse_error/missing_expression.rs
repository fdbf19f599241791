// A syntax error in the middle of a handler: the finding sits on the offending token.
use rmcp::{model::*, ErrorData as McpError};

pub fn answer(value: Option<u32>) -> Result<CallToolResult, McpError> {
    let text = match value {
        Some(v) => v.to_string(),
        None => , //~ parse_error
    };
    Ok(CallToolResult::success(vec![Content::text(text)]))
}
