//@ rmcp = "0.3"
// Before `#[non_exhaustive]` (rmcp < 1.0) results were often written as struct literals.
// 0.1-0.3 have two fields; the span is the whole literal.
use rmcp::{
    handler::server::tool::{Parameters, ToolRouter},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, Error as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct DivArgs {
    pub a: f64,
    pub b: f64,
}

#[derive(Clone)]
pub struct Calc {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Calc {
    #[tool(description = "Divide a by b")]
    async fn div(&self, Parameters(DivArgs { a, b }): Parameters<DivArgs>) -> Result<CallToolResult, McpError> {
        if b == 0.0 {
            return Ok(CallToolResult { //~ empty_error_content
                content: vec![],
                is_error: Some(true),
            });
        }
        Ok(CallToolResult { content: vec![Content::text((a / b).to_string())], is_error: Some(false) })
    }

    #[tool(description = "Square root of a")]
    async fn sqrt(&self, Parameters(DivArgs { a, .. }): Parameters<DivArgs>) -> Result<CallToolResult, McpError> {
        if a < 0.0 {
            // Not empty: a readable message in a struct literal is fine.
            return Ok(CallToolResult {
                content: vec![Content::text(format!("cannot take the square root of {a}: use a value >= 0"))],
                is_error: Some(true),
            });
        }
        Ok(CallToolResult::success(vec![Content::text(a.sqrt().to_string())]))
    }
}

#[tool_handler]
impl ServerHandler for Calc {}
