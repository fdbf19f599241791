//! A rust-mcp-sdk 0.7 server (rust-mcp-schema 0.7.5, as the workspace's Cargo.lock pins it)
//! whose `ServerHandlerCore::handle_request` answers tool failures in its `CallToolRequest` arm
//! with an `RpcError` (a JSON-RPC error), in the forms `mcp-lint check --fix --unsafe-fixes`
//! rewrites: the fixes are 0.8's, which take `CallToolError::from_message` (0.7.5 has it, 0.7.0
//! does not).

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
                    let meta = std::fs::metadata(path).map_err(|e| {
                        RpcError::internal_error().with_message(format!("cannot read {path}: {e}"))
                    })?;
                    if meta.is_dir() {
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
