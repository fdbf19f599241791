//@ rmcp = "3.11"
// internal_error (MCP901) means mcp-lint itself failed on a crate; it has no firing fixture on
// purpose (a fixture that triggers it would pin a bug; the panic path is tested through the
// analysis entry point instead). This one keeps unusual but valid syntax around tool code — raw
// identifiers, nested closures and async blocks, labelled breaks, let-chains of patterns, macros
// the linter does not parse, unicode — and expects the analysis to finish with no finding at all.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub r#type: String,
    pub 名前: Option<String>,
}

#[derive(Clone)]
pub struct Odd {
    tool_router: ToolRouter<Self>,
}

macro_rules! text {
    ($($t:tt)*) => { ContentBlock::text(format!($($t)*)) };
}

#[tool_router]
impl Odd {
    #[tool(description = "Echo a type name through some unusual but valid code")]
    async fn r#echo(&self, Parameters(Args { r#type, 名前 }): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let label = 'outer: loop {
            for c in r#type.chars() {
                if c == '}' || c == '"' {
                    break 'outer format!("{type} has a brace or quote", type = r#type);
                }
            }
            break r#type.clone();
        };
        let nested = (|| async move { (|x: usize| x + 1)(label.len()) })().await;
        let who = 名前.as_deref().unwrap_or("ツール");
        if let Some(first) = label.chars().next() && first.is_alphabetic() {
            return Ok(CallToolResult::error(vec![text!("{who}: `{label}` starts with a letter; pass a symbol")]));
        }
        Ok(CallToolResult::success(vec![text!("{who} {label} {nested}")]))
    }
}

#[tool_handler]
impl ServerHandler for Odd {}
