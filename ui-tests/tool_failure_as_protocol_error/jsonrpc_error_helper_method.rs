//@ dep: serde_json = "1"
// A hand-rolled server whose request type answers errors itself: `req.error(code, message)`, a
// method that builds `Response { error: Some(RpcError { code, message }) }` with the request's
// id, is a JSON-RPC error with the caller's code, as the free-fn helper `err(id, code, ..)` is
// (also called by path, `Request::error(&req, ..)`, the receiver first). The read's failure sent
// as -32603 is MCP001, the unknown tool's app code MCP011. Not: `req.success(..)`, and
// `req.log(code, message)`, a method of the same shape that only formats a log line.
use serde_json::{json, Value};

pub struct RpcError {
    pub code: i32,
    pub message: String,
}

pub struct Response {
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<RpcError>,
}

pub struct Request {
    pub id: Value,
    pub method: String,
    pub params: Value,
}

impl Request {
    pub fn error(&self, code: i32, message: impl Into<String>) -> Response {
        Response {
            id: self.id.clone(),
            result: None,
            error: Some(RpcError { code, message: message.into() }),
        }
    }

    pub fn success(&self, value: Value) -> Response {
        Response { id: self.id.clone(), result: Some(value), error: None }
    }

    pub fn log(&self, code: i32, message: &str) -> String {
        format!("[{code}] {}: {message}", self.method)
    }
}

pub fn handle(req: Request) -> Response {
    match req.method.as_str() {
        "tools/call" => call_tool(req),
        _ => req.error(-32601, format!("method not found: {}", req.method)),
    }
}

fn call_tool(req: Request) -> Response {
    let name = req.params["name"].as_str().unwrap_or_default().to_string();
    if name != "read_file" {
        return Request::error(&req, 32003, format!("unknown tool: {name}")); //~ unknown_tool_wrong_code
    }
    let path = req.params["arguments"]["path"].as_str().unwrap_or_default();
    match std::fs::read_to_string(path) {
        Ok(text) => req.success(json!({"content": [{"type": "text", "text": text}]})),
        Err(e) => {
            eprintln!("{}", req.log(-32603, &e.to_string()));
            req.error(-32603, format!("cannot read {path}: {e}")) //~ tool_failure_as_protocol_error
        }
    }
}
