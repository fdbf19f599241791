//@ dep: serde_json = "1"
// A hand-rolled server that answers `initialize` with protocol version 2025-11-25, through a
// const. The legacy range and the retirement of -32002 are 2026-07-28 rules: with no target set,
// the server is judged by the version it declares, and neither code is reported.
use serde_json::{json, Value};

/// The one protocol revision this server speaks.
pub const PROTOCOL_VERSION: &str = "2025-11-25";
/// Ours: the session timed out (server-error range, implementation-defined before 2026-07-28).
const SESSION_EXPIRED: i64 = -32001;
/// resources/read of a log that is not there (server/resources, "Error Handling").
const RESOURCE_NOT_FOUND: i64 = -32002;

fn error_response(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn initialize(id: &Value) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": { "tools": {}, "resources": {} },
            "serverInfo": { "name": "logs", "version": "0.1.0" }
        }
    })
}

fn read_resource(id: &Value, params: &Value) -> Value {
    let uri = params["uri"].as_str().unwrap_or_default();
    match std::fs::read_to_string(uri.trim_start_matches("file://")) {
        Ok(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "contents": [{ "uri": uri, "text": text }] } }),
        Err(_) => error_response(id, RESOURCE_NOT_FOUND, &format!("no log at {uri}")),
    }
}

pub fn handle(request: &Value, session_ok: bool) -> Value {
    let id = &request["id"];
    if !session_ok {
        return error_response(id, SESSION_EXPIRED, "session expired; initialize again");
    }
    match request["method"].as_str().unwrap_or_default() {
        "initialize" => initialize(id),
        "resources/read" => read_resource(id, &request["params"]),
        "tools/call" => match request["params"]["name"].as_str().unwrap_or_default() {
            "count" => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": "3" }] } }),
            other => error_response(id, -32602, &format!("Unknown tool: {other}")),
        },
        method => error_response(id, -32601, &format!("method not found: {method}")),
    }
}
