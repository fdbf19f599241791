//@ dep: serde_json = "1"
// A hand-rolled server whose dispatch gives a `Result` for every tool name and answers it after
// the `match`: `let result = match name { "fetch" => .., _ => Err(format!("unknown tool: {name}"))
// }; match result { Ok(text) => tool_result(id, &text), Err(e) => tool_error(id, &e) }`. The
// catch-all's `Err` is the unknown tool's answer, and the later `Err` arm makes it an isError
// result: this lint, at the catch-all's value (the answer built from it is a related location).
// Not: a later `match` with several `Err` arms (which one gets the unknown tool's value is not
// read here); one whose `Err` arm answers -32603 is unknown_tool_wrong_code's (and the tools'
// failures it answers are tool_failure_as_protocol_error's, with no fix: the same answer serves
// the unknown tool); one after a guard that answers every name outside the tool list first.
use serde_json::{json, Value};

pub struct JsonRpcResponse {
    pub id: Value,
    pub body: Value,
}

impl JsonRpcResponse {
    pub fn ok(id: Value, result: Value) -> Self {
        JsonRpcResponse { id, body: json!({ "result": result }) }
    }

    pub fn err(id: Value, code: i64, message: String) -> Self {
        JsonRpcResponse { id, body: json!({ "error": { "code": code, "message": message } }) }
    }
}

pub fn tool_result(id: Value, text: &str) -> JsonRpcResponse {
    JsonRpcResponse::ok(id, json!({ "content": [{ "type": "text", "text": text }] }))
}

pub fn tool_error(id: Value, message: &str) -> JsonRpcResponse {
    JsonRpcResponse::ok(id, json!({ "content": [{ "type": "text", "text": message }], "isError": true }))
}

fn fetch(args: &Value) -> Result<String, String> {
    let url = args.get("url").and_then(Value::as_str).ok_or("`url` must be a string")?;
    Err(format!("cannot reach {url}: connection refused"))
}

pub fn handle_tools_call(id: Value, params: &Value) -> JsonRpcResponse {
    let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
    let args = params.get("arguments").cloned().unwrap_or(Value::Null);
    let result = match name {
        "fetch" => fetch(&args),
        "echo" => Ok(args.to_string()),
        _ => Err(format!("unknown tool: {name}")), //~ unknown_tool_as_tool_error
    };
    match result {
        Ok(text) => tool_result(id, &text),
        Err(e) => tool_error(id, &e),
    }
}

pub fn handle_tools_call_v2(id: Value, params: &Value) -> JsonRpcResponse {
    let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
    let args = params.get("arguments").cloned().unwrap_or(Value::Null);
    let result = match name {
        "fetch" => fetch(&args).map_err(|e| (false, e)),
        other => Err((true, format!("Unknown tool: {other}"))),
    };
    match result {
        Ok(text) => tool_result(id, &text),
        Err((true, e)) => JsonRpcResponse::err(id, -32602, e),
        Err((false, e)) => tool_error(id, &e),
    }
}

pub fn handle_tools_call_v3(id: Value, params: &Value) -> JsonRpcResponse {
    let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
    let result = match name {
        "fetch" => fetch(&params["arguments"]),
        _ => Err(format!("Unknown tool: {name}")), //~ unknown_tool_wrong_code
    };
    let body = match result {
        Ok(text) => json!({ "result": { "content": [{ "type": "text", "text": text }] } }),
        Err(e) => json!({ "error": { "code": -32603, "message": e } }), //~ tool_failure_as_protocol_error
    };
    JsonRpcResponse { id, body }
}

const TOOLS: [&str; 2] = ["fetch", "echo"];

/// Every name outside the tool list is answered before the dispatch: its catch-all is there for
/// the compiler (the source cannot tell it is unreachable, so nothing is reported).
pub fn handle_tools_call_v4(id: Value, params: &Value) -> JsonRpcResponse {
    let tool_name = params.get("name").and_then(Value::as_str).unwrap_or_default();
    if !TOOLS.contains(&tool_name) {
        return JsonRpcResponse::err(id, -32602, format!("Unknown tool: {tool_name}"));
    }
    let result = match tool_name {
        "fetch" => fetch(&params["arguments"]),
        "echo" => Ok(params.to_string()),
        other => Err(format!("unknown tool: {other}")),
    };
    match result {
        Ok(text) => tool_result(id, &text),
        Err(e) => tool_error(id, &e),
    }
}

pub fn handle(request: &Value) -> JsonRpcResponse {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let params = request.get("params").cloned().unwrap_or(Value::Null);
    match request.get("method").and_then(Value::as_str).unwrap_or_default() {
        "tools/call" => match request.get("version").and_then(Value::as_u64) {
            Some(2) => handle_tools_call_v2(id, &params),
            Some(3) => handle_tools_call_v3(id, &params),
            Some(4) => handle_tools_call_v4(id, &params),
            _ => handle_tools_call(id, &params),
        },
        m => JsonRpcResponse::err(id, -32601, format!("Method not found: {m}")),
    }
}
