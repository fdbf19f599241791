//@ dep: serde_json = "1"
// A hand-rolled server whose serve loop writes the error object inline, reading the code from
// the error's own method: `json!({.., "error": {"code": e.rpc_code(), ..}})`. The method picks
// the code per variant, so the `Err` arm is one protocol error per code it can send: a tool's
// I/O failure leaves as -32603 (MCP001), the unknown tool's `MethodNotFound` as -32601 (MCP011).
// The same loop over a router with no `"tools/call"` route answers no tool: silent.
use serde_json::{json, Value};

#[derive(Debug)]
pub enum RpcError {
    MethodNotFound(String),
    InvalidRequest(String),
    Io(std::io::Error),
}

impl RpcError {
    pub fn rpc_code(&self) -> i64 {
        match self {
            RpcError::MethodNotFound(_) => -32601,
            RpcError::InvalidRequest(_) => -32600,
            RpcError::Io(_) => -32603,
        }
    }
}

impl From<std::io::Error> for RpcError {
    fn from(e: std::io::Error) -> Self {
        RpcError::Io(e)
    }
}

fn read_note(args: &Value) -> Result<Value, RpcError> {
    let path = args["path"].as_str().unwrap_or_default();
    let text = std::fs::read_to_string(path).map_err(RpcError::Io)?;
    Ok(json!({"content": [{"type": "text", "text": text}]}))
}

fn call_tool(params: &Value) -> Result<Value, RpcError> {
    match params["name"].as_str().unwrap_or_default() {
        "read_note" => read_note(&params["arguments"]),
        other => Err(RpcError::MethodNotFound(format!("unknown tool {other}"))), //~ unknown_tool_wrong_code
    }
}

pub fn handle(request: &Value) -> Value {
    let id = request["id"].clone();
    let result = match request["method"].as_str() {
        Some("tools/call") => call_tool(&request["params"]),
        Some(m) => Err(RpcError::MethodNotFound(m.to_string())),
        None => Err(RpcError::InvalidRequest("no method".into())),
    };
    match result {
        Ok(v) => json!({"jsonrpc": "2.0", "id": id, "result": v}),
        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": e.rpc_code(), "message": format!("{e:?}")}}), //~ tool_failure_as_protocol_error
    }
}

/// An admin endpoint of the same process: no tool-call route.
pub fn handle_admin(request: &Value) -> Value {
    let id = request["id"].clone();
    let result = match request["method"].as_str() {
        Some("admin/reindex") => std::fs::read_to_string("index").map(Value::from).map_err(RpcError::Io),
        _ => Err(RpcError::InvalidRequest("unknown admin method".into())),
    };
    match result {
        Ok(v) => json!({"jsonrpc": "2.0", "id": id, "result": v}),
        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": e.rpc_code(), "message": format!("{e:?}")}}),
    }
}

fn main() {}
