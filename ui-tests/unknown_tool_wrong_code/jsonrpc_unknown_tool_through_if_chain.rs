//@ dep: serde_json = "1"
// Hand-rolled servers whose dispatcher answers an unknown tool with an `Err` its stdio loop maps
// to a code with an `if` chain over the error's text. The source cannot tell which branch the
// unknown tool's text takes, only that its code is one of the branches': reported, naming them
// all, when none is -32602 (the spec's code). Not: a mapping with a -32602 branch (the unknown
// tool may well get it).
use serde_json::{json, Value};

fn weather(params: &Value) -> Result<Value, String> {
    let city = params["arguments"]["city"].as_str().unwrap_or_default();
    let report = std::fs::read_to_string(city).map_err(|e| format!("timeout reading {city}: {e}"))?;
    Ok(json!({ "content": [{ "type": "text", "text": report }] }))
}

fn call_tool(name: &str, params: &Value) -> Result<Value, String> {
    match name {
        "weather" => weather(params),
        _ => Err(format!("Unknown tool: {name}")), //~ unknown_tool_wrong_code
    }
}

fn handle_request(method: &str, params: &Value) -> Result<Value, String> {
    match method {
        "tools/call" => {
            let name = params["name"].as_str().unwrap_or_default();
            call_tool(name, params)
        }
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
            let (code, message) = if e.contains("timeout") {
                (-32001, "Upstream timed out") //~ legacy_error_code
            } else {
                (-32603, "Internal error")
            };
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": format!("{message}: {e}") } }) //~ tool_failure_as_protocol_error
        }
    }
}

fn call_tool_v2(name: &str, params: &Value) -> Result<Value, String> {
    match name {
        "weather" => weather(params),
        _ => Err(format!("Unknown tool: {name}")),
    }
}

fn handle_request_v2(method: &str, params: &Value) -> Result<Value, String> {
    match method {
        "tools/call" => {
            let name = params["name"].as_str().unwrap_or_default();
            call_tool_v2(name, params)
        }
        other => Err(format!("Unknown method: {other}")),
    }
}

pub fn serve_v2(line: &str) -> Value {
    let request: Value = serde_json::from_str(line).unwrap_or_default();
    let method = request["method"].as_str().unwrap_or("").to_string();
    let id = request["id"].clone();
    match handle_request_v2(&method, &request["params"]) {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(e) => {
            let (code, message) = if e.starts_with("Unknown") {
                (-32602, "Invalid params")
            } else {
                (-32603, "Internal error")
            };
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": format!("{message}: {e}") } }) //~ tool_failure_as_protocol_error
        }
    }
}
