//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
// A hand-rolled server whose response helper serialises what it is handed and answers -32603
// only when that serialisation fails (a fault of the server's own value). The unknown tool's
// answer is the isError result handed to it (MCP007's business), not the helper's -32603: no
// MCP011 there. A helper whose -32603 answers whatever it is handed still gives the unknown tool
// that code.
use serde::Serialize;
use serde_json::{json, Value};

#[derive(Serialize)]
pub struct Content {
    #[serde(rename = "type")]
    pub kind: String,
    pub text: String,
}

#[derive(Serialize)]
pub struct CallToolResult {
    pub content: Vec<Content>,
    #[serde(rename = "isError")]
    pub is_error: bool,
}

pub struct Response;

impl Response {
    pub fn success(id: i64, result: Value) -> Value {
        json!({ "jsonrpc": "2.0", "id": id, "result": result })
    }

    pub fn error(id: i64, code: i64, message: String) -> Value {
        json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
    }
}

fn success_or_internal_error(id: i64, result: &impl Serialize) -> Value {
    match serde_json::to_value(result) {
        Ok(value) => Response::success(id, value),
        Err(e) => Response::error(id, -32603, format!("Serialization failed: {}", e)),
    }
}

fn internal(id: i64, message: String) -> Value {
    Response::error(id, -32603, message)
}

fn text(s: String) -> CallToolResult {
    CallToolResult { content: vec![Content { kind: "text".into(), text: s }], is_error: false }
}

pub fn handle_call_tool(id: i64, name: &str) -> Value {
    match name {
        "echo" => success_or_internal_error(id, &text("echo".to_string())),
        other => {
            let result = CallToolResult { //~ unknown_tool_as_tool_error
                content: vec![Content { kind: "text".into(), text: format!("Unknown tool '{}'", other) }],
                is_error: true,
            };
            success_or_internal_error(id, &result)
        }
    }
}

pub fn handle_other_call(id: i64, name: &str) -> Value {
    match name {
        "ping" => success_or_internal_error(id, &text("pong".to_string())),
        other => internal(id, format!("Unknown tool '{}'", other)), //~ unknown_tool_wrong_code
    }
}

pub fn handle_request(request: &Value) -> Value {
    let id = request["id"].as_i64().unwrap_or_default();
    let name = request["params"]["name"].as_str().unwrap_or_default();
    match request["method"].as_str() {
        Some("tools/call") if name.starts_with("other_") => handle_other_call(id, name),
        Some("tools/call") => handle_call_tool(id, name),
        _ => Response::error(id, -32601, "Method not found".to_string()),
    }
}
