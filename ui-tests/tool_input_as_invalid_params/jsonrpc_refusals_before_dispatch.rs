//@ dep: serde_json = "1"
// A hand-rolled route `"tools/call" => self.require_initialized().and_then(|()|
// self.call_tool(request.params))`: the state check is given nothing of the request, so it picks
// no tool and refuses the request on the server's state (its -32002 is not a tool's failure, and
// no legacy code either: the server declares 2025-11-25); the dispatcher's `params.ok_or_else(|| RpcError::invalid_params(..))?` rejects
// a request without params, before any tool: the `CallToolRequest` schema, not an argument. What
// the tool it picks rejects with -32602 is an argument value.
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{json, Value};

pub struct RpcError {
    pub code: i64,
    pub message: String,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }

    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(-32602, message)
    }
}

pub struct Server {
    initialized: AtomicBool,
}

impl Server {
    pub fn handle(&self, method: &str, params: Option<Value>) -> Result<Value, RpcError> {
        match method {
            "initialize" => {
                self.initialized.store(true, Ordering::SeqCst);
                Ok(json!({ "protocolVersion": "2025-11-25" }))
            }
            "tools/call" => self.require_initialized().and_then(|()| self.call_tool(params)),
            other => Err(RpcError::new(-32601, format!("method not found: {other}"))),
        }
    }

    fn require_initialized(&self) -> Result<(), RpcError> {
        if !self.initialized.load(Ordering::SeqCst) {
            return Err(RpcError::new(-32002, "server not initialized: send initialize first"));
        }
        Ok(())
    }

    fn call_tool(&self, params: Option<Value>) -> Result<Value, RpcError> {
        let params = params.ok_or_else(|| RpcError::invalid_params("tools/call needs params with a tool name"))?;
        let args = &params["arguments"];
        match params["name"].as_str().unwrap_or_default() {
            "repeat" => {
                let times = args["times"].as_u64().unwrap_or(1);
                if times > 10 {
                    return Err(RpcError::invalid_params(format!("times must be at most 10, got {times}"))); //~ tool_input_as_invalid_params
                }
                Ok(json!({ "content": [{ "type": "text", "text": "ok ".repeat(times as usize) }] }))
            }
            other => Err(RpcError::invalid_params(format!("Unknown tool: {other}"))),
        }
    }
}
