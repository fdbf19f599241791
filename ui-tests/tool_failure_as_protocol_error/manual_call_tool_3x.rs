//@ rmcp = "3.11"
// rmcp 3.x hand-written dispatcher: `call_tool` returns `Result<CallToolResponse, McpError>` and
// results go in through `.into()`. Every arm is a tool; the fallback arm is the unknown-tool
// branch, answered correctly with -32602.
use std::sync::Arc;

use rmcp::{
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
        PaginatedRequestParams, Tool,
    },
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};
use serde_json::Value;

#[derive(Clone)]
pub struct Kv {
    store: Arc<redis::Client>,
    tools: Arc<Vec<Tool>>,
}

impl ServerHandler for Kv {
    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let key = args.get("key").and_then(Value::as_str).unwrap_or_default().to_string();
        match request.name.as_ref() {
            "get" => {
                let mut conn = self
                    .store
                    .get_multiplexed_async_connection()
                    .await
                    .map_err(|e| McpError::internal_error(format!("redis unavailable: {e}"), None))?; //~ tool_failure_as_protocol_error
                let value: Option<String> = redis::cmd("GET")
                    .arg(&key)
                    .query_async(&mut conn)
                    .await
                    .map_err(|e| McpError::internal_error(format!("GET {key}: {e}"), None))?; //~ tool_failure_as_protocol_error
                match value {
                    Some(v) => Ok(CallToolResult::success(vec![ContentBlock::text(v)]).into()),
                    None => Err(McpError::internal_error(format!("key {key} is not set"), None)), //~ tool_failure_as_protocol_error
                }
            }
            "set" => {
                let Some(value) = args.get("value").and_then(Value::as_str) else {
                    // Schema-level: a required argument is absent. -32602 is still right here.
                    return Err(McpError::invalid_params("missing required argument `value`", None));
                };
                let mut conn = self
                    .store
                    .get_multiplexed_async_connection()
                    .await
                    .map_err(|e| McpError::internal_error(format!("redis unavailable: {e}"), None))?; //~ tool_failure_as_protocol_error
                let _: () = redis::cmd("SET")
                    .arg(&key)
                    .arg(value)
                    .query_async(&mut conn)
                    .await
                    .map_err(|e| McpError::internal_error(format!("SET {key}: {e}"), None))?; //~ tool_failure_as_protocol_error
                Ok(CallToolResponse::Complete(CallToolResult::success(vec![ContentBlock::text("OK")])))
            }
            _ => Err(McpError::invalid_params(format!("Unknown tool: {}", request.name), None)),
        }
    }
}
