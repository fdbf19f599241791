//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
//@ dep: thiserror = "2"
// A hand-rolled stdio loop that turns the router's error into its JSON-RPC error object with
// `let error: JsonRpcError = e.into();` (the crate's `From<ServerError> for JsonRpcError`,
// whose code is `err.code()`, picked per variant). The conversion is a call of that `From`:
// the unknown tool's `UnknownTool` leaves as -32601 (MCP011, at the tool-name fallback), a
// tool's I/O failure as -32603 (MCP001, at the conversion). A second loop over a router with no
// `"tools/call"` route, with its own error type, answers no tool: silent.
use std::io::{BufRead, Write};

use serde::Serialize;
use serde_json::{json, Value};

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("unknown tool: {0}")]
    UnknownTool(String),
    #[error("method not found: {0}")]
    MethodNotFound(String),
    #[error("cannot read {0}")]
    Read(String),
}

impl ServerError {
    pub fn code(&self) -> i32 {
        match self {
            ServerError::UnknownTool(_) => -32601,
            ServerError::MethodNotFound(_) => -32601,
            ServerError::Read(_) => -32603,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct JsonRpcError {
    pub code: i32,
    pub message: String,
}

impl From<ServerError> for JsonRpcError {
    fn from(err: ServerError) -> Self {
        JsonRpcError { code: err.code(), message: err.to_string() } //~ tool_failure_as_protocol_error
    }
}

fn read_file(args: &Value) -> Result<Value, ServerError> {
    let path = args["path"].as_str().unwrap_or_default();
    let text = std::fs::read_to_string(path).map_err(|_| ServerError::Read(path.to_string()))?;
    Ok(json!({"content": [{"type": "text", "text": text}]}))
}

fn call_tool(params: &Value) -> Result<Value, ServerError> {
    match params["name"].as_str().unwrap_or_default() {
        "read_file" => read_file(&params["arguments"]),
        other => Err(ServerError::UnknownTool(other.to_string())), //~ unknown_tool_wrong_code
    }
}

fn handle(method: &str, params: &Value) -> Result<Value, ServerError> {
    match method {
        "tools/call" => call_tool(params),
        other => Err(ServerError::MethodNotFound(other.to_string())),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("cannot read the index")]
    Index,
}

impl From<AdminError> for JsonRpcError {
    fn from(err: AdminError) -> Self {
        JsonRpcError { code: -32603, message: err.to_string() }
    }
}

fn handle_admin(method: &str) -> Result<Value, AdminError> {
    match method {
        "admin/reindex" => std::fs::read_to_string("index").map(Value::from).map_err(|_| AdminError::Index),
        _ => Ok(json!({})),
    }
}

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let request: Value = serde_json::from_str(&line?).unwrap_or_default();
        let id = request["id"].clone();
        let method = request["method"].as_str().unwrap_or_default();
        let response = match handle(method, &request["params"]) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(e) => {
                let error: JsonRpcError = e.into();
                json!({"jsonrpc": "2.0", "id": id, "error": error})
            }
        };
        writeln!(out, "{response}")?;
    }
    Ok(())
}

pub fn admin_loop(requests: &[Value]) -> Vec<Value> {
    requests
        .iter()
        .map(|request| match handle_admin(request["method"].as_str().unwrap_or_default()) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
            Err(e) => {
                let error: JsonRpcError = e.into();
                json!({"jsonrpc": "2.0", "id": request["id"], "error": error})
            }
        })
        .collect()
}
