//@ dep: serde_json = "1"
// A hand-rolled server whose `tools/call` arm binds the params in a `match` arm (`Some(p) =>`)
// and hands the name read from it to a registry; codes are casts of the crate's own
// `#[repr(i64)]` enum (`ErrorCode::InternalError as i64` is -32603). The registry's miss is the
// unknown tool's answer (-32601 here: MCP011); a policy gate on the name before it is no argument
// check; after the lookup found the tool, an answer naming the tool is that tool's run failing
// (-32603: MCP001), not the unknown tool's.
use std::collections::HashMap;

use serde_json::{json, Value};

#[repr(i64)]
pub enum ErrorCode {
    MethodNotFound = -32601,
    InvalidParams = -32602,
    InternalError = -32603,
}

pub struct ErrorObject {
    pub code: i64,
    pub message: String,
}

impl ErrorObject {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

const RESTRICTED: &[&str] = &["shell"];

type Tool = fn(Value) -> Result<Value, String>;

pub struct Tools {
    restricted: bool,
    by_name: HashMap<String, Tool>,
}

impl Tools {
    pub fn call(&self, name: &str, arguments: Value) -> Result<Value, ErrorObject> {
        if self.restricted && RESTRICTED.contains(&name) {
            return Err(ErrorObject::new(
                ErrorCode::InvalidParams as i64,
                format!("tool `{name}` is not available to this token"),
            ));
        }
        let Some(tool) = self.by_name.get(name).cloned() else {
            return Err(ErrorObject::new( //~ unknown_tool_wrong_code
                ErrorCode::MethodNotFound as i64,
                format!("unknown tool: {name}"),
            ));
        };
        match tool(arguments) {
            Ok(value) => Ok(json!({"content": [{"type": "text", "text": value.to_string()}], "isError": false})),
            Err(e) => Err(ErrorObject::new( //~ tool_failure_as_protocol_error
                ErrorCode::InternalError as i64,
                format!("tool {name}: {e}"),
            )),
        }
    }
}

pub fn dispatch(tools: &Tools, method: &str, params: Option<Value>) -> Result<Value, ErrorObject> {
    match method {
        "tools/call" => match params {
            Some(p) => {
                let name = p.get("name").and_then(|v| v.as_str()).map(str::to_owned);
                let arguments = p.get("arguments").cloned().unwrap_or(json!({}));
                match name {
                    Some(n) => tools.call(&n, arguments),
                    None => Err(ErrorObject::new(
                        ErrorCode::InvalidParams as i64,
                        "tools/call requires `name`",
                    )),
                }
            }
            None => Err(ErrorObject::new(ErrorCode::InvalidParams as i64, "tools/call requires params")),
        },
        other => Err(ErrorObject::new(
            ErrorCode::MethodNotFound as i64,
            format!("method not found: {other}"),
        )),
    }
}

pub fn respond(id: Value, result: Result<Value, ErrorObject>) -> Value {
    match result {
        Ok(r) => json!({"jsonrpc": "2.0", "id": id, "result": r}),
        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": e.code, "message": e.message}}),
    }
}
