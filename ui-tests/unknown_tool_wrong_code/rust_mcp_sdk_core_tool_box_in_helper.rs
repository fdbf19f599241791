//@ dep: rust-mcp-sdk = { version = "2.0.0", default-features = false, features = ["server", "macros", "stdio"] }
//@ dep: async-trait = "0.1"
//@ dep: serde = { version = "1", features = ["derive"] }
// rust-mcp-sdk 2.0, a core handler whose `CallToolRequest(params)` arm hands the params to the
// handler's own `call_tool(&self, params: CallToolRequestParams)`, which hands admin tools on
// to `call_admin_tool`. That one's `AdminTools::try_from(params)?` is `tool_box!`'s conversion:
// it fails with `CallToolError::unknown_tool`, which the SDK's `From<CallToolError> for
// RpcError` sends as -32603. The crate's `From<StoreError> for RpcError` never sees it: its
// arms are not reported from that `?`. A fn named `call_tool` that is handed the request is a
// dispatcher, not a `#[mcp_tool]` struct's tool method.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::mcp_server::ServerHandlerCore;
use rust_mcp_sdk::schema::{
    schema_utils::{CallToolError, NotificationFromClient, RequestFromClient},
    CallToolRequestParams, CallToolResult, RpcError, ServerResult, TextContent,
};
use rust_mcp_sdk::{tool_box, McpServer, RequestContext};

#[derive(Debug)]
pub enum StoreError {
    UnknownSku(String),
    Poisoned,
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::UnknownSku(s) => write!(f, "no item with SKU {s}"),
            StoreError::Poisoned => write!(f, "store lock poisoned"),
        }
    }
}

impl std::error::Error for StoreError {}

// Reached only from resource reads below, never from a tool.
impl From<StoreError> for RpcError {
    fn from(err: StoreError) -> Self {
        match &err {
            StoreError::UnknownSku(_) => RpcError::invalid_params().with_message(err.to_string()),
            StoreError::Poisoned => RpcError::internal_error().with_message(err.to_string()),
        }
    }
}

#[mcp_tool(name = "admin_purge", description = "Purge one SKU from the store")]
#[derive(Debug, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct AdminPurge {
    sku: String,
}

impl AdminPurge {
    fn call_tool(&self) -> Result<CallToolResult, StoreError> {
        if self.sku.is_empty() {
            return Err(StoreError::UnknownSku(self.sku.clone()));
        }
        Ok(CallToolResult::text_content(vec![TextContent::from(format!("purged {}", self.sku))]))
    }
}

tool_box!(AdminTools, [AdminPurge]);

fn read_item(uri: &str) -> Result<String, StoreError> {
    uri.strip_prefix("sku://")
        .map(str::to_string)
        .ok_or_else(|| StoreError::UnknownSku(uri.to_string()))
}

pub struct Handler;

impl Handler {
    async fn call_tool(&self, params: CallToolRequestParams) -> Result<ServerResult, RpcError> {
        if params.name.starts_with("admin_") {
            return self.call_admin_tool(params);
        }
        Err(RpcError::invalid_params().with_message(format!("Unknown tool: {}", params.name)))
    }

    fn call_admin_tool(&self, params: CallToolRequestParams) -> Result<ServerResult, RpcError> {
        let tool = AdminTools::try_from(params)?; //~ unknown_tool_wrong_code
        match tool {
            AdminTools::AdminPurge(t) => match t.call_tool() {
                Ok(result) => Ok(result.into()),
                Err(err) => Ok(CallToolResult::from(CallToolError::new(err)).into()),
            },
        }
    }
}

#[async_trait]
impl ServerHandlerCore for Handler {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => self.call_tool(params).await,
            RequestFromClient::ReadResourceRequest(params) => {
                let text = read_item(&params.uri)?;
                Err(RpcError::method_not_found().with_message(format!("resource reads are not served yet: {text}")))
            }
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

fn main() {}
