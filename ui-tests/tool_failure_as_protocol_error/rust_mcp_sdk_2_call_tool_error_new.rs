//@ dep: rust-mcp-sdk = { version = "2.0.0", default-features = false, features = ["server", "macros", "stdio"] }
//@ dep: async-trait = "0.1"
//@ dep: serde = { version = "1", features = ["derive"] }
// rust-mcp-sdk 2.0: `CallToolError::new(err)` wraps any error value, and the SDK answers a
// `CallToolError` from `handle_call_tool_request` with an isError result whose text is the
// wrapped error's Display. An `RpcError` or `SdkError` built inside it (`RpcError::
// internal_error()`, `SdkError::request_timeout(..)`, `RpcError { code: -32001, .. }`) is only
// that text: neither its channel nor its code reaches the wire. The same `RpcError` returned
// from a core handler's `CallToolRequest` arm is the JSON-RPC error it says.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::mcp_server::{ServerHandler, ServerHandlerCore};
use rust_mcp_sdk::schema::{
    schema_utils::{CallToolError, NotificationFromClient, RequestFromClient, SdkError},
    CallToolRequestParams, CallToolResult, RpcError, ServerResult, TextContent,
};
use rust_mcp_sdk::{tool_box, McpServer, RequestContext};

#[mcp_tool(name = "mirror_fetch", description = "Fetch a package from the mirror")]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct MirrorFetch {
    package: String,
}

impl MirrorFetch {
    pub fn call_tool(&self) -> Result<CallToolResult, CallToolError> {
        if self.package.is_empty() {
            return Err(CallToolError::new(
                RpcError::internal_error().with_message("package must be a non-empty name".to_string()),
            ));
        }
        if self.package.starts_with('-') {
            return Err(CallToolError::new(SdkError::request_timeout(30_000)));
        }
        if self.package.len() > 214 {
            return Err(CallToolError::new(RpcError {
                code: -32001,
                message: format!("package name {:?} is longer than 214 characters", self.package),
                data: None,
            }));
        }
        Ok(CallToolResult::text_content(vec![TextContent::from(self.package.clone())]))
    }
}

tool_box!(MirrorTools, [MirrorFetch]);

pub struct MirrorHandler;

#[async_trait]
impl ServerHandler for MirrorHandler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, CallToolError> {
        let tool = MirrorTools::try_from(params)?; //~ unknown_tool_as_tool_error
        match tool {
            MirrorTools::MirrorFetch(t) => t.call_tool().map(Into::into),
        }
    }
}

pub struct CoreMirror;

#[async_trait]
impl ServerHandlerCore for CoreMirror {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => {
                let package = params.name.clone();
                if package.len() > 214 {
                    return Err(RpcError { //~ tool_failure_as_protocol_error
                        code: -32001, //~ legacy_error_code
                        message: format!("package name {package:?} is longer than 214 characters"),
                        data: None,
                    });
                }
                Ok(CallToolResult::text_content(vec![TextContent::from(package)]).into())
            }
            _ => Err(RpcError::method_not_found()
                .with_message(format!("{} is not supported", request.method()))),
        }
    }

    async fn handle_notification(
        &self,
        _notification: NotificationFromClient,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(
        &self,
        _error: &RpcError,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<(), RpcError> {
        Ok(())
    }
}
