//@ rmcp = "1.8"
// Error text inside `json!` bodies: the string values of "error", "message", "detail" and
// "reason" keys are what the model reads from a structured error or a JSON content block.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ShipmentArgs {
    pub tracking: String,
}

#[derive(Clone)]
pub struct Shipping {
    carrier: reqwest::Client,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Shipping {
    #[tool(description = "Track a shipment")]
    async fn track(&self, Parameters(ShipmentArgs { tracking }): Parameters<ShipmentArgs>) -> Result<CallToolResult, McpError> {
        if tracking.len() != 18 {
            return Ok(CallToolResult::structured_error(json!({
                "error": "Invalid input", //~ vague_error_text
                "tracking": tracking,
            })));
        }
        let Ok(response) = self.carrier.get(format!("https://carrier.example/t/{tracking}")).send().await else {
            return Ok(CallToolResult::error(vec![Content::json(json!({ "message": "Something went wrong." }))?])); //~ vague_error_text
        };
        if response.status().as_u16() == 404 {
            // Specific text, and text built at run time, are fine.
            return Ok(CallToolResult::structured_error(json!({
                "error": "no shipment with this tracking number; numbers have 18 characters",
                "detail": format!("carrier answered 404 for {tracking}"),
            })));
        }
        // Keys that are not error text are not read.
        Ok(CallToolResult::structured(json!({ "status": "failed", "tracking": tracking })))
    }
}

#[tool_handler]
impl ServerHandler for Shipping {}
