//@ dep: rust-mcp-sdk = "1.1"
//@ dep: async-trait = "0.1"
//@ dep: tokio = "1"
// rust-mcp-sdk 1.1 (rust-mcp-schema 1.0): `ServerHandlerCore::handle_request` returns
// `Result<ResultFromServer, RpcError>`; its `CallToolRequest(params)` arm is tool context, and an
// `Err(RpcError)` there is a JSON-RPC error. The fix is the one of 2.x,
// `Ok(CallToolResult::from(CallToolError::from_message(msg)).into())`: schema 1.0 has
// `CallToolError::from_message`, `From<CallToolError> for CallToolResult` (isError) and
// `From<CallToolResult> for ResultFromServer`.
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
