//@ dep: serde_json = "1"
// A method call goes to the crate method its receiver's type names, never to one picked by its
// name alone (a receiver of unknown type resolves to nothing, even when the package has a single
// method of that name). The receiver's type can come from a fn's declared error type: in
// `match render(uri) { Err(e) => .. e.code() .. }` `e` is a `RenderError`, so `e.code()` is
// `RenderError::code`, and its -32001 is the code the tool's failure is sent with; `Journal::code`,
// the other `code` method, plays no part.
use serde_json::{json, Value};

fn error(id: Value, code: i32, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

pub struct Journal;

impl Journal {
    pub fn code(&self) -> i32 {
        -32603
    }
}

#[derive(Debug)]
pub enum RenderError {
    Missing,
    Broken(String),
}

impl RenderError {
    pub fn code(&self) -> i32 {
        match self {
            RenderError::Missing => -32001, //~ legacy_error_code
            RenderError::Broken(_) => -32603,
        }
    }
}

fn render(uri: &str) -> Result<String, RenderError> {
    if uri.is_empty() {
        return Err(RenderError::Missing);
    }
    if uri.contains("..") {
        return Err(RenderError::Broken(uri.to_string()));
    }
    Ok(format!("rendered {uri}"))
}

fn call_tool(id: Value, params: &Value) -> Value {
    let uri = params["arguments"]["uri"].as_str().unwrap_or_default();
    match render(uri) {
        Ok(text) => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}}),
        Err(e) => error(id, e.code(), format!("cannot render {uri}: {e:?}")), //~ tool_failure_as_protocol_error
    }
}

pub fn handle(journal: &Journal, request: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("initialize") if journal.code() != 0 => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        Some("tools/call") => call_tool(id, &request["params"]),
        _ => error(id, -32601, "method not found".to_string()),
    }
}

fn main() {}
