//@ dep: serde_json = "1"
// A hand-rolled server whose stdio loop maps the router's error with a fn that returns the code
// and message per variant: `let (code, message) = map_error(&e); json!({"jsonrpc": "2.0",
// "error": {"code": code, "message": message}})`. The tuple's first element is the wire code:
// its legacy codes are this lint's (at the arm that picks them), and the tool failures that
// leave this way are tool_failure_as_protocol_error's. Not: a same-shaped fn whose integer is a
// log level, never put in an error object.
use serde_json::{json, Value};

#[derive(Debug)]
pub enum EpubError {
    FileNotFound(String),
    ChapterNotFound(String),
    InvalidArgs(String),
}

fn map_error(error: &EpubError) -> (i32, String) {
    match error {
        EpubError::FileNotFound(msg) => (-32000, msg.clone()), //~ legacy_error_code
        EpubError::ChapterNotFound(id) => (-32003, format!("Chapter not found: '{id}'")), //~ legacy_error_code
        EpubError::InvalidArgs(msg) => (-32602, msg.clone()),
    }
}

fn log_level(error: &EpubError) -> (i32, String) {
    match error {
        EpubError::FileNotFound(msg) => (-32001, msg.clone()),
        EpubError::ChapterNotFound(id) => (2, id.clone()),
        EpubError::InvalidArgs(msg) => (3, msg.clone()),
    }
}

fn read_chapter(params: &Value) -> Result<Value, EpubError> {
    let path = params["arguments"]["path"].as_str().unwrap_or_default();
    let text = std::fs::read_to_string(path).map_err(|e| EpubError::FileNotFound(format!("{path}: {e}")))?;
    Ok(json!({ "content": [{ "type": "text", "text": text }] }))
}

fn handle_request(method: &str, params: &Value) -> Result<Value, EpubError> {
    match method {
        "tools/call" => match params["name"].as_str() {
            Some("read_chapter") => read_chapter(params),
            Some(other) => Err(EpubError::InvalidArgs(format!("Unknown tool: {other}"))),
            None => Err(EpubError::InvalidArgs("tools/call needs a name".to_string())),
        },
        other => Err(EpubError::InvalidArgs(format!("Unknown method: {other}"))),
    }
}

pub fn serve(line: &str) -> Value {
    let request: Value = serde_json::from_str(line).unwrap_or_default();
    let method = request["method"].as_str().unwrap_or("").to_string();
    let id = request["id"].clone();
    let response = handle_request(&method, &request["params"]);
    match response {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(e) => {
            let (level, text) = log_level(&e);
            eprintln!("[{level}] {text}");
            let (code, message) = map_error(&e);
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }) //~ tool_failure_as_protocol_error
        }
    }
}
