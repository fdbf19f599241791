//@ dep: serde_json = "1"
// A hand-rolled `tools/call` route refused in a guarded arm on the server's own state
// (`Some("tools/call") if !state.allow_call() =>`, given nothing from the request) is the server
// not serving the request, as the `if` first in the arm is: a JSON-RPC error is right there. The
// same refusal inside a tool, or a guard or test of what the request carries, is the tool's
// failure.
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};

pub struct AppState {
    in_flight: AtomicUsize,
    limit: usize,
}

impl AppState {
    fn allow_call(&self) -> bool {
        self.in_flight.load(Ordering::Relaxed) < self.limit
    }
}

fn rpc_error(id: &Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn send_page(state: &AppState, id: &Value, args: &Value) -> Value {
    if !state.allow_call() {
        return rpc_error(id, -32603, format!("{} pages in flight; retry in a minute", state.limit)); //~ tool_failure_as_protocol_error
    }
    let to = args.get("to").and_then(Value::as_str).unwrap_or("on-call");
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": format!("paged {to}")}]}})
}

pub fn handle_message(state: &AppState, message: &Value) -> Value {
    let id = &message["id"];
    let params = &message["params"];
    match message["method"].as_str() {
        Some("tools/call") if !state.allow_call() => {
            rpc_error(id, -32603, format!("rate limit of {} tool calls reached; retry in a minute", state.limit))
        }
        Some("tools/call") if params["arguments"]["to"].as_str() == Some("everyone") => {
            rpc_error(id, -32603, "paging everyone is disabled".to_string()) //~ tool_failure_as_protocol_error
        }
        Some("tools/call") => {
            let args = &params["arguments"];
            if args.get("urgent").and_then(Value::as_bool) == Some(true) {
                return rpc_error(id, -32603, "urgent pages are disabled".to_string()); //~ tool_failure_as_protocol_error
            }
            match params["name"].as_str() {
                Some("send_page") => send_page(state, id, args),
                Some(other) => rpc_error(id, -32602, format!("Unknown tool: {other}")),
                None => rpc_error(id, -32602, "tools/call needs a tool name".to_string()),
            }
        }
        _ => rpc_error(id, -32601, "method not found".to_string()),
    }
}

fn main() {}
