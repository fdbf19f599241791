//@ dep: rust-mcp-sdk = "0.7"
//@ dep: async-trait = "0.1"
//@ dep: reqwest = "0.12"
// rust-mcp-sdk 0.7 (schema 2025-06-18): the same two handler shapes with 0.7's signatures.
// `ServerHandlerCore::handle_request(&self, RequestFromClient, runtime) -> Result<ResultFromServer,
// RpcError>` nests tool calls one level deeper,
// `RequestFromClient::ClientRequest(ClientRequest::CallToolRequest(request))`, and its errors are
// JSON-RPC errors; `?` on a `CallToolError` crosses `From<CallToolError> for RpcError` (-32603).
// `ServerHandler::handle_call_tool_request(&self, CallToolRequest, runtime) -> Result<CallToolResult,
// CallToolError>` turns every `Err` into an isError result, as in 2.x.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::{ServerHandler, ServerHandlerCore},
    schema::{
        schema_utils::{CallToolError, NotificationFromClient, RequestFromClient, ResultFromServer},
        CallToolRequest, CallToolResult, ClientRequest, ListToolsRequest, ListToolsResult, RpcError, TextContent, Tool,
    },
    McpServer,
};

fn weather_tool() -> Tool {
    serde_json::from_value(serde_json::json!({
        "name": "forecast",
        "description": "Weather forecast for a city",
        "inputSchema": { "type": "object", "properties": { "city": { "type": "string" } }, "required": ["city"] }
    }))
    .expect("static tool definition")
}

async fn fetch_forecast(client: &reqwest::Client, city: &str) -> Result<String, CallToolError> {
    let response = client
        .get(format!("https://wttr.in/{city}?format=3"))
        .send()
        .await
        .map_err(CallToolError::new)?;
    if !response.status().is_success() {
        return Err(CallToolError::from_message(format!("no forecast for {city}: HTTP {}", response.status())));
    }
    response.text().await.map_err(CallToolError::new)
}

pub struct WeatherCore {
    client: reqwest::Client,
}

#[async_trait]
impl ServerHandlerCore for WeatherCore {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ResultFromServer, RpcError> {
        let method_name = request.method().to_owned();
        match request {
            RequestFromClient::ClientRequest(client_request) => match client_request {
                ClientRequest::ListToolsRequest(_) => Ok(ListToolsResult { meta: None, next_cursor: None, tools: vec![weather_tool()] }.into()),
                ClientRequest::CallToolRequest(request) => {
                    let city = request
                        .params
                        .arguments
                        .as_ref()
                        .and_then(|a| a.get("city"))
                        .and_then(|v| v.as_str())
                        .unwrap_or("London")
                        .to_string();
                    let forecast = fetch_forecast(&self.client, &city).await?; //~ tool_failure_as_protocol_error
                    Ok(CallToolResult::text_content(vec![TextContent::from(forecast)]).into())
                }
                _ => Err(RpcError::method_not_found().with_message(format!("No handler is implemented for '{method_name}'."))),
            },
            RequestFromClient::CustomRequest(_) => Err(RpcError::method_not_found().with_message(format!("No handler for '{method_name}'."))),
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

/// The README's shape: every `Err(CallToolError)` is an isError result.
pub struct Weather {
    client: reqwest::Client,
}

#[async_trait]
impl ServerHandler for Weather {
    async fn handle_list_tools_request(
        &self,
        _request: ListToolsRequest,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ListToolsResult, RpcError> {
        Ok(ListToolsResult { meta: None, next_cursor: None, tools: vec![weather_tool()] })
    }

    async fn handle_call_tool_request(
        &self,
        request: CallToolRequest,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<CallToolResult, CallToolError> {
        if request.tool_name() == "forecast" {
            let city = request.params.arguments.as_ref().and_then(|a| a.get("city")).and_then(|v| v.as_str()).unwrap_or("London");
            let forecast = fetch_forecast(&self.client, city).await?;
            Ok(CallToolResult::text_content(vec![TextContent::from(forecast)]))
        } else {
            // The README's unknown-tool answer: an isError result (the spec wants -32602).
            Err(CallToolError::unknown_tool(request.tool_name().to_string())) //~ unknown_tool_as_tool_error
        }
    }
}
