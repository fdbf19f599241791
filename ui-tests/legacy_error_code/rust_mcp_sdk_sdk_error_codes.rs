//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
//@ dep: http = "1"
//@ dep: reqwest = "0.12"
// rust-mcp-sdk 2.x: `SdkErrorCodes` and the `SdkError` constructors carry legacy-range codes
// (CONNECTION_CLOSED -32000, REQUEST_TIMEOUT -32001, RESOURCE_NOT_FOUND -32002, BAD_REQUEST -32015,
// SESSION_NOT_FOUND -32016). `RpcError` has public fields, so they reach the wire through a struct
// literal (`code: SdkErrorCodes::X.into()` or `as i64`); `SdkError` values reach it through the
// SDK's HTTP error responses. rust-mcp-sdk 2.x speaks 2026-07-28 and does not rewrite -32002, so
// its named form is reported here (unlike rmcp's). Not legacy: `RpcErrorCodes` (the spec's -32020,
// -32021, -32022 and the JSON-RPC codes), `SdkErrorCodes::MISSING_REQUIRED_CLIENT_CAPABILITY`
// (-32021), and a client comparing a received code.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::ServerHandlerCore,
    schema::{
        schema_utils::{SdkError, SdkErrorCodes},
        CallToolResult, NotificationFromClient, RequestFromClient, RpcError, RpcErrorCodes, ServerResult, TextContent,
    },
    McpServer, RequestContext,
};
use serde_json::json;

pub struct Geocoder {
    client: reqwest::Client,
}

#[async_trait]
impl ServerHandlerCore for Geocoder {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => {
                let address = params.arguments.as_ref().and_then(|a| a.get("address")).and_then(|v| v.as_str()).unwrap_or_default();
                let response = match self.client.get("https://geocode.example.com/v1").query(&[("q", address)]).send().await {
                    Ok(response) => response,
                    Err(e) if e.is_timeout() => {
                        return Err(RpcError { //~ tool_failure_as_protocol_error
                            code: SdkErrorCodes::REQUEST_TIMEOUT.into(), //~ legacy_error_code
                            message: format!("geocoder timed out for {address:?}"),
                            data: None,
                        })
                    }
                    Err(e) => return Err(RpcError::internal_error().with_message(format!("geocoder unreachable: {e}"))), //~ tool_failure_as_protocol_error
                };
                let body = response.text().await.unwrap_or_default();
                Ok(CallToolResult::text_content(vec![TextContent::from(body)]).into())
            }
            RequestFromClient::ReadResourceRequest(params) => Err(RpcError {
                code: SdkErrorCodes::RESOURCE_NOT_FOUND as i64, //~ legacy_error_code
                message: format!("no cached geocode at {}", params.uri),
                data: Some(json!({ "uri": params.uri })),
            }),
            RequestFromClient::CustomRequest(custom) => match custom.method.as_str() {
                "geocoder/version" => {
                    Err(RpcError::new(RpcErrorCodes::UNSUPPORTED_PROTOCOL_VERSION, "geocoder/version needs 2026-07-28".to_string(), None))
                }
                "geocoder/batch" => Err(RpcError {
                    code: SdkErrorCodes::MISSING_REQUIRED_CLIENT_CAPABILITY.into(),
                    message: "geocoder/batch needs the client's sampling capability".to_string(),
                    data: None,
                }),
                other => Err(RpcError::method_not_found().with_message(format!("No handler is implemented for '{other}'."))),
            },
            other => Err(RpcError::method_not_found().with_message(format!("No handler is implemented for '{}'.", other.method()))),
        }
    }

    async fn handle_notification(&self, _n: NotificationFromClient, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(&self, _error: &RpcError, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }
}

/// An API-key check for a custom HTTP integration, in the SDK's own `SdkError` style: the error is
/// written to the HTTP response body as a JSON-RPC error object.
pub fn check_api_key(headers: &http::HeaderMap, expected: &str) -> Result<(), SdkError> {
    match headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
        None => Err(SdkError::bad_request().with_message("missing x-api-key header")), //~ legacy_error_code
        Some(key) if key != expected => Err(SdkError::new(SdkErrorCodes::SESSION_NOT_FOUND, "unknown api key".to_string(), None)), //~ legacy_error_code
        Some(_) => Ok(()),
    }
}

/// Reading a code is not emitting one.
pub fn is_retryable(error: &RpcError) -> bool {
    error.code == i64::from(SdkErrorCodes::REQUEST_TIMEOUT) || error.code == SdkErrorCodes::CONNECTION_CLOSED as i64
}
