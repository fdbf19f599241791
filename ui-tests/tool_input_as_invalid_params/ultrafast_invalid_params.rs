//@ dep: ultrafast-mcp = "202506018.1.0"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// ultrafast-mcp 202506018.1.0: the server answers `MCPError::invalid_params(..)` *and*
// `MCPError::not_found(..)` (both `MCPError::Protocol(..)` variants) with -32602, every other
// error with -32603. So `not_found` for an id the model gave is this lint, not
// tool_failure_as_protocol_error, while `ToolError::InvalidInput(..)` (sent as -32603) is the
// other way round. The unknown-tool answer is excluded.
use std::collections::HashMap;

use async_trait::async_trait;
use ultrafast_mcp::McpCoreError::ToolError;
use ultrafast_mcp::{ListToolsRequest, ListToolsResponse, MCPError, MCPResult, ToolCall, ToolContent, ToolHandler, ToolResult};

struct Orders {
    orders: HashMap<u64, String>,
}

#[async_trait]
impl ToolHandler for Orders {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        let args = call.arguments.clone().unwrap_or_default();
        match call.name.as_str() {
            "get_order" => {
                let id = args.get("id").and_then(|v| v.as_u64()).unwrap_or_default();
                let order = self.orders.get(&id).ok_or_else(|| MCPError::not_found(format!("no order {id}")))?; //~ tool_input_as_invalid_params
                Ok(ToolResult { content: vec![ToolContent::text(order.clone())], is_error: None })
            }
            "reorder" => {
                let quantity = args.get("quantity").and_then(|v| v.as_i64()).unwrap_or(1);
                if quantity <= 0 {
                    return Err(MCPError::invalid_params(format!("quantity must be positive, got {quantity}"))); //~ tool_input_as_invalid_params
                }
                if quantity > 100 {
                    return Err(MCPError::ToolExecution(ToolError::InvalidInput(format!("at most 100 items per order, got {quantity}")))); //~ tool_failure_as_protocol_error
                }
                Ok(ToolResult { content: vec![ToolContent::text(format!("reordered {quantity}"))], is_error: None })
            }
            other => Err(MCPError::not_found(format!("Unknown tool: {other}"))),
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        Ok(ListToolsResponse { tools: vec![], next_cursor: None })
    }
}
