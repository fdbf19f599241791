//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// rust-mcp-sdk 2.x: `RpcError::invalid_params()` (-32602, no arguments, message via
// `.with_message(..)`) rejecting argument values inside a tool is a tool execution error since
// 2025-11-25. It fires in the `CallToolRequest` arm of `ServerHandlerCore::handle_request` and in
// `handle_call_tool_request_mrtr`. Not: `CallToolError::invalid_arguments(..)` from the plain
// handler (an isError result already), the unknown-tool answer, and the MRTR check of a tampered
// `requestState` (a protocol-level check, which the SDK's own docs answer with -32602).
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::{ServerHandler, ServerHandlerCore},
    schema::{
        schema_utils::CallToolError, CallToolRequestParams, CallToolResult, NotificationFromClient, RequestFromClient,
        RpcError, ServerResult, TextContent,
    },
    McpServer, RequestContext,
};

const UNITS: [&str; 3] = ["celsius", "fahrenheit", "kelvin"];

fn convert(value: f64, from: &str, to: &str) -> f64 {
    let kelvin = match from {
        "celsius" => value + 273.15,
        "fahrenheit" => (value - 32.0) * 5.0 / 9.0 + 273.15,
        _ => value,
    };
    match to {
        "celsius" => kelvin - 273.15,
        "fahrenheit" => (kelvin - 273.15) * 9.0 / 5.0 + 32.0,
        _ => kelvin,
    }
}

pub struct TemperatureCore;

#[async_trait]
impl ServerHandlerCore for TemperatureCore {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => match params.name.as_str() {
                "convert_temperature" => {
                    let args = params.arguments.clone().unwrap_or_default();
                    let value = args.get("value").and_then(|v| v.as_f64()).unwrap_or_default();
                    let from = args.get("from").and_then(|v| v.as_str()).unwrap_or("celsius").to_string();
                    let to = args.get("to").and_then(|v| v.as_str()).unwrap_or("kelvin").to_string();
                    if !UNITS.contains(&from.as_str()) || !UNITS.contains(&to.as_str()) {
                        return Err(RpcError::invalid_params().with_message(format!("units are celsius, fahrenheit or kelvin; got {from} -> {to}"))); //~ tool_input_as_invalid_params
                    }
                    if from == "kelvin" && value < 0.0 {
                        return Err(RpcError::invalid_params() //~ tool_input_as_invalid_params
                            .with_message(format!("{value} K is below absolute zero"))
                            .with_data(Some(serde_json::json!({ "value": value }))));
                    }
                    Ok(CallToolResult::text_content(vec![TextContent::from(convert(value, &from, &to).to_string())]).into())
                }
                unknown => Err(RpcError::invalid_params().with_message(format!("Unknown tool: {unknown}"))),
            },
            other => Err(RpcError::method_not_found().with_message(format!("No handler is implemented for '{}'.", other.method()))),
        }
    }

    async fn handle_notification(
        &self,
        _notification: NotificationFromClient,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(&self, _error: &RpcError, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }
}

fn verify_request_state(state: &str) -> bool {
    state.len() == 64 && state.chars().all(|c| c.is_ascii_hexdigit())
}

pub struct Temperature;

#[async_trait]
impl ServerHandler for Temperature {
    // Plain handler: `CallToolError::invalid_arguments(..)` is an isError result.
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, CallToolError> {
        let args = params.arguments.unwrap_or_default();
        let value = args.get("value").and_then(|v| v.as_f64()).unwrap_or_default();
        if !value.is_finite() {
            return Err(CallToolError::invalid_arguments(&params.name, Some(format!("value must be a finite number, got {value}"))));
        }
        Ok(CallToolResult::text_content(vec![TextContent::from(convert(value, "celsius", "kelvin").to_string())]).into())
    }

    // MRTR handler: a tampered `requestState` is a protocol-level rejection (-32602 is right); a value
    // check is not.
    async fn handle_call_tool_request_mrtr(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        if let Some(state) = params.request_state.as_deref() {
            if !verify_request_state(state) {
                return Err(RpcError::invalid_params().with_message("requestState failed verification"));
            }
        }
        let value = params.arguments.as_ref().and_then(|a| a.get("value")).and_then(|v| v.as_f64()).unwrap_or_default();
        if value < -273.15 {
            return Err(RpcError::invalid_params().with_message(format!("{value} °C is below absolute zero"))); //~ tool_input_as_invalid_params
        }
        Ok(CallToolResult::text_content(vec![TextContent::from(convert(value, "celsius", "kelvin").to_string())]).into())
    }
}
