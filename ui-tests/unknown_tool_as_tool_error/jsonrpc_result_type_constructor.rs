//@ dep: serde_json = "1"
// A hand-rolled server whose result type has its own constructors (`ToolResult::text(msg)`,
// `ToolResult::tool_error(msg)`, each a `Self { .., is_error: <literal> }`): a call builds the
// tool result its literal says. The unknown tool answered with `ToolResult::tool_error(..)` is
// an isError result (MCP007), as the struct literal written there would be; the same
// constructor answering a known tool's failed read is right.
use serde::Serialize;
use serde_json::{json, Value};

#[derive(Serialize)]
pub struct ToolResult {
    pub content: Vec<Value>,
    #[serde(rename = "isError")]
    pub is_error: bool,
}

impl ToolResult {
    pub fn text(msg: String) -> Self {
        Self { content: vec![json!({"type": "text", "text": msg})], is_error: false }
    }

    pub fn tool_error(msg: String) -> Self {
        Self { content: vec![json!({"type": "text", "text": msg})], is_error: true }
    }
}

pub fn handle(id: Value, method: &str, params: &Value) -> Value {
    match method {
        "tools/call" => {
            let name = params.get("name").and_then(|n| n.as_str()).unwrap_or("");
            let result = match name {
                "read" => {
                    let path = params["arguments"]["path"].as_str().unwrap_or_default();
                    match std::fs::read_to_string(path) {
                        Ok(text) => ToolResult::text(text),
                        Err(e) => ToolResult::tool_error(format!("cannot read {path}: {e}")),
                    }
                }
                _ => ToolResult::tool_error(format!("Unknown tool: {name}")), //~ unknown_tool_as_tool_error
            };
            json!({"jsonrpc": "2.0", "id": id, "result": result})
        }
        _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
    }
}
