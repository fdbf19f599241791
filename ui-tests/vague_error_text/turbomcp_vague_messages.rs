//@ dep: turbomcp = "3.6"
//@ dep: reqwest = "0.12"
//@ dep: serde_json = "1"
//@ dep: turbomcp-core = "3.6"
// turbomcp 3.x: a `#[tool]` fn's `McpError` message is the text of the isError result, so a vague
// one is reported on its own (the channel is right, no tool_failure_as_protocol_error).
// `mcp_err!(kind, msg)` is `McpError::new(kind, msg)`. In a hand-written `McpHandler::call_tool`
// the same message is a JSON-RPC error's text, and both lints fire. `ToolResult::error(..)` text
// counts too; interpolated detail does not.
use std::future::Future;

use serde_json::Value;
use turbomcp::prelude::*;
use turbomcp_core::{mcp_err, ErrorKind};

#[derive(Clone)]
struct Weather {
    client: reqwest::Client,
}

#[server(name = "weather", version = "1.0.0")]
impl Weather {
    /// Current temperature in a city.
    #[tool(read_only = true)]
    async fn temperature(&self, city: String) -> McpResult<f64> {
        let response = self
            .client
            .get(format!("https://api.example.com/weather?city={city}"))
            .send()
            .await
            .map_err(|_| McpError::internal("Something went wrong"))?; //~ vague_error_text
        if !response.status().is_success() {
            return Err(mcp_err!(ErrorKind::ExternalService, "an error occurred")); //~ vague_error_text
        }
        let body: Value = response.json().await.map_err(|e| McpError::internal(format!("weather service sent invalid JSON: {e}")))?;
        body["temp_c"].as_f64().ok_or_else(|| McpError::internal(format!("no temp_c in the answer for {city}")))
    }

    /// Forecast for a city.
    #[tool(read_only = true)]
    async fn forecast(&self, city: String, days: u8) -> McpResult<ToolResult> {
        if days == 0 || days > 14 {
            return Ok(ToolResult::error("invalid input")); //~ vague_error_text
        }
        Ok(ToolResult::text(format!("{days}-day forecast for {city}: sunny")))
    }
}

#[derive(Clone)]
struct ManualWeather;

impl McpHandler for ManualWeather {
    fn server_info(&self) -> ServerInfo {
        ServerInfo::new("manual-weather", "1.0.0")
    }

    fn list_tools(&self) -> Vec<Tool> {
        vec![Tool::new("temperature", "Current temperature in a city")]
    }

    fn list_resources(&self) -> Vec<Resource> {
        vec![]
    }

    fn list_prompts(&self) -> Vec<Prompt> {
        vec![]
    }

    fn call_tool<'a>(&'a self, name: &'a str, args: Value, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ToolResult>> + 'a {
        let name = name.to_string();
        async move {
            match name.as_str() {
                "temperature" => {
                    if args.get("city").and_then(Value::as_str).is_none() {
                        return Err(McpError::internal("internal error")); //~ tool_failure_as_protocol_error
                        //~^ vague_error_text
                    }
                    Ok(ToolResult::text("21.5"))
                }
                _ => Err(McpError::tool_not_found(&name)),
            }
        }
    }

    fn read_resource<'a>(&'a self, uri: &'a str, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ResourceResult>> + 'a {
        let uri = uri.to_string();
        async move { Err(McpError::resource_not_found(&uri)) }
    }

    fn get_prompt<'a>(&'a self, name: &'a str, _args: Option<Value>, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<PromptResult>> + 'a {
        let name = name.to_string();
        async move { Err(McpError::prompt_not_found(&name)) }
    }
}
