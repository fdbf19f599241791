//@ dep: serde_json = "1"
// A hand-rolled server whose `"tools/call"` requests run on worker threads, shaped like
// aprender-mcp 0.72's stdio loop. Not tool failures, and their protocol errors are right:
// - the router's own framing check (`jsonrpc` must be "2.0"), even though another entry point
//   routes to it on `if req.method != "tools/call"`: that branch is every method *but*
//   tools/call, so `handle` is a router, not a tool dispatcher;
// - a `tools/call` without an id (`let Some(id) = req.id.clone() else ..`): the request breaks
//   JSON-RPC framing before any tool runs;
// - the server's own worker thread that cannot be spawned (`std::thread::Builder::spawn`).
// The tool's own failure, sent as -32603 by the dispatcher, is reported.
use serde_json::{json, Value};

pub struct Request {
    pub jsonrpc: String,
    pub id: Option<Value>,
    pub method: String,
    pub params: Value,
}

fn error(id: Option<Value>, code: i32, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn result(id: Option<Value>, text: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
}

pub struct Server {
    workers: Vec<std::thread::JoinHandle<()>>,
}

impl Server {
    pub fn handle(&mut self, req: &Request) -> Value {
        if req.jsonrpc != "2.0" {
            return error(req.id.clone(), -32600, format!("jsonrpc must be \"2.0\", got {:?}", req.jsonrpc));
        }
        match req.method.as_str() {
            "initialize" => result(req.id.clone(), "ok".to_string()),
            "tools/call" => self.call(req),
            other => error(req.id.clone(), -32601, format!("unknown method {other}")),
        }
    }

    pub fn handle_on_worker(&mut self, req: &Request) -> Option<Value> {
        if req.method != "tools/call" {
            return Some(self.handle(req));
        }
        self.spawn_call(req)
    }

    fn spawn_call(&mut self, req: &Request) -> Option<Value> {
        let Some(id) = req.id.clone() else {
            return Some(error(None, -32600, "tools/call requires an id".to_string()));
        };
        let params = req.params.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("call-{id}"))
            .spawn(move || {
                let _ = run_tool(&params);
            });
        match spawned {
            Ok(handle) => {
                self.workers.push(handle);
                None
            }
            Err(e) => Some(error(Some(id), -32603, format!("failed to spawn worker thread: {e}"))),
        }
    }

    fn call(&mut self, req: &Request) -> Value {
        match run_tool(&req.params) {
            Ok(text) => result(req.id.clone(), text),
            Err(message) => error(req.id.clone(), -32603, message), //~ tool_failure_as_protocol_error
        }
    }
}

fn run_tool(params: &Value) -> Result<String, String> {
    let path = params["arguments"]["path"].as_str().unwrap_or_default();
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
}

fn main() {}
