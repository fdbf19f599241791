//! Builders for `tools/call` results.

use serde_json::{json, Value};

/// A successful tool result with one text block.
pub fn text_result(text: impl Into<String>) -> Value {
    json!({
        "content": [{ "type": "text", "text": text.into() }],
        "resultType": "complete"
    })
}

/// A successful tool result carrying structured content and its JSON text.
pub fn structured_result(value: Value) -> Value {
    json!({
        "content": [{ "type": "text", "text": value.to_string() }],
        "structuredContent": value,
        "resultType": "complete"
    })
}

/// A tool execution error the model can read.
pub fn tool_error(message: impl Into<String>) -> Value {
    json!({
        "content": [{ "type": "text", "text": message.into() }],
        "isError": true,
        "resultType": "complete"
    })
}
