//@ dep: serde_json = "1"
// A hand-rolled server's own JSON-RPC error type (`RpcError`, whose constructors build error
// objects with codes) is its protocol error: `?` in a fn failing with it converts through the
// crate's `From<AppError>` impl, so each arm is judged by the variants
// tool code passes in. A constructor that only picks a code (`RpcError::internal(m)` as
// `Self::new(INTERNAL_ERROR, m)`) is reported where it is called, as an SDK's would be. Not
// reported: the arm of a variant built only on serialising the server's own value, a `?` on a
// fn that already fails with `RpcError` (passed on as it is), and the unknown tool's -32602.
use serde_json::{json, Value};

mod codes {
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
}

pub struct RpcError {
    pub code: i64,
    pub message: String,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(codes::INTERNAL_ERROR, message)
    }

    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(codes::INVALID_PARAMS, message)
    }
}

pub enum AppError {
    Io(std::io::Error),
    Empty(String),
    Encode(serde_json::Error),
}

impl From<std::io::Error> for AppError {
    fn from(e: std::io::Error) -> Self {
        AppError::Io(e)
    }
}

impl From<AppError> for RpcError {
    fn from(err: AppError) -> Self {
        match err {
            AppError::Io(e) => RpcError::internal(format!("could not read the file: {e}")), //~ tool_failure_as_protocol_error
            AppError::Empty(what) => RpcError::invalid_params(format!("{what} must not be empty")), //~ tool_input_as_invalid_params
            AppError::Encode(e) => RpcError::internal(format!("could not encode the answer: {e}")),
        }
    }
}

fn read(path: &str) -> Result<String, AppError> {
    if path.is_empty() {
        return Err(AppError::Empty("path".into()));
    }
    Ok(std::fs::read_to_string(path)?)
}

fn encode(value: &Value) -> Result<String, AppError> {
    serde_json::to_string(value).map_err(AppError::Encode)
}

fn required(args: &Value, name: &str) -> Result<String, RpcError> {
    args.get(name)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| RpcError::invalid_params(format!("missing required argument `{name}`")))
}

fn call_tool(params: &Value) -> Result<Value, RpcError> {
    let args = &params["arguments"];
    match params["name"].as_str().unwrap_or_default() {
        "read" => {
            let path = required(args, "path")?;
            let text = read(&path)?;
            let encoded = encode(&json!({ "text": text }))?;
            Ok(json!({ "content": [{ "type": "text", "text": encoded }] }))
        }
        other => Err(RpcError::invalid_params(format!("Unknown tool: {other}"))),
    }
}

pub fn handle(request: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str().unwrap_or_default() {
        "tools/call" => match call_tool(&request["params"]) {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
            Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": e.code, "message": e.message } }),
        },
        method => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": format!("method not found: {method}") } }),
    }
}

fn main() {}
