//@ dep: serde_json = "1"
// A hand-rolled server whose dispatcher answers an unknown tool with an `Err` of its error enum,
// returned through the router to the stdio loop, which maps each variant to a code
// (`let (code, message) = map_error(&e); json!({"error": {"code": code, ..}})`). The unknown tool
// gets the code its variant is mapped to: -32603 here, reported at the catch-all's value (the
// mapping is a related location). Not: a second server whose unknown-tool variant is mapped to
// -32602, the spec's code. (The tools' own failures that leave as -32603 are
// tool_failure_as_protocol_error's, at the mapping.)
use serde_json::{json, Value};

#[derive(Debug)]
pub enum AppError {
    NotFound(String),
    Internal(String),
    BadRequest(String),
}

fn map_error(error: &AppError) -> (i32, String) {
    match error {
        AppError::NotFound(msg) => (-32602, msg.clone()),
        AppError::Internal(msg) => (-32603, msg.clone()),
        AppError::BadRequest(msg) => (-32602, msg.clone()),
    }
}

fn read(args: &Value) -> Result<Value, AppError> {
    let path = args["path"].as_str().unwrap_or_default();
    let text = std::fs::read_to_string(path).map_err(|e| AppError::Internal(format!("{path}: {e}")))?;
    Ok(json!({ "content": [{ "type": "text", "text": text }] }))
}

fn handle_tool_call(name: &str, args: &Value) -> Result<Value, AppError> {
    match name {
        "read" => read(args),
        _ => Err(AppError::Internal(format!("Unknown tool: {name}"))), //~ unknown_tool_wrong_code
    }
}

fn handle_tool_call_v2(name: &str, args: &Value) -> Result<Value, AppError> {
    match name {
        "echo" => Ok(json!({ "content": [{ "type": "text", "text": args.to_string() }] })),
        _ => Err(AppError::BadRequest(format!("Unknown tool: {name}"))),
    }
}

fn handle_request(method: &str, params: &Value) -> Result<Value, AppError> {
    match method {
        "tools/call" => {
            let name = params["name"].as_str().ok_or_else(|| AppError::BadRequest("Missing tool name".to_string()))?;
            if params["version"] == 2 {
                handle_tool_call_v2(name, &params["arguments"])
            } else {
                handle_tool_call(name, &params["arguments"])
            }
        }
        other => Err(AppError::NotFound(format!("Unknown method: {other}"))),
    }
}

pub fn serve(line: &str) -> Value {
    let request: Value = serde_json::from_str(line).unwrap_or_default();
    let id = request["id"].clone();
    let method = request["method"].as_str().unwrap_or("").to_string();
    let response = handle_request(&method, &request["params"]);
    match response {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(e) => {
            let (code, message) = map_error(&e);
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }) //~ tool_failure_as_protocol_error
        }
    }
}
