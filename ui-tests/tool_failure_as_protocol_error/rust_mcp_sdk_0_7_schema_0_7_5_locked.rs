//@ dep: rust-mcp-sdk = "=0.7.4"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
//@ locked: rust-mcp-schema = "0.7.5"
// rust-mcp-sdk 0.7 whose Cargo.lock pins rust-mcp-schema 0.7.5: that schema has
// `CallToolError::from_message` (0.7.5 `2025_06_18/schema_utils.rs` ~1507), so the tool failures
// of the `CallToolRequest` arm get 0.8's fix. The same server with 0.7.0 locked gets the help only
// (`rust_mcp_sdk_0_7_schema_0_7_0_locked`).
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::mcp_server::ServerHandlerCore;
use rust_mcp_sdk::schema::schema_utils::{
    NotificationFromClient, RequestFromClient, ResultFromServer,
};
use rust_mcp_sdk::schema::{CallToolResult, ClientRequest, RpcError, TextContent};
use rust_mcp_sdk::McpServer;
use serde_json::Value;

pub struct Files;

#[async_trait]
impl ServerHandlerCore for Files {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ResultFromServer, RpcError> {
        match request {
            RequestFromClient::ClientRequest(client_request) => match client_request {
                ClientRequest::CallToolRequest(request) => {
                    let args = request.params.arguments.unwrap_or_default();
                    let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
                    //~vv tool_failure_as_protocol_error
                    let meta = std::fs::metadata(path).map_err(|e| {
                        RpcError::internal_error().with_message(format!("cannot read {path}: {e}"))
                    })?;
                    if meta.is_dir() {
                        //~v tool_failure_as_protocol_error
                        return Err(RpcError::internal_error()
                            .with_message(format!("{path} is a directory; size takes a file")));
                    }
                    let size = meta.len().to_string();
                    Ok(CallToolResult::text_content(vec![TextContent::from(size)]).into())
                }
                _ => Err(RpcError::method_not_found()),
            },
            RequestFromClient::CustomRequest(_) => Err(RpcError::method_not_found()),
        }
    }

    async fn handle_notification(
        &self,
        _notification: NotificationFromClient,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(
        &self,
        _error: &RpcError,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<(), RpcError> {
        Ok(())
    }
}
