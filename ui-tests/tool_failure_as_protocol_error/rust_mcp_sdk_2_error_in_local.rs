//@ dep: rust-mcp-sdk = { version = "2.0.0", default-features = false, features = ["server", "macros", "stdio"] }
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// rust-mcp-sdk 2.0, a core handler: a `CallToolError` kept in a local and then made an isError
// result (`let err = CallToolError::from_message(..); return Ok(CallToolResult::from(err)
// .into())`) is built for that result, as the same call written inline is. Kept in a local that
// goes anywhere else (`return Err(err.into())`, through `From<CallToolError> for RpcError`), it
// is the -32603 of that conversion.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::mcp_server::ServerHandlerCore;
use rust_mcp_sdk::schema::{
    schema_utils::{CallToolError, NotificationFromClient, RequestFromClient},
    CallToolRequestParams, CallToolResult, RpcError, ServerResult, TextContent,
};
use rust_mcp_sdk::{McpServer, RequestContext};
use serde_json::Value;

fn num(params: &CallToolRequestParams, key: &str) -> f64 {
    params
        .arguments
        .as_ref()
        .and_then(|a| a.get(key))
        .and_then(Value::as_f64)
        .unwrap_or(0.0)
}

pub struct Calc;

#[async_trait]
impl ServerHandlerCore for Calc {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => {
                let (a, b) = (num(&params, "a"), num(&params, "b"));
                match params.name.as_str() {
                    "div" => {
                        if b == 0.0 {
                            let err = CallToolError::from_message(format!(
                                "cannot divide {a} by zero; pass a non-zero b"
                            ));
                            return Ok(CallToolResult::from(err).into());
                        }
                        Ok(CallToolResult::text_content(vec![TextContent::from((a / b).to_string())]).into())
                    }
                    "sqrt" => {
                        if a < 0.0 {
                            let err = CallToolError::from_message(format!( //~ tool_failure_as_protocol_error
                                "cannot take the square root of {a}; pass a >= 0"
                            ));
                            return Err(err.into());
                        }
                        Ok(CallToolResult::text_content(vec![TextContent::from(a.sqrt().to_string())]).into())
                    }
                    other => Err(RpcError::invalid_params()
                        .with_message(format!("Unknown tool: {other}; the tools are div and sqrt"))),
                }
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
