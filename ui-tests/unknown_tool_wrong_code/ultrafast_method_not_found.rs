//@ dep: ultrafast-mcp = "202506018.1.0"
//@ dep: async-trait = "0.1"
//@ dep: serde = "1"
//@ dep: serde_json = "1"
// ultrafast-mcp 202506018.1.0: the README answers an unknown tool with
// `Err(MCPError::method_not_found(format!("Unknown tool: {}", call.name)))`, but the server maps
// only `InvalidParams` and `NotFound` to -32602, so this leaves as -32603 "Tool call failed:
// Protocol error: Method not found: Unknown tool: ..": the wrong code (a protocol error, so not
// unknown_tool_as_tool_error). `MCPError::invalid_params(..)` and `MCPError::not_found(..)` naming
// the tool are right. The README's `?` on the argument parse is -32603 as well.
use async_trait::async_trait;
use serde::Deserialize;
use ultrafast_mcp::{ListToolsRequest, ListToolsResponse, MCPError, MCPResult, ToolCall, ToolContent, ToolHandler, ToolResult};

#[derive(Deserialize)]
struct GreetRequest {
    name: String,
    greeting: Option<String>,
}

struct GreetToolHandler;

#[async_trait]
impl ToolHandler for GreetToolHandler {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        match call.name.as_str() {
            "greet" => {
                let args: GreetRequest = serde_json::from_value(call.arguments.unwrap_or_default())?; //~ tool_failure_as_protocol_error
                let greeting = args.greeting.unwrap_or_else(|| "Hello".to_string());
                Ok(ToolResult { content: vec![ToolContent::text(format!("{}, {}!", greeting, args.name))], is_error: Some(false) })
            }
            _ => Err(MCPError::method_not_found(format!("Unknown tool: {}", call.name))), //~ unknown_tool_wrong_code
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        Ok(ListToolsResponse { tools: vec![], next_cursor: None })
    }
}

struct Calculator;

#[async_trait]
impl ToolHandler for Calculator {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        let args = call.arguments.clone().unwrap_or_default();
        let a = args.get("a").and_then(|v| v.as_f64()).unwrap_or_default();
        let b = args.get("b").and_then(|v| v.as_f64()).unwrap_or_default();
        match call.name.as_str() {
            "add" => Ok(ToolResult { content: vec![ToolContent::text((a + b).to_string())], is_error: None }),
            "sub" => Ok(ToolResult { content: vec![ToolContent::text((a - b).to_string())], is_error: None }),
            other => Err(MCPError::internal_error(format!("unknown tool {other}"))), //~ unknown_tool_wrong_code
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        Ok(ListToolsResponse { tools: vec![], next_cursor: None })
    }
}

struct StrictCalculator;

#[async_trait]
impl ToolHandler for StrictCalculator {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        match call.name.as_str() {
            "zero" => Ok(ToolResult { content: vec![ToolContent::text("0".to_string())], is_error: None }),
            "one" => Ok(ToolResult { content: vec![ToolContent::text("1".to_string())], is_error: None }),
            other if other.starts_with("math.") => Err(MCPError::not_found(format!("Unknown tool: {other}"))),
            other => Err(MCPError::invalid_params(format!("Unknown tool: {other}"))),
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        Ok(ListToolsResponse { tools: vec![], next_cursor: None })
    }
}
