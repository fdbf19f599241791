//@ dep: serde_json = "1"
// Hand-rolled JSON-RPC: the code mapping is `From<AppError> for JsonRpcError`, applied by `.into()`
// where the serve loop hands the router's error to `JsonRpcResponse::err(id, error:
// JsonRpcError)`: the parameter's type names the conversion, so the codes its arms pick are
// sent (-32001 is legacy), and the tool's failure it maps is sent as a protocol error. The same
// `.into()` into a parameter of another type (`log_line(String)`) converts nothing.
use serde_json::{json, Value};
use std::io::BufRead;

pub struct JsonRpcError {
    pub code: i64,
    pub message: String,
}

pub struct JsonRpcResponse {
    pub id: Value,
    pub body: Value,
}

impl JsonRpcResponse {
    pub fn ok(id: Value, result: Value) -> Self {
        JsonRpcResponse { id, body: json!({ "result": result }) }
    }
    pub fn err(id: Value, error: JsonRpcError) -> Self {
        JsonRpcResponse {
            id,
            body: json!({ "error": { "code": error.code, "message": error.message } }),
        }
    }
}

#[derive(Debug)]
pub enum AppError {
    MethodNotFound(String),
    Forbidden(String),
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::MethodNotFound(m) => write!(f, "method not found: {m}"),
            AppError::Forbidden(m) => write!(f, "forbidden: {m}"),
        }
    }
}

impl AppError {
    pub fn json_rpc_code(&self) -> i64 {
        match self {
            AppError::MethodNotFound(_) => -32601,
            AppError::Forbidden(_) => -32001, //~ legacy_error_code
        }
    }
}

impl From<AppError> for JsonRpcError {
    fn from(err: AppError) -> Self {
        JsonRpcError { //~ tool_failure_as_protocol_error
            code: err.json_rpc_code(),
            message: err.to_string(),
        }
    }
}

/// Where a rejection is logged: a text, not an error object.
fn log_line(line: String) {
    eprintln!("{line}");
}

fn call_tool(params: &Value) -> Result<Value, AppError> {
    match params["name"].as_str().unwrap_or_default() {
        "purge" => {
            if params["arguments"]["token"].as_str() != Some("secret") {
                return Err(AppError::Forbidden("purge needs the admin token".to_string()));
            }
            Ok(json!({ "content": [{ "type": "text", "text": "purged" }] }))
        }
        other => Ok(json!({ //~ unknown_tool_as_tool_error
            "content": [{ "type": "text", "text": format!("purge is the only tool; {other:?} is none") }],
            "isError": true
        })),
    }
}

fn route(method: &str, params: &Value) -> Result<Value, AppError> {
    match method {
        "ping" => Ok(json!({})),
        "tools/list" => Ok(json!({ "tools": [] })),
        "tools/call" => call_tool(params),
        other => Err(AppError::MethodNotFound(other.to_string())),
    }
}

fn handle(req: &Value) -> JsonRpcResponse {
    let id = req["id"].clone();
    match route(req["method"].as_str().unwrap_or_default(), &req["params"]) {
        Ok(result) => JsonRpcResponse::ok(id, result),
        Err(e) => {
            log_line(format!("rejected: {e}").into());
            JsonRpcResponse::err(id, e.into())
        }
    }
}

fn main() {
    for line in std::io::stdin().lock().lines() {
        let req: Value = serde_json::from_str(&line.unwrap()).unwrap_or(Value::Null);
        println!("{}", handle(&req).body);
    }
}
