//@ dep: rust-mcp-sdk = "0.8"
//@ dep: async-trait = "0.1"
//@ dep: tokio = "1"
// rust-mcp-sdk 0.8 (rust-mcp-schema 0.9, protocol 2025-11-25), the oldest version with the fix of
// 1.1 and 2.x, `Ok(CallToolResult::from(CallToolError::from_message(msg)).into())`: schema 0.9
// has `CallToolError::from_message`, `From<CallToolError> for CallToolResult` (isError) and
// `From<CallToolResult>` for `ResultFromServer` (an alias of `ServerResult` in 0.9.0). Before
// 0.8 the help names 0.8 (rust_mcp_sdk_0_7_core_and_plain.rs).
use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::ServerHandlerCore,
    schema::{
        CallToolResult, NotificationFromClient, RequestFromClient, ResultFromServer, RpcError, TextContent,
    },
    McpServer,
};

pub struct NotesHandler {
    dir: PathBuf,
}

#[async_trait]
impl ServerHandlerCore for NotesHandler {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ResultFromServer, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => {
                let args = params.arguments.clone().unwrap_or_default();
                match params.name.as_str() {
                    "read_note" => {
                        let id = args.get("id").and_then(|v| v.as_str()).unwrap_or_default();
                        if id.contains('/') {
                            return Err(RpcError::internal_error().with_message(format!("note id {id} has a slash; use the bare id"))); //~ tool_failure_as_protocol_error
                        }
                        let text = tokio::fs::read_to_string(self.dir.join(id))
                            .await
                            .map_err(|e| RpcError::internal_error().with_message(format!("cannot read note {id}: {e}")))?; //~ tool_failure_as_protocol_error
                        Ok(CallToolResult::text_content(vec![TextContent::from(text)]).into())
                    }
                    other => Err(RpcError::invalid_params().with_message(format!("Unknown tool: {other}"))),
                }
            }
            _ => Err(RpcError::method_not_found().with_message("no handler".to_string())),
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
