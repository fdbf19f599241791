//@ rmcp = "1.8"
// A value check answered with -32602 becomes the isError result with the same text. The
// schema-level check (a required argument absent) is not reported and stays as it is.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content, JsonObject},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Resize {
    pub width: u32,
    pub height: u32,
}

pub struct Images;

#[tool_router]
impl Images {
    #[tool(description = "Resize the current image")]
    async fn resize(&self, Parameters(Resize { width, height }): Parameters<Resize>) -> Result<CallToolResult, McpError> {
        if width == 0 || height == 0 {
            return Err(McpError::invalid_params(format!("width and height must be at least 1, got {width}x{height}"), None)); //~ tool_input_as_invalid_params
        }
        if width * height > 16_000_000 {
            return Err(McpError::invalid_params("the image may have at most 16 megapixels", None)); //~ tool_input_as_invalid_params
        }
        Ok(CallToolResult::success(vec![Content::text(format!("resized to {width}x{height}"))]))
    }

    #[tool(description = "Apply a filter")]
    async fn filter(&self, Parameters(args): Parameters<JsonObject>) -> Result<CallToolResult, McpError> {
        let Some(name) = args.get("name").and_then(|v| v.as_str()) else {
            return Err(McpError::invalid_params("missing required argument `name`", None));
        };
        Ok(CallToolResult::success(vec![Content::text(format!("applied {name}"))]))
    }
}
