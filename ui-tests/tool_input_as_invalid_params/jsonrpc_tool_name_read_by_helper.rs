//@ dep: serde_json = "1"
// A hand-rolled dispatcher reads the tool's name out of the request with a helper before it
// picks a tool (`let name = required_string(params, "name")?`): the helper's -32602 for a
// missing or blank name refuses the request, not a tool's argument value (not reported). The
// same check in the helper the tools read their own arguments with rejects an argument's value
// (a blank `query`) with -32602: reported there.
use serde_json::{json, Map, Value};

pub struct RpcError {
    pub code: i64,
    pub message: String,
}

impl RpcError {
    pub fn invalid_params(message: impl Into<String>) -> Self {
        RpcError { code: -32602, message: message.into() }
    }
}

fn required_string<'a>(values: &'a Map<String, Value>, field: &str) -> Result<&'a str, RpcError> {
    values
        .get(field)
        .and_then(Value::as_str)
        .filter(|value| !value.trim().is_empty())
        .ok_or_else(|| RpcError::invalid_params(format!("{field} must be a non-empty string")))
}

fn required_argument<'a>(values: &'a Map<String, Value>, field: &str) -> Result<&'a str, RpcError> {
    values
        .get(field)
        .and_then(Value::as_str)
        .filter(|value| !value.trim().is_empty())
        .ok_or_else(|| RpcError::invalid_params(format!("{field} must be a non-empty string"))) //~ tool_input_as_invalid_params
}

fn search(arguments: &Map<String, Value>) -> Result<Value, RpcError> {
    let query = required_argument(arguments, "query")?;
    Ok(json!({ "content": [{ "type": "text", "text": format!("no hits for {query}") }] }))
}

fn call_tool(params: &Map<String, Value>) -> Result<Value, RpcError> {
    let name = required_string(params, "name")?;
    let empty = Map::new();
    let arguments = params.get("arguments").and_then(Value::as_object).unwrap_or(&empty);
    match name {
        "search" => search(arguments),
        other => Err(RpcError::invalid_params(format!("Unknown tool: {other}"))),
    }
}

pub fn handle(request: &Value) -> Value {
    let id = request["id"].clone();
    let answer = match request["method"].as_str() {
        Some("tools/call") => match request["params"].as_object() {
            Some(params) => call_tool(params),
            None => Err(RpcError::invalid_params("tools/call needs params")),
        },
        _ => Err(RpcError { code: -32601, message: "Method not found".to_string() }),
    };
    match answer {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": e.code, "message": e.message } }),
    }
}
