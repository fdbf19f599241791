//! JSON-RPC response builders.

use serde_json::{json, Value};

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
/// A command ran past its timeout.
pub const JOB_TIMEOUT: i64 = -32001;

pub fn ok(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

pub fn rpc_error(id: &Value, code: i64, message: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message }
    })
}

/// A successful tool result with one text block.
pub fn tool_text(id: &Value, text: &str) -> Value {
    ok(id, json!({ "content": [{ "type": "text", "text": text }], "isError": false }))
}

/// A tool execution error the model reads.
pub fn tool_error(id: &Value, text: &str) -> Value {
    ok(id, json!({ "content": [{ "type": "text", "text": text }], "isError": true }))
}
