//@ dep: ultrafast-mcp = "202506018.1.0"
//@ dep: async-trait = "0.1"
// ultrafast-mcp 202506018.1.0 defines legacy-range consts twice: `error::error_codes`
// (INITIALIZATION_FAILED -32000 .. RATE_LIMIT_ERROR -32008) and `protocol::jsonrpc::mcp_error_codes`
// (.. REQUEST_TIMEOUT -32006, PROTOCOL_VERSION_NOT_SUPPORTED -32007). A handler reaches a code only
// through `JsonRpcError::new(code, msg)` converted with `From<JsonRpcError> for MCPError`, and the
// server then sends -32603 for all of these (only InvalidParams/NotFound become -32602). The code
// is still reported where it is written: it is the code the author meant to send, and the finding
// is about the code position, not the wire (decision recorded in the issue-4 report). In a tool
// the result is also a tool failure sent as a protocol error. Comparing codes is reading.
use async_trait::async_trait;
use ultrafast_mcp::protocol::jsonrpc::{mcp_error_codes, JsonRpcError};
use ultrafast_mcp::McpCoreError::error_codes;
use ultrafast_mcp::{ListToolsRequest, ListToolsResponse, MCPError, MCPResult, ToolCall, ToolContent, ToolHandler, ToolResult};

const BACKEND_BUSY: i32 = -32010;

struct Translate {
    remaining: std::sync::atomic::AtomicU32,
}

#[async_trait]
impl ToolHandler for Translate {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        if self.remaining.load(std::sync::atomic::Ordering::Relaxed) == 0 {
            return Err(JsonRpcError::new(error_codes::RATE_LIMIT_ERROR, "translation quota used up; retry in an hour".to_string()).into()); //~ tool_failure_as_protocol_error
            //~^ legacy_error_code
        }
        let text = call.arguments.as_ref().and_then(|a| a.get("text")).and_then(|v| v.as_str()).unwrap_or_default();
        if text.len() > 5_000 {
            return Err(MCPError::from(JsonRpcError::new(BACKEND_BUSY, format!("text of {} chars is too long for the backend", text.len())))); //~ tool_failure_as_protocol_error
            //~^ legacy_error_code
        }
        self.remaining.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        Ok(ToolResult { content: vec![ToolContent::text(text.to_uppercase())], is_error: None })
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        Ok(ListToolsResponse { tools: vec![], next_cursor: None })
    }
}

/// Client side: deciding whether to retry.
pub fn is_retryable(error: &JsonRpcError) -> bool {
    error.code == mcp_error_codes::REQUEST_TIMEOUT || error.code == error_codes::RATE_LIMIT_ERROR
}
