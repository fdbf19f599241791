//@ dep: rust-mcp-sdk = { version = "2.0.0", default-features = false, features = ["server", "macros", "stdio"] }
//@ dep: async-trait = "0.1"
//@ dep: serde = { version = "1", features = ["derive"] }
// rust-mcp-sdk 2.0, a core handler whose helpers convert the params into `tool_box!`'s enum.
// Where a test that the name is none of the server's tools has already answered the unknown
// name (an early `return`, or an `Err(_) if !..` arm before it), the conversion's other `Err`
// is a known tool's arguments failing to decode, and an isError result is right there. Without
// that test, the `Err` arm is the unknown tool's answer.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::mcp_server::ServerHandlerCore;
use rust_mcp_sdk::schema::{
    schema_utils::{NotificationFromClient, RequestFromClient},
    CallToolRequestParams, CallToolResult, RpcError, ServerResult, TextContent,
};
use rust_mcp_sdk::{tool_box, McpServer, RequestContext};

#[mcp_tool(name = "get_item", description = "Look an item up by SKU")]
#[derive(Debug, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct GetItem {
    sku: String,
}

tool_box!(ItemTools, [GetItem]);

fn run(tool: ItemTools) -> Result<ServerResult, RpcError> {
    match tool {
        ItemTools::GetItem(t) => {
            Ok(CallToolResult::text_content(vec![TextContent::from(format!("item {}", t.sku))]).into())
        }
    }
}

pub struct Handler;

impl Handler {
    async fn call_guarded(&self, params: CallToolRequestParams) -> Result<ServerResult, RpcError> {
        let tool_name = params.name.clone();
        if !ItemTools::tools().iter().any(|t| t.name == tool_name) {
            return Err(RpcError::invalid_params().with_message(format!("Unknown tool: {tool_name}")));
        }
        let tool = match ItemTools::try_from(params) {
            Ok(tool) => tool,
            // Only a known tool gets here: its arguments did not decode.
            Err(err) => return Ok(CallToolResult::from(err).into()),
        };
        run(tool)
    }

    async fn call_guard_arm(&self, params: CallToolRequestParams) -> Result<ServerResult, RpcError> {
        let tool_name = params.name.clone();
        let tool = match ItemTools::try_from(params) {
            Ok(tool) => tool,
            Err(_) if !ItemTools::tools().iter().any(|t| t.name == tool_name) => {
                return Err(RpcError::invalid_params().with_message(format!("Unknown tool: {tool_name}")));
            }
            Err(err) => return Ok(CallToolResult::from(err).into()),
        };
        run(tool)
    }

    async fn call_unguarded(&self, params: CallToolRequestParams) -> Result<ServerResult, RpcError> {
        let tool = match ItemTools::try_from(params) {
            Ok(tool) => tool,
            Err(err) => return Ok(CallToolResult::from(err).into()), //~ unknown_tool_as_tool_error
        };
        run(tool)
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
            RequestFromClient::CallToolRequest(params) if params.name.starts_with("v1_") => {
                self.call_guarded(params).await
            }
            RequestFromClient::CallToolRequest(params) if params.name.starts_with("v2_") => {
                self.call_guard_arm(params).await
            }
            RequestFromClient::CallToolRequest(params) => self.call_unguarded(params).await,
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
