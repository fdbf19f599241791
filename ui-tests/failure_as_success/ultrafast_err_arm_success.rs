//@ dep: ultrafast-mcp = "202506018.1.0"
//@ dep: async-trait = "0.1"
// ultrafast-mcp 202506018.1.0: a `ToolResult` with `is_error: None` or `Some(false)` is a success.
// Building one from the error in an `Err` arm is this lint; `is_error: Some(true)` is the isError
// answer.
use async_trait::async_trait;
use ultrafast_mcp::{ListToolsRequest, ListToolsResponse, MCPError, MCPResult, ToolCall, ToolContent, ToolHandler, ToolResult};

struct Env;

#[async_trait]
impl ToolHandler for Env {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        let key = call.arguments.as_ref().and_then(|a| a.get("key")).and_then(|v| v.as_str()).unwrap_or_default().to_string();
        match call.name.as_str() {
            "get_env" => match std::env::var(&key) {
                Ok(value) => Ok(ToolResult { content: vec![ToolContent::text(value)], is_error: None }),
                Err(e) => Ok(ToolResult { content: vec![ToolContent::text(format!("Error: {key}: {e}"))], is_error: Some(false) }), //~ failure_as_success
            },
            "cwd" => match std::env::current_dir() {
                Ok(dir) => Ok(ToolResult { content: vec![ToolContent::text(dir.display().to_string())], is_error: None }),
                Err(e) => Ok(ToolResult { content: vec![ToolContent::text(format!("cannot read the working directory: {e}"))], is_error: Some(true) }),
            },
            other => Err(MCPError::invalid_params(format!("Unknown tool: {other}"))),
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        Ok(ListToolsResponse { tools: vec![], next_cursor: None })
    }
}
