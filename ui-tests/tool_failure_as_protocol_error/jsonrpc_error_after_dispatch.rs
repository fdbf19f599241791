//@ dep: serde = "1"
//@ dep: serde_json = "1"
// A hand-rolled server whose request handler keeps the dispatch's value and maps its errors
// after it: `let response = match method { "tools/call" => handle_tools_call(..), .. }; match
// response { Ok(..) => .., Err(e) => JsonRpcError::new(id, e.json_rpc_code(), ..) }`. The `Err`
// arm answers the tool call's failures too, so it is judged as the `"tools/call"` arm: the
// code `json_rpc_code` gives a tool's own failure (-32603 for every variant but `JsonRpc`, whose
// code the source does not state) is a tool failure sent as a protocol error. The same mapping
// after a dispatch without a tool-call arm (an admin endpoint) answers no tool.
use serde_json::{json, Value};

#[derive(Debug)]
pub enum Error {
    JsonRpc { code: i32, message: String },
    Io(std::io::Error),
    NotFound(String),
}

impl Error {
    pub fn json_rpc_code(&self) -> i32 {
        match self {
            Error::JsonRpc { code, .. } => *code,
            _ => -32603,
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

pub type Result<T> = std::result::Result<T, Error>;

#[derive(serde::Serialize)]
pub struct JsonRpcError {
    jsonrpc: &'static str,
    id: Value,
    error: ErrorBody,
}

#[derive(serde::Serialize)]
pub struct ErrorBody {
    code: i32,
    message: String,
}

impl JsonRpcError {
    pub fn new(id: Value, code: i32, message: String) -> Self {
        JsonRpcError { jsonrpc: "2.0", id, error: ErrorBody { code, message } }
    }
}

fn read_file(args: &Value) -> Result<Value> {
    let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
    let text = std::fs::read_to_string(path).map_err(Error::Io)?;
    Ok(json!({ "content": [{ "type": "text", "text": text }] }))
}

fn handle_tools_call(params: &Value) -> Result<Value> {
    let args = params.get("arguments").cloned().unwrap_or(Value::Null);
    match params.get("name").and_then(Value::as_str) {
        Some("read_file") => read_file(&args),
        Some(other) => Err(Error::JsonRpc { code: -32602, message: format!("Unknown tool: {other}") }),
        None => Err(Error::JsonRpc { code: -32602, message: "tools/call needs a name".to_string() }),
    }
}

pub fn handle(request: &Value) -> String {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let method = request.get("method").and_then(Value::as_str).unwrap_or_default().to_string();
    let params = request.get("params").cloned().unwrap_or(Value::Null);
    let response = match method.as_str() {
        "ping" => Ok(json!({})),
        "tools/call" => handle_tools_call(&params),
        _ => Err(Error::JsonRpc { code: -32601, message: format!("Method not found: {method}") }),
    };
    match response {
        Ok(result) => {
            // A name of its own inside the arm: the outer `response` is what the Err arm maps.
            let response = json!({ "jsonrpc": "2.0", "id": id, "result": result });
            response.to_string()
        }
        Err(e) => {
            let error_response = JsonRpcError::new(id, e.json_rpc_code(), e.to_string()); //~ tool_failure_as_protocol_error
            serde_json::to_string(&error_response).unwrap_or_default()
        }
    }
}

fn find_user(params: &Value) -> Result<Value> {
    let name = params.get("user").and_then(Value::as_str).unwrap_or_default();
    Err(Error::NotFound(name.to_string()))
}

/// An admin endpoint of the same process: no tool is called here.
pub fn handle_admin(request: &Value) -> String {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let method = request.get("method").and_then(Value::as_str).unwrap_or_default();
    let params = request.get("params").cloned().unwrap_or(Value::Null);
    let response = match method {
        "admin/user" => find_user(&params),
        _ => Err(Error::JsonRpc { code: -32601, message: format!("Method not found: {method}") }),
    };
    match response {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string(),
        Err(e) => serde_json::to_string(&JsonRpcError::new(id, e.json_rpc_code(), e.to_string())).unwrap_or_default(),
    }
}
