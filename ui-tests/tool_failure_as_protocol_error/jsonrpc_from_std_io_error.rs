//@ dep: serde_json = "1"
// A hand-rolled server converting another crate's errors straight into its own JSON-RPC error
// type (`impl From<std::io::Error> for RpcError`, `impl From<serde_json::Error> for RpcError`):
// a `?` picks the impl by the operand's error type, named as name resolution finds it
// (`fs::read_to_string` and a crate fn declared `io::Result<_>` fail with `std::io::Error`;
// `serde_json::to_string` with `serde_json::Error`), never by the last name `Error` both share.
// Reading a file the model named is a tool failure: MCP001 at the io impl. Encoding the
// server's own answer is a server fault: -32603 is right at the serde_json impl.
use std::fs;
use std::io;

use serde_json::{json, Value};

const INTERNAL_ERROR: i64 = -32603;
const INVALID_PARAMS: i64 = -32602;

pub struct RpcError {
    pub code: i64,
    pub message: String,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(INTERNAL_ERROR, message)
    }

    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(INVALID_PARAMS, message)
    }
}

impl From<std::io::Error> for RpcError {
    fn from(e: std::io::Error) -> Self {
        RpcError::internal(format!("I/O error: {e}")) //~ tool_failure_as_protocol_error
    }
}

impl From<serde_json::Error> for RpcError {
    fn from(e: serde_json::Error) -> Self {
        RpcError::internal(format!("could not encode the answer: {e}"))
    }
}

fn read_note(dir: &str, name: &str) -> io::Result<String> {
    fs::read_to_string(format!("{dir}/{name}.md"))
}

fn attach(args: &Value) -> Result<Value, RpcError> {
    let path = args["path"].as_str().unwrap_or_default();
    let size = fs::metadata(path)?.len();
    let note = read_note("notes", path)?;
    let summary = serde_json::to_string(&json!({ "size": size, "note": note }))?;
    Ok(json!({ "content": [{ "type": "text", "text": summary }] }))
}

fn call_tool(params: &Value) -> Result<Value, RpcError> {
    match params["name"].as_str().unwrap_or_default() {
        "attach" => attach(&params["arguments"]),
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
