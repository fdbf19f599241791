//@ rmcp = "1.8"
//@ vague-phrase: no luck
// `extra-phrases` extends the built-in list; the configured phrase is then matched like the
// built-in ones (case and trailing punctuation ignored), while longer text containing it is not.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    pub query: String,
}

#[derive(Clone)]
pub struct Search {
    index: std::sync::Arc<tantivy::Index>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Search {
    #[tool(description = "Full-text search")]
    async fn search(&self, Parameters(SearchArgs { query }): Parameters<SearchArgs>) -> Result<CallToolResult, McpError> {
        let Ok(reader) = self.index.reader() else {
            return Ok(CallToolResult::error(vec![Content::text("No luck.")])); //~ vague_error_text
        };
        let searcher = reader.searcher();
        if searcher.num_docs() == 0 {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "no luck: the index is empty, so `{query}` cannot match; add documents first"
            ))]));
        }
        Ok(CallToolResult::success(vec![Content::text(format!("{} documents searched", searcher.num_docs()))]))
    }
}

#[tool_handler]
impl ServerHandler for Search {}
