//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
//@ dep: tokio = "1"
// rust-mcp-sdk 2.x, `ServerHandlerCore::handle_request`: every `Err(RpcError)` it returns is a
// JSON-RPC error, and the `RequestFromClient::CallToolRequest(params)` arm is tool context.
// `?` on a `CallToolError` there crosses the SDK's `From<CallToolError> for RpcError`, which is
// `internal_error().with_message(err.to_string())` (-32603): reported at the `?` expression,
// because the conversion itself lives in the SDK (the fix, `Ok(CallToolResult::from(err).into())`,
// goes at that line). The `CallToolError`s built inside the `#[mcp_tool]` struct's `call_tool`
// are not reported on their own: their channel is decided where they are converted. The other
// arms (tools/list, resources/read, the method fallback) are not tool context.
use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    macros::{mcp_tool, JsonSchema},
    mcp_server::ServerHandlerCore,
    schema::{
        schema_utils::CallToolError, CallToolResult, ListToolsResult, ListToolsResultCacheScope,
        NotificationFromClient, RequestFromClient, RpcError, ServerResult, TextContent,
    },
    McpServer, RequestContext,
};

#[mcp_tool(name = "convert_length", description = "Convert a length between km and mi")]
#[derive(Debug, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct ConvertLength {
    /// The value to convert.
    value: f64,
    /// `km` or `mi`.
    from: String,
    /// `km` or `mi`.
    to: String,
}

impl ConvertLength {
    pub fn call_tool(&self) -> Result<CallToolResult, CallToolError> {
        let factor = match (self.from.as_str(), self.to.as_str()) {
            ("km", "mi") => 0.621_371,
            ("mi", "km") => 1.609_344,
            (a, b) if a == b => 1.0,
            (a, b) => return Err(CallToolError::from_message(format!("cannot convert {a} to {b}; use km or mi"))),
        };
        Ok(CallToolResult::text_content(vec![TextContent::from(format!("{}", self.value * factor))]))
    }
}

pub struct NotesHandler {
    dir: PathBuf,
}

#[async_trait]
impl ServerHandlerCore for NotesHandler {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        let method_name = request.method().to_owned();
        match request {
            RequestFromClient::ListToolsRequest(_params) => Ok(ListToolsResult {
                cache_scope: ListToolsResultCacheScope::Private,
                result_type: "complete".to_string(),
                ttl_ms: 0,
                meta: None,
                next_cursor: None,
                tools: vec![ConvertLength::tool()],
            }
            .into()),

            RequestFromClient::CallToolRequest(params) => {
                let args = params.arguments.clone().unwrap_or_default();
                match params.name.as_str() {
                    "read_note" => {
                        let id = args.get("id").and_then(|v| v.as_str()).unwrap_or_default();
                        let text = tokio::fs::read_to_string(self.dir.join(id))
                            .await
                            .map_err(|e| RpcError::internal_error().with_message(format!("cannot read note {id}: {e}")))?; //~ tool_failure_as_protocol_error
                        Ok(CallToolResult::text_content(vec![TextContent::from(text)]).into())
                    }
                    "convert_length" => {
                        // A schema failure (missing `to`) and the tool's own refusal both leave as -32603.
                        let tool: ConvertLength = serde_json::from_value(serde_json::Value::Object(args)).map_err(CallToolError::new)?; //~ tool_failure_as_protocol_error
                        let result = tool.call_tool()?; //~ tool_failure_as_protocol_error
                        Ok(result.into())
                    }
                    "delete_note" => {
                        let id = args.get("id").and_then(|v| v.as_str()).unwrap_or_default();
                        match tokio::fs::remove_file(self.dir.join(id)).await {
                            Ok(()) => Ok(CallToolResult::text_content(vec![TextContent::from(format!("deleted {id}"))]).into()),
                            // Right: the failure goes back to the model as an isError result.
                            Err(e) => Ok(CallToolResult::from(CallToolError::from_message(format!("cannot delete note {id}: {e}"))).into()),
                        }
                    }
                    // The spec's answer for an unknown tool: -32602 naming the tool.
                    other => Err(RpcError::invalid_params().with_message(format!("Unknown tool: {other}"))),
                }
            }

            // Not tool context: protocol errors are right here.
            RequestFromClient::ReadResourceRequest(params) => {
                Err(RpcError::invalid_params().with_message(format!("no resource at {}", params.uri)))
            }
            _ => Err(RpcError::method_not_found().with_message(format!("No handler is implemented for '{method_name}'."))),
        }
    }

    async fn handle_notification(
        &self,
        _notification: NotificationFromClient,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(&self, _error: &RpcError, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }
}
