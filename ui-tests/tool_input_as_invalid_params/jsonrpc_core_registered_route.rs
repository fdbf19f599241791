//@ dep: serde_json = "1"
//@ dep: jsonrpc-core = "18"
// A server on jsonrpc-core's `IoHandler`: `io.add_method("tools/call", ..)` registers the handler
// that answers tool calls (a registration for another MCP method is no tool), and jsonrpc-core's
// `Error` constructors are protocol errors with their codes (18.0 `types/error.rs`):
// `invalid_params(msg)` -32602, `method_not_found()` -32601, `Error::new(ErrorCode::..)`, a
// struct literal with `ErrorCode::ServerError(n)`. The handler calls the server it captured
// (`server.call_tool(..)` on a clone of the value the fn was given): that fn dispatches tools.
// Reported: a lookup miss on the model's process id sent as -32602 (MCP006), a tool failure sent
// as -32603 and as -32000 (MCP001, MCP004), the unknown tool answered with -32601 (MCP011). Not:
// the request's shape (params not an object, `name` or an argument missing: -32602 is right),
// the same constructor in the `initialize` handler. The server is the `Some` of a field
// of the fn's parameter (`if let Some(server) = config.server`).
use std::collections::HashMap;

use jsonrpc_core::{Error as RpcError, ErrorCode, IoHandler, Params, Value};
use serde_json::json;

#[derive(Clone)]
pub struct Server {
    processes: HashMap<String, u32>,
}

impl Server {
    fn initialize(&self, version: &str) -> jsonrpc_core::Result<Value> {
        if version.is_empty() {
            return Err(RpcError::invalid_params("protocolVersion must not be empty"));
        }
        Ok(json!({ "protocolVersion": version }))
    }

    fn stop_app(&self, process_id: &str) -> jsonrpc_core::Result<Value> {
        match self.processes.get(process_id) {
            Some(pid) => match std::fs::remove_file(format!("/run/app/{pid}.pid")) {
                Ok(()) => Ok(json!({ "stopped": pid })),
                Err(_) => Err(RpcError::new(ErrorCode::InternalError)), //~ tool_failure_as_protocol_error
            },
            None => Err(RpcError::invalid_params(format!("Process not found: {process_id}"))), //~ tool_input_as_invalid_params
        }
    }

    fn get_logs(&self, process_id: &str) -> jsonrpc_core::Result<Value> {
        match std::fs::read_to_string(format!("/var/log/app/{process_id}.log")) {
            Ok(logs) => Ok(json!({ "logs": logs })),
            Err(e) => Err(RpcError { //~ tool_failure_as_protocol_error
                code: ErrorCode::ServerError(-32000), //~ legacy_error_code
                message: format!("cannot read the logs of {process_id}: {e}"),
                data: None,
            }),
        }
    }

    fn call_tool(&self, params: Value) -> jsonrpc_core::Result<Value> {
        let name = params
            .get("name")
            .and_then(|v| v.as_str())
            .ok_or_else(|| RpcError::invalid_params("Missing tool name"))?;
        let args = params.get("arguments").cloned().unwrap_or(Value::Null);
        let process_id = || {
            args.get("process_id")
                .and_then(|v| v.as_str())
                .ok_or_else(|| RpcError::invalid_params("Missing process_id"))
        };
        match name {
            "stop_app" => self.stop_app(process_id()?),
            "get_logs" => self.get_logs(process_id()?),
            _ => Err(RpcError::method_not_found()), //~ unknown_tool_wrong_code
        }
    }
}

pub struct Config {
    pub server: Option<Server>,
}

pub fn serve(config: Config) -> IoHandler {
    let mut io = IoHandler::new();
    if let Some(server) = config.server {
        let server_clone = server.clone();
        io.add_sync_method("initialize", move |params: Params| match params {
            Params::Map(map) => {
                let version = map.get("protocolVersion").and_then(|v| v.as_str());
                server_clone.initialize(version.unwrap_or(""))
            }
            _ => Err(RpcError::invalid_params("Expected object parameters")),
        });
        let server_clone = server.clone();
        io.add_method("tools/call", move |params: Params| {
            let server = server_clone.clone();
            async move {
                match params {
                    Params::Map(map) => server.call_tool(Value::Object(map)),
                    _ => Err(RpcError::invalid_params("Expected object parameters")),
                }
            }
        });
    }
    io
}
