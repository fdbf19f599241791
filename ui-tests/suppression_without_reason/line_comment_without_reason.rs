//@ rmcp = "1.8"
// A `// mcp-lint: allow(..)` with nothing after the parenthesis is reported on the comment's line.
// It still suppresses the finding it names (only the missing reason is reported).
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct TranslateArgs {
    pub text: String,
    pub target: String,
}

#[derive(Clone)]
pub struct Translator {
    client: reqwest::Client,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Translator {
    #[tool(description = "Translate a text")]
    async fn translate(&self, Parameters(args): Parameters<TranslateArgs>) -> Result<CallToolResult, McpError> {
        let response = self
            .client
            .post("https://translate.example/v2")
            .json(&serde_json::json!({ "q": args.text, "target": args.target }))
            .send()
            .await
            //~v suppression_without_reason
            // mcp-lint: allow(tool_failure_as_protocol_error)
            .map_err(|e| McpError::internal_error(format!("translation service: {e}"), None))?;
        if !response.status().is_success() {
            return Ok(CallToolResult::error(vec![Content::text("Something went wrong")])); // mcp-lint: allow(MCP003)
            //~^ suppression_without_reason
        }
        let text = response.text().await.map_err(|e| McpError::internal_error(e.to_string(), None))?; // mcp-lint: allow(tool_failure_as_protocol_error) body errors are transport faults
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

#[tool_handler]
impl ServerHandler for Translator {}
