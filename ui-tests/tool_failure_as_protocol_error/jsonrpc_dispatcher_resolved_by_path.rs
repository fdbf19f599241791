//@ dep: serde_json = "1"
// The fn a `"tools/call"` arm calls is the dispatcher, found by resolving the call's path, not by
// its name: `tools::handle` is, and its tool's -32603 is a tool failure sent as a protocol error;
// `startup::handle`, a same-named fn the server runs once before it serves, is not (its -32603
// says the server cannot start, a protocol error that is right).
use serde_json::{json, Value};

fn error(id: Value, code: i32, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

mod tools {
    use super::error;
    use serde_json::{json, Value};

    pub fn handle(id: Value, params: &Value) -> Value {
        match params["name"].as_str() {
            Some("read") => {
                let path = params["arguments"]["path"].as_str().unwrap_or_default();
                match std::fs::read_to_string(path) {
                    Ok(text) => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}}),
                    Err(e) => error(id, -32603, format!("cannot read {path}: {e}")), //~ tool_failure_as_protocol_error
                }
            }
            Some(other) => error(id, -32602, format!("Unknown tool: {other}")),
            None => error(id, -32602, "tools/call needs a tool name".to_string()),
        }
    }
}

mod startup {
    use super::error;
    use serde_json::Value;

    pub fn handle(id: Value, config: &Value) -> Value {
        match config["cache_dir"].as_str() {
            Some(dir) if std::fs::create_dir_all(dir).is_ok() => Value::Null,
            _ => error(id, -32603, "the cache directory cannot be created".to_string()),
        }
    }
}

pub fn serve(request: &Value, config: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("initialize") => startup::handle(id, config),
        Some("tools/call") => tools::handle(id, &request["params"]),
        _ => error(id, -32601, "Method not found".to_string()),
    }
}
