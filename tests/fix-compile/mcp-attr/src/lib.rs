//! An mcp-attr 0.0.7 server with one tool (`size`) in a hand-written `McpServer::tools_call`,
//! whose `Err` is a JSON-RPC error, in the forms `mcp-lint check --fix --unsafe-fixes` rewrites
//! into an isError `CallToolResult`, and an unknown tool answered with the SDK's
//! `tool_not_found` (-32601), rewritten to -32602 naming the tool.

use mcp_attr::schema::{CallToolRequestParams, CallToolResult, TextContent};
use mcp_attr::server::errors::tool_not_found;
use mcp_attr::server::{McpServer, RequestContext};
use mcp_attr::{Error, ErrorCode, Result};
use serde_json::Value;

pub struct Files;

/// The error for a file a tool cannot read.
fn unreadable(path: &str, e: std::io::Error) -> Error {
    Error::new(ErrorCode::INTERNAL_ERROR).with_message(format!("cannot read {path}: {e}"), true)
}

fn text(s: String) -> CallToolResult {
    CallToolResult {
        content: vec![TextContent::new(s).into()],
        is_error: None,
        meta: Default::default(),
    }
}

impl McpServer for Files {
    async fn tools_call(
        &self,
        p: CallToolRequestParams,
        _cx: &mut RequestContext,
    ) -> Result<CallToolResult> {
        match p.name.as_str() {
            "size" => {
                let args = p.arguments.unwrap_or_default();
                let Some(path) = args.get("path").and_then(Value::as_str) else {
                    return Err(Error::new(ErrorCode::INVALID_PARAMS)
                        .with_message("path is required (a file path)", true));
                };
                let meta = std::fs::metadata(path).map_err(|e| unreadable(path, e))?;
                if meta.is_dir() {
                    return Err(Error::new(ErrorCode::INTERNAL_ERROR)
                        .with_message(format!("{path} is a directory; size takes a file"), true));
                }
                Ok(text(meta.len().to_string()))
            }
            _ => Err(tool_not_found(&p.name)),
        }
    }
}
