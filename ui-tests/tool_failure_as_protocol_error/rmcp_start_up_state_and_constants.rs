//@ rmcp = "3.11"
//@ dep: tokio = "1"
//@ dep: serde = "1"
//@ dep: regex = "1"
//@ dep: url = "2"
// State the server sets once at start-up and values the source fixes are the server's own: the
// `None` of a `OnceCell` / `OnceLock` field or `static`, and parsing or compiling a constant
// (`Regex::new(r"..")`, `Url::parse("https://..")`, `"42".parse()`) or its own configuration
// (`Url::parse(&self.base)`) fail only on the server's own mistake, so -32603 is right and
// nothing is reported. The same parse of the tool's
// argument fails on the model's value: reported.
use std::sync::OnceLock;

use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;
use tokio::sync::OnceCell;

static CONFIG: OnceLock<String> = OnceLock::new();

const API_BASE: &str = "https://example.com/api";

pub struct Client;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    pub pattern: String,
    pub page: String,
}

pub struct Search {
    client: OnceCell<Client>,
    base: String,
}

#[tool_router]
impl Search {
    #[tool(description = "Search the index with a regular expression")]
    async fn search(&self, Parameters(args): Parameters<SearchArgs>) -> Result<CallToolResult, McpError> {
        let _client = self
            .client
            .get()
            .ok_or_else(|| McpError::internal_error("search client not initialised", None))?;
        let _config = CONFIG
            .get()
            .ok_or_else(|| McpError::internal_error("configuration not loaded", None))?;
        let word = regex::Regex::new(r"^[a-z]+$")
            .map_err(|e| McpError::internal_error(format!("word pattern: {e}"), None))?;
        let base = url::Url::parse(API_BASE)
            .map_err(|e| McpError::internal_error(format!("API base: {e}"), None))?;
        let _configured = url::Url::parse(&self.base)
            .map_err(|e| McpError::internal_error(format!("configured base URL: {e}"), None))?;
        let limit: u32 = "50"
            .parse()
            .map_err(|_| McpError::internal_error("the page limit constant", None))?;
        let pattern = regex::Regex::new(&args.pattern)
            .map_err(|e| McpError::internal_error(format!("pattern {}: {e}", args.pattern), None))?; //~ tool_failure_as_protocol_error
        let page: u32 = args
            .page
            .parse()
            .map_err(|_| McpError::internal_error(format!("page {} is not a number", args.page), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "{} {} {base} {limit} {page}",
            word.is_match(&args.pattern),
            pattern.as_str()
        ))]))
    }
}
