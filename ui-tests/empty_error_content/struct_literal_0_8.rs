//@ rmcp = "0.8"
// rmcp 0.6-0.17: four fields and no `Default`, so every field is written out.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct LookupArgs {
    pub word: String,
}

#[derive(Clone)]
pub struct Dictionary {
    words: std::sync::Arc<std::collections::HashMap<String, String>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Dictionary {
    #[tool(description = "Define a word")]
    async fn define(&self, Parameters(LookupArgs { word }): Parameters<LookupArgs>) -> Result<CallToolResult, McpError> {
        match self.words.get(&word.to_lowercase()) {
            Some(definition) => Ok(CallToolResult::success(vec![Content::text(definition.clone())])),
            None => Ok(CallToolResult { //~ empty_error_content
                content: Vec::new(),
                structured_content: None,
                is_error: Some(true),
                meta: None,
            }),
        }
    }
}

#[tool_handler]
impl ServerHandler for Dictionary {}
