//@ dep: serde_json = "1"
// A hand-rolled server whose tools are trait objects in a registry: `tools/call` looks the name
// up with the registry's own `get` (a crate method returning `Option<&dyn Tool>`), unwraps it
// with `ok_or_else(..)?` and calls `tool.call(..)`, which runs any `impl Tool`. Each impl's
// `call` is tool code. Not tool code: another trait's `call` (`Job`), which only the start-up
// code runs, however alike its name and body.
use std::collections::HashMap;

use serde_json::{json, Map, Value};

pub enum AppError {
    InvalidParams(String),
    /// An unknown method.
    Internal(String),
}

pub trait Tool {
    fn name(&self) -> &'static str;
    fn call(&self, server: &Server, args: &Map<String, Value>) -> Result<Value, AppError>;
}

pub trait Job {
    fn call(&self, server: &Server, args: &Map<String, Value>) -> Result<Value, AppError>;
}

pub struct Registry {
    tools: HashMap<&'static str, Box<dyn Tool>>,
}

impl Registry {
    pub fn get(&self, name: &str) -> Option<&dyn Tool> {
        self.tools.get(name).map(|tool| tool.as_ref())
    }
}

fn text(body: String) -> Value {
    json!({ "content": [{ "type": "text", "text": body }] })
}

pub struct TailLog;

impl Tool for TailLog {
    fn name(&self) -> &'static str {
        "tail_log"
    }

    fn call(&self, _server: &Server, args: &Map<String, Value>) -> Result<Value, AppError> {
        let file = args.get("file").and_then(Value::as_str).unwrap_or("app.log");
        match std::fs::read_to_string(file) {
            Ok(body) => Ok(text(body)),
            Err(e) => Ok(text(format!("Error: cannot read {file}: {e}"))), //~ failure_as_success
        }
    }
}

pub struct WarmCache;

impl Job for WarmCache {
    fn call(&self, _server: &Server, args: &Map<String, Value>) -> Result<Value, AppError> {
        let file = args.get("file").and_then(Value::as_str).unwrap_or("app.log");
        match std::fs::read_to_string(file) {
            Ok(body) => Ok(text(body)),
            Err(e) => Ok(text(format!("Error: cannot read {file}: {e}"))),
        }
    }
}

pub struct Server {
    registry: Registry,
}

impl Server {
    pub fn handle(&self, method: &str, params: &Value) -> Result<Value, AppError> {
        match method {
            "tools/call" => self.call_tool(params),
            other => Err(AppError::Internal(format!("method {other} is not served here"))),
        }
    }

    fn call_tool(&self, params: &Value) -> Result<Value, AppError> {
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| AppError::InvalidParams("tools/call needs a string `name`".into()))?;
        let empty = Map::new();
        let tool = self
            .registry
            .get(name)
            .ok_or_else(|| AppError::InvalidParams(format!("unknown tool {name}")))?;
        tool.call(self, &empty)
    }
}

fn main() {
    let server = Server { registry: Registry { tools: HashMap::new() } };
    let _ = WarmCache.call(&server, &Map::new());
    let reply = match server.handle("tools/call", &Value::Null) {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": 1, "result": result }),
        Err(AppError::InvalidParams(m)) => json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32602, "message": m } }),
        Err(AppError::Internal(m)) => json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32601, "message": m } }),
    };
    println!("{reply}");
}
