//@ dep: rust-mcp-sdk = { version = "2.0.0", default-features = false, features = ["server", "macros", "stdio"] }
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// rust-mcp-sdk 2.0, a core handler whose `CallToolRequest(params)` arm hands the request's params
// to a helper that picks the tool (`self.dispatch(&params)?`, `self.call(params).await?`): the
// helper's fallback arm is the unknown tool's answer. `CallToolError::unknown_tool(..).into()`
// there converts with the SDK's `From<CallToolError> for RpcError` (-32603), not with the
// crate's own `From<StoreError> for RpcError`, which only the tool's `?` reaches.
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

impl Calc {
    fn dispatch(&self, params: &CallToolRequestParams) -> Result<CallToolResult, RpcError> {
        let (a, b) = (num(params, "a"), num(params, "b"));
        match params.name.as_str() {
            "add" => Ok(CallToolResult::text_content(vec![TextContent::from((a + b).to_string())])),
            other => Err(RpcError::method_not_found().with_message(format!("Unknown tool: {other}"))), //~ unknown_tool_wrong_code
        }
    }
}

#[derive(Debug)]
pub struct StoreError(String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<StoreError> for RpcError {
    fn from(e: StoreError) -> Self {
        RpcError::internal_error().with_message(e.to_string()) //~ tool_failure_as_protocol_error
    }
}

pub struct Tickets;

impl Tickets {
    fn save(&self, id: &str, body: &str) -> Result<(), StoreError> {
        std::fs::write(format!("/var/tickets/{id}"), body).map_err(|e| StoreError(e.to_string()))
    }

    async fn call(&self, params: CallToolRequestParams) -> Result<CallToolResult, RpcError> {
        let args = params.arguments.clone().unwrap_or_default();
        let arg = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
        match params.name.as_str() {
            "update_ticket" => {
                self.save(&arg("id"), &arg("body"))?;
                Ok(CallToolResult::text_content(vec![TextContent::from(format!("updated {}", arg("id")))]))
            }
            _ => Err(CallToolError::unknown_tool(params.name.clone()).into()), //~ unknown_tool_wrong_code
        }
    }
}

/// Right: the helper's fallback is -32602 naming the tool.
pub struct StrictCalc;

impl StrictCalc {
    fn dispatch(&self, params: &CallToolRequestParams) -> Result<CallToolResult, RpcError> {
        match params.name.as_str() {
            "neg" => Ok(CallToolResult::text_content(vec![TextContent::from((-num(params, "a")).to_string())])),
            other => Err(RpcError::invalid_params().with_message(format!("Unknown tool: {other}; the one tool is neg"))),
        }
    }
}

pub struct Server {
    calc: Calc,
    tickets: Tickets,
    strict: StrictCalc,
}

#[async_trait]
impl ServerHandlerCore for Server {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => {
                if params.name.starts_with("calc_") {
                    return Ok(self.calc.dispatch(&params)?.into());
                }
                if params.name.starts_with("neg") {
                    return Ok(self.strict.dispatch(&params)?.into());
                }
                Ok(self.tickets.call(params).await?.into())
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
