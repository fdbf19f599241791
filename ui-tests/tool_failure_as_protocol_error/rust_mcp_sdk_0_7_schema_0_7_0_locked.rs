//@ dep: rust-mcp-sdk = "=0.7.4"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
//@ locked: rust-mcp-schema = "0.7.0"
// rust-mcp-sdk 0.7 whose Cargo.lock pins rust-mcp-schema 0.7.0, which has no
// `CallToolError::from_message` (only `new(impl Error)` and `unknown_tool`): the help names 0.8 or
// a lock with 0.7.5, and there is no fix. With 0.7.5 locked the same server gets the fix
// (`rust_mcp_sdk_0_7_schema_0_7_5_locked`).
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
