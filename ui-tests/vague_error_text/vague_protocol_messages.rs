//@ rmcp = "0.8"
// Protocol error messages are error text too. In a tool these also fire the channel lints
// (tool_failure_as_protocol_error, tool_input_as_invalid_params), each at its own span.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content, ErrorCode},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ResizeArgs {
    pub url: String,
    pub width: u32,
}

#[derive(Clone)]
pub struct Images {
    client: reqwest::Client,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Images {
    #[tool(description = "Resize an image")]
    async fn resize(&self, Parameters(ResizeArgs { url, width }): Parameters<ResizeArgs>) -> Result<CallToolResult, McpError> {
        if width == 0 || width > 8192 {
            //~v tool_input_as_invalid_params
            return Err(McpError::invalid_params("Invalid input", None)); //~ vague_error_text
        }
        //~v tool_failure_as_protocol_error
        let response = self.client.get(&url).send().await.map_err(|_| McpError::internal_error("Internal error", None))?; //~ vague_error_text
        let bytes = response.bytes().await.map_err(|e| McpError::new(ErrorCode::INTERNAL_ERROR, e.to_string(), None))?; //~ tool_failure_as_protocol_error
        let image = image::load_from_memory(&bytes).map_err(|_| {
            McpError::internal_error( //~ tool_failure_as_protocol_error
                "failure", //~ vague_error_text
                None,
            )
        })?;
        let resized = image.resize(width, width, image::imageops::FilterType::Lanczos3);
        Ok(CallToolResult::success(vec![Content::text(format!("{}x{}", resized.width(), resized.height()))]))
    }
}

#[tool_handler]
impl ServerHandler for Images {}
