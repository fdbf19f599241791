//! A hand-rolled MCP server (no SDK, `serde_json` only) whose tools answer failures with
//! JSON-RPC error responses, in the forms `mcp-lint check --fix --unsafe-fixes` rewrites into the
//! isError results its tools already send on success. After fixing, the crate must still compile
//! and mcp-lint must find nothing.

use serde_json::{json, Value};

fn read_note(id: &Value, args: &Value) -> Value {
    let Some(path) = args.get("path").and_then(Value::as_str) else {
        return json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": -32603, "message": "a path is needed, such as \"notes/today.md\"" }
        });
    };
    match std::fs::read_to_string(path) {
        Ok(text) => json!({
            "jsonrpc": "2.0",
            "id": id,
            "result": { "content": [{ "type": "text", "text": text }] }
        }),
        Err(e) => json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {
                "code": -32603,
                "message": format!("cannot read {path}: {e}"),
                "data": { "path": path }
            }
        }),
    }
}

/// Answers one JSON-RPC request.
pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/call") => match request["params"]["name"].as_str() {
            Some("read_note") => read_note(id, &request["params"]["arguments"]),
            other => json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {
                    "code": -32602,
                    "message": format!("Unknown tool: {}", other.unwrap_or_default())
                }
            }),
        },
        _ => json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": -32601, "message": "method not found" }
        }),
    }
}
