//! A rust-mcp-sdk 2.0 server with one tool (`size`), whose `handle_call_tool_request_mrtr`
//! answers tool failures with an `RpcError` (a JSON-RPC error there, where a `CallToolError`
//! from `handle_call_tool_request` would be an isError result), in the forms
//! `mcp-lint check --fix --unsafe-fixes` rewrites.

use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::{
    CallToolRequestParams, CallToolResult, RpcError, ServerResult, TextContent,
};
use rust_mcp_sdk::{McpServer, RequestContext};
use serde_json::Value;

pub struct Files;

/// The error for a file a tool cannot read.
fn unreadable(path: &str, e: std::io::Error) -> RpcError {
    RpcError::internal_error().with_message(format!("cannot read {path}: {e}"))
}

fn text(s: String) -> ServerResult {
    CallToolResult::text_content(vec![TextContent::from(s)]).into()
}

#[async_trait]
impl ServerHandler for Files {
    async fn handle_call_tool_request_mrtr(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ServerResult, RpcError> {
        let args = params.arguments.unwrap_or_default();
        let Some(path) = args.get("path").and_then(Value::as_str) else {
            return Err(RpcError::invalid_params().with_message("path is required (a file path)"));
        };
        let meta = std::fs::metadata(path).map_err(|e| unreadable(path, e))?;
        if meta.is_dir() {
            return Err(RpcError::internal_error()
                .with_message(format!("{path} is a directory; size takes a file")));
        }
        Ok(text(meta.len().to_string()))
    }
}
