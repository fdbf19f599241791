//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
// A hand-rolled `tools/call` arm that maps what the tool router returns, after the tool ran:
// `Err(e) => { let (code, message) = match &e { .. }; .. }`. The arm of a variant that only a
// tool's check of an argument's value builds (`InvalidArgument`, the range check of `limit`)
// answers that check with -32602: MCP006, at the error object built per arm. The arms of a
// variant built where the arguments fail to decode (`BadArguments`, schema-level) and of the
// unknown tool ("Unknown tool: x") are right with -32602.
use serde::Deserialize;
use serde_json::{json, Value};

const INVALID_PARAMS: i32 = -32602;

pub struct JsonRpcError {
    pub code: i32,
    pub message: String,
}

#[derive(Debug)]
pub enum ToolError {
    UnknownTool(String),
    BadArguments(serde_json::Error),
    InvalidArgument(String),
}

#[derive(Deserialize)]
struct ListArgs {
    limit: u32,
}

fn list_notes(args: Value) -> Result<Value, ToolError> {
    let args: ListArgs = serde_json::from_value(args).map_err(ToolError::BadArguments)?;
    if args.limit == 0 || args.limit > 100 {
        return Err(ToolError::InvalidArgument(format!("limit must be 1..=100, got {}", args.limit)));
    }
    Ok(json!({"content": [{"type": "text", "text": "[]"}]}))
}

fn call(name: &str, args: Value) -> Result<Value, ToolError> {
    match name {
        "list_notes" => list_notes(args),
        other => Err(ToolError::UnknownTool(other.to_string())),
    }
}

fn error_response(id: Value, error: JsonRpcError) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": error.code, "message": error.message}})
}

pub fn handle(request: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str().unwrap_or_default() {
        "tools/call" => {
            let params = &request["params"];
            let Some(name) = params["name"].as_str() else {
                return error_response(id, JsonRpcError { code: INVALID_PARAMS, message: "tools/call needs params.name".into() });
            };
            match call(name, params["arguments"].clone()) {
                Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                Err(e) => {
                    let (code, message) = match &e {
                        ToolError::UnknownTool(name) => (INVALID_PARAMS, format!("Unknown tool: {name}")),
                        ToolError::BadArguments(err) => (INVALID_PARAMS, format!("invalid arguments for {name}: {err}")),
                        ToolError::InvalidArgument(msg) => (INVALID_PARAMS, msg.clone()),
                    };
                    error_response(id, JsonRpcError { code, message }) //~ tool_input_as_invalid_params
                }
            }
        }
        other => error_response(id, JsonRpcError { code: -32601, message: format!("Method not found: {other}") }),
    }
}

fn main() {}
