//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
// A hand-rolled server whose `tools/call` handler decodes the request's params through locals
// (`let params_value = request.params.ok_or(..)?; let params: CallToolParams =
// serde_json::from_value(params_value)?`) and hands `&params.name` to its registry, whose miss
// is `Error::Tool("Unknown tool: ..")`, which the mapping after the method dispatch sends with
// -32603. The name is the request's: the registry's miss is the unknown-tool answer, reported
// where it is built. A second registry type with a method of the same name, called with a name
// decoded from the server's own presets (not from the request), is no unknown-tool answer: its
// miss is the preset table's, and the call resolves to the other type's method by its receiver.
use std::collections::HashMap;

use serde_json::Value;

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

pub struct JsonRpcRequest {
    pub id: Value,
    pub method: String,
    pub params: Option<Value>,
}

#[derive(serde::Deserialize)]
pub struct CallToolParams {
    pub name: String,
    pub arguments: Option<HashMap<String, Value>>,
}

pub struct JsonRpcError {
    pub id: Value,
    pub code: i32,
    pub message: String,
}

type Handler = fn(HashMap<String, Value>) -> Result<Value>;

pub struct ToolRegistry {
    tools: HashMap<String, Handler>,
}

impl ToolRegistry {
    pub fn call_tool(&self, name: &str, args: HashMap<String, Value>) -> Result<Value> {
        let handler = self
            .tools
            .get(name)
            .ok_or_else(|| Error::Tool(format!("Unknown tool: {}", name)))?; //~ unknown_tool_wrong_code
        handler(args)
    }
}

pub struct PresetRegistry {
    presets: HashMap<String, Value>,
}

impl PresetRegistry {
    pub fn call_tool(&self, name: &str) -> Result<Value> {
        let preset = self
            .presets
            .get(name)
            .ok_or_else(|| Error::Tool(format!("no preset {}", name)))?;
        Ok(preset.clone())
    }
}

pub struct Server {
    registry: ToolRegistry,
    presets: PresetRegistry,
    preset_json: Value,
}

impl Server {
    fn handle_tools_call(&self, request: JsonRpcRequest) -> Result<Value> {
        let params_value = request
            .params
            .ok_or_else(|| Error::InvalidParams("Missing params".to_string()))?;
        let params: CallToolParams = serde_json::from_value(params_value)
            .map_err(|e: serde_json::Error| Error::InvalidParams(e.to_string()))?;
        let preset: CallToolParams = serde_json::from_value(self.preset_json.clone())
            .map_err(|e: serde_json::Error| Error::InvalidParams(e.to_string()))?;
        let _defaults = self.presets.call_tool(&preset.name)?;
        self.registry
            .call_tool(&params.name, params.arguments.unwrap_or_default())
    }

    pub fn handle_request(&self, request: JsonRpcRequest) -> std::result::Result<Value, JsonRpcError> {
        let id = request.id.clone();
        let response = match request.method.as_str() {
            "tools/call" => self.handle_tools_call(request),
            "ping" => Ok(Value::Null),
            _ => Err(Error::InvalidParams(format!("unknown method {}", request.method))),
        };
        match response {
            Ok(result) => Ok(result),
            Err(e) => Err(JsonRpcError { //~ tool_failure_as_protocol_error
                id,
                code: e.json_rpc_code(),
                message: e.to_string(),
            }),
        }
    }
}
