//! MCP tool implementations, grouped by domain into router modules.

pub mod books;
pub mod journal;
pub mod library;
pub mod lists;
pub mod profile;
pub mod search;

use rmcp::{model::CallToolResult, model::ContentBlock, ErrorData as McpError};
use serde_json::Value;

use crate::client::ClientError;

/// Return a successful tool result carrying compact JSON as text content.
pub fn ok_json(value: &serde_json::Value) -> Result<CallToolResult, McpError> {
    let text = serde_json::to_string(value).map_err(|e| {
        McpError::internal_error(format!("failed to serialize result: {}", e), None)
    })?;
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
}

/// Return an expected-failure tool result whose message the model can read.
pub fn tool_err(msg: impl Into<String>) -> Result<CallToolResult, McpError> {
    Ok(CallToolResult::error(vec![ContentBlock::text(msg.into())]))
}

/// Uniformly surface a [`ClientError`] to the model as a readable tool error.
pub fn client_err(err: ClientError) -> Result<CallToolResult, McpError> {
    tool_err(err.to_string())
}

/// Extract an in-band mutation error from a custom-action payload. Hardcover
/// reports failures on HTTP 200 via a non-null `error` string or a non-empty
/// `errors` list; returns the joined message when present.
pub fn mutation_error(payload: &Value) -> Option<String> {
    if let Some(msg) = payload.get("error").and_then(Value::as_str) {
        if !msg.is_empty() {
            return Some(msg.to_string());
        }
    }
    if let Some(arr) = payload.get("errors").and_then(Value::as_array) {
        let msgs: Vec<String> = arr
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
        if !msgs.is_empty() {
            return Some(msgs.join("; "));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn mutation_error_reads_error_string() {
        let payload = json!({ "error": "book_id is required", "id": null });
        assert_eq!(
            mutation_error(&payload).as_deref(),
            Some("book_id is required")
        );
    }

    #[test]
    fn mutation_error_reads_errors_array() {
        let payload = json!({ "errors": ["first", "second"] });
        assert_eq!(mutation_error(&payload).as_deref(), Some("first; second"));
    }

    #[test]
    fn mutation_error_none_on_success() {
        let payload = json!({ "error": null, "id": 5, "user_book": { "id": 5 } });
        assert!(mutation_error(&payload).is_none());
        let empty = json!({ "error": "", "errors": [] });
        assert!(mutation_error(&empty).is_none());
    }
}
