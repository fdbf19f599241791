//@ dep: serde_json = "1"
// A hand-rolled router returns the unknown tool as a variant of its error enum, and the caller's
// `match` has one arm per variant: the arm naming the unknown tool's variant is its answer
// (-32601 here: MCP011 at the catch-all that builds it). The other variant's arm, an isError
// result written first, answers tool failures only: no MCP007 for the unknown tool.
use serde_json::{json, Value};
#[derive(Debug)]
pub enum ToolError { UnknownTool(String), Failed(String) }
fn call_tool(name: &str, _a: Value) -> Result<String, ToolError> {
    match name { "echo" => Ok("hi".into()), other => Err(ToolError::UnknownTool(other.to_owned())) } //~ unknown_tool_wrong_code
}
fn error(id: Value, code: i64, m: &str) -> Value { json!({"jsonrpc":"2.0","id":id,"error":{"code":code,"message":m}}) }
pub fn handle(method: &str, id: Value, params: Value) -> Value {
    match method {
        "tools/call" => match call_tool(params["name"].as_str().unwrap_or_default(), params["arguments"].clone()) {
            Ok(t) => json!({"jsonrpc":"2.0","id":id,"result":{"content":[{"type":"text","text":t}],"isError":false}}),
            Err(ToolError::Failed(m)) => json!({"jsonrpc":"2.0","id":id,"result":{"content":[{"type":"text","text":m}],"isError":true}}),
            Err(ToolError::UnknownTool(name)) => error(id, -32601, &format!("Unknown tool: {name}")),
        },
        other => error(id, -32601, &format!("Method not found: {other}")),
    }
}
