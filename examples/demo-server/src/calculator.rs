//! A calculator with a hand-written `call_tool` dispatcher (no macros).

use std::sync::Arc;

use rmcp::{
    model::{
        CallToolRequestParams, CallToolResult, Content, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
        ServerInfo, Tool,
    },
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};
use serde_json::{json, Value};

#[derive(Clone, Copy, Default)]
pub struct Calculator;

fn two_numbers_schema() -> Arc<serde_json::Map<String, Value>> {
    let schema = json!({
        "type": "object",
        "properties": { "a": { "type": "number" }, "b": { "type": "number" } },
        "required": ["a", "b"],
    });
    match schema {
        Value::Object(map) => Arc::new(map),
        _ => Arc::default(),
    }
}

impl ServerHandler for Calculator {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new("add", "Add two numbers", two_numbers_schema()),
            Tool::new("divide", "Divide a by b", two_numbers_schema()),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let (Some(a), Some(b)) = (args.get("a").and_then(Value::as_f64), args.get("b").and_then(Value::as_f64)) else {
            // Schema-level: `a` or `b` is absent or not a number. -32602 is right here.
            return Err(McpError::invalid_params("arguments `a` and `b` must both be numbers", None));
        };
        match request.name.as_ref() {
            "add" => Ok(CallToolResult::success(vec![Content::text((a + b).to_string())])),
            "divide" if b == 0.0 => Ok(CallToolResult::error(vec![Content::text(
                "cannot divide by zero: pass a non-zero `b`",
            )])),
            "divide" => Ok(CallToolResult::success(vec![Content::text((a / b).to_string())])),
            // unknown_tool_as_tool_error (MCP007): an unknown tool is a protocol error
            // (-32602 "Unknown tool: <name>"), not a tool result.
            other => Ok(CallToolResult::error(vec![Content::text(format!("Unknown tool: {other}"))])),
        }
    }
}
