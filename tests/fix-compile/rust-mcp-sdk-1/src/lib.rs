//! A rust-mcp-sdk 1.1 server (rust-mcp-schema 1.0) whose `ServerHandlerCore::handle_request`
//! answers tool failures in its `CallToolRequest` arm with an `RpcError` (a JSON-RPC error), in
//! the forms `mcp-lint check --fix --unsafe-fixes` rewrites.

use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::mcp_server::ServerHandlerCore;
use rust_mcp_sdk::schema::{
    CallToolResult, NotificationFromClient, RequestFromClient, ResultFromServer, RpcError,
    TextContent,
};
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
            RequestFromClient::CallToolRequest(params) => {
                let args = params.arguments.unwrap_or_default();
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
