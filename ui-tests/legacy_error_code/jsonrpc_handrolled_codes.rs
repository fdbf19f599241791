//@ dep: serde_json = "1"
// A hand-rolled MCP server: legacy-range codes as `"code"` members of error objects, literal or
// through an untyped const handed to the response helper (reported at the use, as for rmcp's
// untyped consts; the const's definition is just a number). Outside tools only the code is
// reported; inside a tool it is also a tool failure sent as a protocol error. The spec's -32020..
// -32022 are not legacy, and a client comparing a code emits none.
use serde_json::{json, Value};

const LEGACY_CODE: i64 = -32000;
const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
const MAX_RETRIES: u32 = 3;

fn error_response(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn fetch(id: &Value, args: &Value) -> Value {
    let url = args["url"].as_str().unwrap_or_default();
    for _ in 0..MAX_RETRIES {
        if let Ok(body) = std::fs::read_to_string(url.trim_start_matches("file://")) {
            return json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": body }] } });
        }
    }
    error_response(id, LEGACY_CODE, &format!("could not fetch {url} after {MAX_RETRIES} attempts")) //~ tool_failure_as_protocol_error
    //~^ legacy_error_code
}

pub fn handle(request: &Value, session_ok: bool) -> Value {
    let id = &request["id"];
    if !session_ok {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32001, "message": "session expired; initialize again" } }); //~ legacy_error_code
    }
    match request["method"].as_str().unwrap_or_default() {
        "initialize" if request["params"]["protocolVersion"] != "2026-07-28" => {
            error_response(id, UNSUPPORTED_PROTOCOL_VERSION, "this server speaks 2026-07-28 only")
        }
        "tools/call" => match request["params"]["name"].as_str().unwrap_or_default() {
            "fetch" => fetch(id, &request["params"]["arguments"]),
            other => error_response(id, -32602, &format!("Unknown tool: {other}")),
        },
        method => error_response(id, -32601, &format!("method not found: {method}")),
    }
}

/// Client side: a proxy deciding whether to re-initialize.
pub fn needs_reinitialize(response: &Value) -> bool {
    response["error"]["code"].as_i64() == Some(-32001) || response["error"]["code"] == LEGACY_CODE
}
