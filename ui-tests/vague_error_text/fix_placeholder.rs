//@ rmcp = "1.8"
// The suggestion replaces vague text with a placeholder that says what belongs there
// (HasPlaceholders: shown, never applied, so there is no `.fixed`).
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct City {
    pub city: String,
}

pub struct Weather;

#[tool_router]
impl Weather {
    #[tool(description = "Current weather for a city")]
    async fn weather(&self, Parameters(City { city }): Parameters<City>) -> Result<CallToolResult, McpError> {
        if city.trim().is_empty() {
            return Ok(CallToolResult::error(vec![Content::text("Invalid input")])); //~ vague_error_text
        }
        Ok(CallToolResult::error(vec![Content::text("Something went wrong. Please try again.")])) //~ vague_error_text
    }
}
