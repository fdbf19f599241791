//@ dep: serde_json = "1"
// A hand-rolled server whose tool registry answers a name it does not hold with its error enum
// (`self.tools.get(name).ok_or_else(|| Error::Tool(format!("Unknown tool: {name}")))?`), and
// whose request handler maps every error after the method dispatch (`let response = match method
// { "tools/call" => self.handle_tools_call(..), .. }; match response { Err(e) =>
// JsonRpcError::new(id, e.json_rpc_code(), ..) }`): the unknown tool gets -32603, the code
// `json_rpc_code` gives `Error::Tool`. Reported where the lookup's miss builds the error, with the mapping attached.
// The registry's tools' own failures (`Error::Tool` from a handler) are
// tool_failure_as_protocol_error's, at the mapping.
use std::collections::HashMap;

use serde_json::{json, Value};

#[derive(Debug)]
pub enum Error {
    InvalidParams(String),
    Tool(String),
}

impl Error {
    pub fn json_rpc_code(&self) -> i32 {
        match self {
            Error::InvalidParams(_) => -32602,
            Error::Tool(_) => -32603,
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

pub type Result<T> = std::result::Result<T, Error>;

pub struct JsonRpcError {
    pub id: Value,
    pub code: i32,
    pub message: String,
}

impl JsonRpcError {
    pub fn new(id: Value, code: i32, message: String) -> Self {
        JsonRpcError { id, code, message }
    }
}

type Handler = fn(&Value) -> Result<Value>;

pub struct ToolRegistry {
    tools: HashMap<String, Handler>,
}

impl ToolRegistry {
    pub fn call_tool(&self, name: &str, args: &Value) -> Result<Value> {
        let handler = self
            .tools
            .get(name)
            .ok_or_else(|| Error::Tool(format!("Unknown tool: {name}")))?; //~ unknown_tool_wrong_code
        handler(args)
    }
}

pub struct Server {
    registry: ToolRegistry,
}

impl Server {
    fn handle_tools_call(&self, params: &Value) -> Result<Value> {
        let name = params["name"].as_str().ok_or_else(|| Error::InvalidParams("missing name".to_string()))?;
        self.registry.call_tool(name, &params["arguments"])
    }

    pub fn handle_request(&self, request: &Value) -> std::result::Result<Value, JsonRpcError> {
        let id = request["id"].clone();
        let method = request["method"].as_str().unwrap_or_default();
        let response = match method {
            "tools/call" => self.handle_tools_call(&request["params"]),
            "ping" => Ok(json!({})),
            _ => Err(Error::InvalidParams(format!("unknown method {method}"))),
        };
        match response {
            Ok(result) => Ok(result),
            Err(e) => Err(JsonRpcError::new(id, e.json_rpc_code(), e.to_string())), //~ tool_failure_as_protocol_error
        }
    }
}
