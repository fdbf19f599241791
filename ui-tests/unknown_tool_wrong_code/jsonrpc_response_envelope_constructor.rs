//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
// A hand-rolled server's response envelope has its own constructor, `Response::err(id, code,
// message)`, whose `Self { .. }` holds the error object in a field (`error: Some(RpcError {
// code, message })`): each call builds a protocol error with the caller's code. `dispatch`
// answers every `Err` of the tools/call arm with `Response::err(id, -32601, e)`, so the unknown
// tool gets -32601: this lint, at the catch-all. `dispatch_v2` answers with -32602, the spec's
// code for an unknown tool: no finding.
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

#[derive(Debug, Deserialize)]
pub struct Request {
    pub jsonrpc: String,
    #[serde(default)]
    pub id: Option<Value>,
    pub method: String,
    #[serde(default)]
    pub params: Value,
}

#[derive(Debug, Serialize)]
pub struct RpcError {
    pub code: i32,
    pub message: String,
}

#[derive(Debug, Serialize)]
pub struct Response {
    pub jsonrpc: &'static str,
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<RpcError>,
}

impl Response {
    pub fn ok(id: Value, result: Value) -> Self {
        Self { jsonrpc: "2.0", id, result: Some(result), error: None }
    }
    pub fn err(id: Value, code: i32, message: impl Into<String>) -> Self {
        Self { jsonrpc: "2.0", id, result: None, error: Some(RpcError { code, message: message.into() }) }
    }
}

#[derive(Deserialize)]
struct CallParams {
    name: String,
    #[serde(default)]
    arguments: Value,
}

fn content_text(s: &str) -> Value {
    json!({ "content": [ { "type": "text", "text": s } ], "isError": false })
}

fn echo(args: Value) -> Value {
    content_text(args.get("text").and_then(Value::as_str).unwrap_or_default())
}

pub async fn call(params: Value) -> Result<Value, String> {
    let p: CallParams = serde_json::from_value(params).map_err(|e| e.to_string())?;
    match p.name.as_str() {
        "whoami" => Ok(content_text("me")),
        "echo" => Ok(echo(p.arguments)),
        other => Err(format!("unknown tool: {other}")), //~ unknown_tool_wrong_code
    }
}

pub async fn dispatch(req: Request) -> Option<Response> {
    let id = req.id.clone().unwrap_or(Value::Null);
    let result = match req.method.as_str() {
        "tools/list" => Ok(json!({ "tools": [] })),
        "tools/call" => call(req.params).await,
        "ping" => Ok(json!({})),
        other => Err(format!("method not found: {other}")),
    };
    match result {
        Ok(v) => Some(Response::ok(id, v)),
        Err(e) => Some(Response::err(id, -32601, e)),
    }
}

pub async fn dispatch_v2(req: Request) -> Option<Response> {
    let id = req.id.clone().unwrap_or(Value::Null);
    let result = match req.method.as_str() {
        "tools/call" => call_v2(req.params).await,
        other => return Some(Response::err(id, -32601, format!("method not found: {other}"))),
    };
    match result {
        Ok(v) => Some(Response::ok(id, v)),
        Err(e) => Some(Response::err(id, -32602, e)),
    }
}

pub async fn call_v2(params: Value) -> Result<Value, String> {
    let p: CallParams = serde_json::from_value(params).map_err(|e| e.to_string())?;
    match p.name.as_str() {
        "echo" => Ok(echo(p.arguments)),
        other => Err(format!("unknown tool: {other}")),
    }
}
