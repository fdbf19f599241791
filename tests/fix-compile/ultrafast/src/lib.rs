//! An ultrafast-mcp server whose `ToolHandler::handle_tool_call` reports tool failures as
//! JSON-RPC errors (the server sends every `MCPError` but `invalid_params`/`not_found` as
//! -32603), in the forms `mcp-lint check --fix --unsafe-fixes` rewrites.

use serde_json::Value;
use ultrafast_mcp::{
    ListToolsRequest, ListToolsResponse, MCPError, MCPResult, ToolCall, ToolContent, ToolHandler,
    ToolResult,
};

pub struct Files;

/// The error for a file a tool cannot read.
fn unreadable(path: &str, e: std::io::Error) -> MCPError {
    MCPError::internal_error(format!("cannot read {path}: {e}"))
}

fn text(s: String) -> ToolResult {
    ToolResult {
        content: vec![ToolContent::text(s)],
        is_error: None,
    }
}

#[async_trait::async_trait]
impl ToolHandler for Files {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        let args = call.arguments.unwrap_or_default();
        let Some(path) = args.get("path").and_then(Value::as_str) else {
            return Err(MCPError::internal_error(
                "path is required (a file path)".to_string(),
            ));
        };
        match call.name.as_str() {
            "size" => {
                let meta =
                    std::fs::metadata(path).map_err(|e| MCPError::internal_error(e.to_string()))?;
                Ok(text(meta.len().to_string()))
            }
            "head" => {
                let content = std::fs::read_to_string(path).map_err(|e| unreadable(path, e))?;
                Ok(text(content.lines().next().unwrap_or_default().to_string()))
            }
            _ => Err(MCPError::method_not_found(format!(
                "Unknown tool: {}",
                call.name
            ))),
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        Ok(ListToolsResponse {
            tools: Vec::new(),
            next_cursor: None,
        })
    }
}
