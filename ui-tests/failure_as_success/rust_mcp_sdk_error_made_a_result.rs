//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
// rust-mcp-sdk 2.x: `CallToolResult::from(err)` (the schema's only `From` for it is
// `From<CallToolError>`, which sets `is_error`) and a crate method of the error that builds that
// result (`err.to_tool_result().into()`) are isError answers, not successes built from the error.
// Still reported: a success result whose text is the error (`text_content(..)` of `err`).
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::ServerHandlerCore,
    schema::{
        schema_utils::CallToolError, CallToolRequestParams, CallToolResult,
        NotificationFromClient, RequestFromClient, RpcError, ServerResult, TextContent,
    },
    McpServer, RequestContext,
};

#[derive(Debug)]
pub enum MirrorError {
    NoSuchPackage(String),
    Upstream(String),
}

impl std::fmt::Display for MirrorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MirrorError::NoSuchPackage(p) => write!(f, "no package named {p}; search first"),
            MirrorError::Upstream(m) => write!(f, "the registry answered: {m}"),
        }
    }
}

impl MirrorError {
    pub fn to_tool_result(&self) -> CallToolResult {
        CallToolResult::from(CallToolError::from_message(self.to_string()))
    }
}

fn fetch(name: &str) -> Result<String, MirrorError> {
    if name.is_empty() {
        return Err(MirrorError::NoSuchPackage(name.to_string()));
    }
    Err(MirrorError::Upstream("503".to_string()))
}

fn page_size(params: &CallToolRequestParams) -> Result<u64, CallToolError> {
    let size = params.arguments.as_ref().and_then(|a| a.get("page_size")).and_then(|v| v.as_u64());
    size.ok_or_else(|| CallToolError::from_message("page_size must be a whole number of packages"))
}

pub struct Mirror;

impl Mirror {
    /// The `tools/call` route of `handle_request`.
    async fn call_tool(&self, params: CallToolRequestParams) -> std::result::Result<ServerResult, RpcError> {
        match params.name.as_str() {
            "package_info" => match fetch("serde") {
                Ok(text) => Ok(CallToolResult::text_content(vec![TextContent::from(text)]).into()),
                Err(err) => Ok(err.to_tool_result().into()),
            },
            "readme" => match fetch("tokio") {
                Ok(text) => Ok(CallToolResult::text_content(vec![TextContent::from(text)]).into()),
                Err(err) => Ok(CallToolResult::from(CallToolError::from_message(err.to_string())).into()),
            },
            "search" => match page_size(&params) {
                Ok(n) => Ok(CallToolResult::text_content(vec![TextContent::from(format!("{n} per page"))]).into()),
                Err(err) => Ok(CallToolResult::from(err).into()),
            },
            "versions" => match fetch("rand") {
                Ok(text) => Ok(CallToolResult::text_content(vec![TextContent::from(text)]).into()),
                Err(err) => Ok(CallToolResult::text_content(vec![TextContent::from(err.to_string())]).into()), //~ failure_as_success
            },
            other => Err(RpcError::invalid_params().with_message(format!("Unknown tool: {other}"))),
        }
    }
}

#[async_trait]
impl ServerHandlerCore for Mirror {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => self.call_tool(params).await,
            _ => Err(RpcError::method_not_found()),
        }
    }

    async fn handle_notification(
        &self,
        _notification: NotificationFromClient,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<(), RpcError> {
        Ok(())
    }
}
