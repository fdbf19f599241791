//! JSON-RPC framing helpers and the codes this server sends.

use serde_json::{json, Value};

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;

// Server-defined codes (kept from the 0.x wire format; clients match on them).
pub const TOOL_EXECUTION_FAILED: i64 = -32000;
pub const BOOK_NOT_FOUND: i64 = -32001;
pub const SERVER_NOT_INITIALIZED: i64 = -32002;
pub const CATALOGUE_LOCKED: i64 = -32005;
pub const INDEX_STALE: i64 = -32050;

pub const PROTOCOL_VERSION: &str = "2026-07-28";

/// A JSON-RPC error response.
pub fn rpc_error(id: Value, code: i64, message: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message }
    })
}

/// A JSON-RPC success response.
pub fn rpc_result(id: Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// A `tools/call` result the model reads as a failure.
pub fn tool_error(message: impl Into<String>) -> Value {
    json!({
        "content": [{ "type": "text", "text": message.into() }],
        "isError": true
    })
}

/// A plain-text `tools/call` result.
pub fn tool_text(text: impl Into<String>) -> Value {
    json!({ "content": [{ "type": "text", "text": text.into() }] })
}

/// A structured `tools/call` result with the JSON also given as text.
pub fn tool_json(value: Value) -> Value {
    json!({
        "content": [{ "type": "text", "text": value.to_string() }],
        "structuredContent": value
    })
}
