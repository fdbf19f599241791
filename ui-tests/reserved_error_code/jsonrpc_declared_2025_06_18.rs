//@ dep: serde_json = "1"
//@ dep: serde = "1"
// A hand-rolled server that negotiates among the versions it lists, the newest 2025-06-18, and
// answers `initialize` with a serde struct. With no target set it is judged by that version:
// -32040 is implementation-defined there (the partition of -32000..-32099 came with 2026-07-28),
// and the -32602 its tool rejects an argument with is still the protocol error of "Invalid
// arguments" (SEP-1303 came with 2025-11-25). JSON-RPC's own reserved range is reserved under
// every version: -32429 is reported, without a word of the declared version.
use serde::Serialize;
use serde_json::{json, Value};

const SUPPORTED: &[&str] = &["2025-06-18", "2025-03-26"];
const RATE_LIMITED: i64 = -32040;
const TOO_MANY_REQUESTS: i64 = -32429;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InitializeResult {
    protocol_version: String,
    capabilities: Value,
}

fn error_response(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn initialize(params: &Value) -> InitializeResult {
    let asked = params["protocolVersion"].as_str().unwrap_or_default();
    let version = if SUPPORTED.contains(&asked) { asked } else { SUPPORTED[0] };
    InitializeResult { protocol_version: version.to_string(), capabilities: json!({ "tools": {} }) }
}

fn lookup(id: &Value, args: &Value) -> Value {
    let Some(limit) = args["limit"].as_u64() else {
        return error_response(id, -32602, "missing required argument `limit`");
    };
    if limit > 100 {
        return error_response(id, -32602, &format!("limit must be at most 100, got {limit}"));
    }
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": "[]" }] } })
}

pub fn handle(request: &Value, calls_this_minute: u32) -> Value {
    let id = &request["id"];
    if calls_this_minute > 600 {
        return error_response(id, TOO_MANY_REQUESTS, "too many requests; retry in a minute"); //~ reserved_error_code
    }
    if calls_this_minute > 60 {
        return error_response(id, RATE_LIMITED, "rate limited; retry in a minute");
    }
    match request["method"].as_str().unwrap_or_default() {
        "initialize" => json!({ "jsonrpc": "2.0", "id": id, "result": initialize(&request["params"]) }),
        "tools/call" => match request["params"]["name"].as_str().unwrap_or_default() {
            "lookup" => lookup(id, &request["params"]["arguments"]),
            other => error_response(id, -32602, &format!("Unknown tool: {other}")),
        },
        method => error_response(id, -32601, &format!("method not found: {method}")),
    }
}
