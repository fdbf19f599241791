//@ dep: serde_json = "1"
// A hand-rolled server whose stdio loop maps the router's error to a code and message with an
// `if` chain over its text (`let (code, message) = if text.contains("rate limit") { (-32002,
// ..) } else if .. { .. } else { (-32603, ..) }`), then sends `{"error": {"code": code, ..}}`.
// Each branch's code is one a tool failure can leave with: its legacy codes are this lint's,
// at the branch that picks them (the tool failures that leave this way are
// tool_failure_as_protocol_error's, at the answer). Not: the same mapping in a mock of an
// upstream server that no MCP handler reaches (it answers nobody's tool call).
use serde_json::{json, Value};

fn fetch(params: &Value) -> Result<Value, String> {
    let url = params["arguments"]["url"].as_str().unwrap_or_default();
    if url.is_empty() {
        return Err("Invalid url: expected an http(s) URL".to_string());
    }
    let body = std::fs::read_to_string(url).map_err(|e| format!("network error reading {url}: {e}"))?;
    Ok(json!({ "content": [{ "type": "text", "text": body }] }))
}

fn handle_request(method: &str, params: &Value) -> Result<Value, String> {
    match method {
        "tools/call" => match params["name"].as_str() {
            Some("fetch") => fetch(params),
            Some(other) => Err(format!("Invalid tool name: {other}")),
            None => Err("tools/call needs a name".to_string()),
        },
        other => Err(format!("Unknown method: {other}")),
    }
}

pub fn serve(line: &str) -> Value {
    let request: Value = serde_json::from_str(line).unwrap_or_default();
    let method = request["method"].as_str().unwrap_or("").to_string();
    let id = request["id"].clone();
    match handle_request(&method, &request["params"]) {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(e) => {
            let text = e.to_string();
            let (code, message) = if text.contains("rate limit") {
                (-32002, "Rate limit exceeded") //~ legacy_error_code
            } else if text.contains("network") || text.contains("timeout") {
                (-32003, "Network error") //~ legacy_error_code
            } else if text.contains("Invalid") {
                (-32602, "Invalid params")
            } else {
                (-32603, "Internal error")
            };
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message, "data": text } }) //~ tool_failure_as_protocol_error
        }
    }
}

/// A stand-in for an upstream JSON-RPC service in the crate's own checks: no MCP handler
/// reaches it.
pub fn mock_upstream_error(id: Value, failure: &str) -> Value {
    let (code, message) = if failure.contains("rate limit") {
        (-32002, "Rate limit exceeded")
    } else {
        (-32003, "Network error")
    };
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}
