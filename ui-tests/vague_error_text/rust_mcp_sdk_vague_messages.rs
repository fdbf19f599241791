//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
//@ dep: reqwest = "0.12"
// rust-mcp-sdk 2.x: `CallToolError::from_message(..)` text is what the model reads in the isError
// result, and an `RpcError`'s message is error text too. `RpcError::internal_error()` without
// `.with_message(..)` sends the SDK's default message "Internal error", which says nothing: it
// counts as vague (the span is the constructor call, since there is no literal). Messages with
// interpolated detail, and `CallToolError::new(e)` (the error's own text, opaque), are not vague.
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

pub struct Translator {
    client: reqwest::Client,
}

impl Translator {
    async fn translate(&self, text: &str, target: &str) -> Result<String, reqwest::Error> {
        let response = self
            .client
            .post("https://translate.example.com/v2")
            .json(&serde_json::json!({ "q": text, "target": target }))
            .send()
            .await?;
        response.error_for_status()?.text().await
    }
}

#[async_trait]
impl ServerHandler for Translator {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, CallToolError> {
        let args = params.arguments.clone().unwrap_or_default();
        let text = args.get("text").and_then(|v| v.as_str()).unwrap_or_default();
        let target = args.get("target").and_then(|v| v.as_str()).unwrap_or("en");
        match params.name.as_str() {
            "translate" => {
                if text.is_empty() {
                    return Err(CallToolError::from_message("failed")); //~ vague_error_text
                }
                let translated = self.translate(text, target).await.map_err(|_| CallToolError::from_message("Something went wrong".to_string()))?; //~ vague_error_text
                Ok(CallToolResult::text_content(vec![TextContent::from(translated)]).into())
            }
            "detect_language" => {
                // Detail, or the error's own text: not vague.
                if text.len() < 3 {
                    return Err(CallToolError::from_message(format!("text must be at least 3 characters, got {}", text.len())));
                }
                let guess = self.translate(text, "detect").await.map_err(CallToolError::new)?;
                let guess = guess.trim().to_string();
                if guess.is_empty() {
                    return Err(CallToolError::from_message(format!("Error: no language detected for {text:?}")));
                }
                Ok(CallToolResult::text_content(vec![TextContent::from(guess)]).into())
            }
            other => Err(CallToolError::unknown_tool(other.to_string())), //~ unknown_tool_as_tool_error
        }
    }
}

/// The same tool behind `ServerHandlerCore`: protocol errors, so the channel lint fires too.
pub struct TranslatorCore {
    inner: Translator,
}

#[async_trait]
impl ServerHandlerCore for TranslatorCore {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => {
                let args = params.arguments.unwrap_or_default();
                let text = args.get("text").and_then(|v| v.as_str()).unwrap_or_default();
                if text.is_empty() {
                    return Err(RpcError::internal_error().with_message("internal error")); //~ tool_failure_as_protocol_error
                    //~^ vague_error_text
                }
                let translated = self.inner.translate(text, "en").await.map_err(|_| RpcError::internal_error())?; //~ tool_failure_as_protocol_error
                //~^ vague_error_text
                Ok(CallToolResult::text_content(vec![TextContent::from(translated)]).into())
            }
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
