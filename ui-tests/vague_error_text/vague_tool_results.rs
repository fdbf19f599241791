//@ rmcp = "1.8"
// Error results whose text says neither what failed nor what valid input looks like. The span
// is the string literal (also inside a `format!` with no placeholders), and matching ignores
// case and trailing punctuation.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ConvertArgs {
    pub amount: f64,
    pub from: String,
    pub to: String,
}

#[derive(Clone)]
pub struct Currency {
    client: reqwest::Client,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Currency {
    #[tool(description = "Convert an amount between currencies")]
    async fn convert(&self, Parameters(args): Parameters<ConvertArgs>) -> Result<CallToolResult, McpError> {
        let url = format!("https://rates.example/{}/{}", args.from, args.to);
        let Ok(response) = self.client.get(&url).send().await else {
            return Ok(CallToolResult::error(vec![Content::text("Something went wrong")])); //~ vague_error_text
        };
        let Ok(rate) = response.json::<f64>().await else {
            return Ok(CallToolResult::error(vec![Content::text(
                "An error occurred.", //~ vague_error_text
            )]));
        };
        if !rate.is_finite() {
            return Ok(CallToolResult::error(vec![Content::text(format!("Operation failed!"))])); //~ vague_error_text
        }
        Ok(CallToolResult::success(vec![Content::text(format!("{:.2} {}", args.amount * rate, args.to))]))
    }

    #[tool(description = "List supported currencies")]
    async fn currencies(&self) -> Result<String, String> {
        let response = self.client.get("https://rates.example/list").send().await.map_err(|_| "failed".to_string())?; //~ vague_error_text
        if !response.status().is_success() {
            return Err("ERROR".into()); //~ vague_error_text
        }
        response.text().await.map_err(|_| String::from("Unknown error")) //~ vague_error_text
    }
}

#[tool_handler]
impl ServerHandler for Currency {}
