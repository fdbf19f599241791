//@ dep: ultrafast-mcp = "202506018.1.0"
//@ dep: async-trait = "0.1"
// ultrafast-mcp 202506018.1.0 has no isError constructor: `ToolResult` (`ToolCallResponse`) is the
// literal `{ content: Vec<ToolContent>, is_error: Option<bool> }`. `is_error: Some(true)` with an
// empty `content`, or only `ToolContent::text(String::new())`, is an error with nothing to read.
// An empty success (`is_error: None` or `Some(false)`) is not.
use async_trait::async_trait;
use ultrafast_mcp::{ListToolsRequest, ListToolsResponse, MCPError, MCPResult, ToolCall, ToolContent, ToolHandler, ToolResult};

struct Queue {
    jobs: std::sync::Mutex<Vec<String>>,
}

#[async_trait]
impl ToolHandler for Queue {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        let mut jobs = self.jobs.lock().map_err(|_| MCPError::internal_error("job queue lock poisoned".to_string()))?;
        match call.name.as_str() {
            "pop" => match jobs.pop() {
                Some(job) => Ok(ToolResult { content: vec![ToolContent::text(job)], is_error: Some(false) }),
                None => Ok(ToolResult { content: vec![], is_error: Some(true) }), //~ empty_error_content
            },
            "push" => {
                let Some(job) = call.arguments.as_ref().and_then(|a| a.get("job")).and_then(|v| v.as_str()) else {
                    return Ok(ToolResult { //~ empty_error_content
                        content: vec![ToolContent::text(String::new())],
                        is_error: Some(true),
                    });
                };
                jobs.push(job.to_string());
                Ok(ToolResult { content: vec![ToolContent::text(format!("{} jobs queued", jobs.len()))], is_error: None })
            }
            "clear" => {
                jobs.clear();
                Ok(ToolResult { content: vec![], is_error: None })
            }
            other => Err(MCPError::invalid_params(format!("Unknown tool: {other}"))),
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        Ok(ListToolsResponse { tools: vec![], next_cursor: None })
    }
}
