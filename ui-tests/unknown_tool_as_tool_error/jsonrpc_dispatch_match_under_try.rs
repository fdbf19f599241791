//@ dep: serde_json = "1"
// A hand-rolled dispatcher whose tool-name `match` is the operand of `?` in a `let` (`let result
// = match name { "find" => find(args), _ => Err(AppError::NotFound(..)) }?; Ok(result)`): the
// catch-all's `Err` is returned by the `?` as a tail's would be, and the route answers it as an
// isError result: the unknown tool is reported as for a `match` in tail position. A `?` on a
// tool's own failure (the file read) is no unknown-tool answer.
use serde_json::{json, Value};

#[derive(Debug)]
pub enum AppError {
    NotFound(String),
    Io(std::io::Error),
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

fn find(args: &Value) -> Result<Value, AppError> {
    let path = args.get("path").and_then(Value::as_str).unwrap_or("README.md");
    std::fs::read_to_string(path).map(Value::String).map_err(AppError::Io)
}

fn call(name: &str, args: &Value) -> Result<Value, AppError> {
    let result = match name {
        "find" => find(args),
        _ => Err(AppError::NotFound(format!("unknown tool: {name}"))), //~ unknown_tool_as_tool_error
    }?;
    Ok(json!({ "found": result }))
}

pub fn dispatch(request: &Value) -> Option<Value> {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let method = request.get("method").and_then(Value::as_str)?;
    let response = match method {
        "tools/call" => {
            let params = request.get("params").cloned().unwrap_or_else(|| json!({}));
            let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
            let arguments = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
            match call(name, &arguments) {
                Ok(v) => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": v.to_string()}], "isError": false}}),
                Err(e) => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": e.to_string()}], "isError": true}}),
            }
        }
        _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": format!("unknown method: {method}")}}),
    };
    Some(response)
}
