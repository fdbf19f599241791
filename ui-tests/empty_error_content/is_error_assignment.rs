//@ rmcp = "1.8"
// `CallToolResult` is `#[non_exhaustive]` from 1.0, so errors are made by flipping `is_error` on a
// built result. With empty content the finding is on the assignment (the expression that makes
// it an error result); with readable content there is nothing to report.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct LintArgs {
    pub source: String,
}

#[derive(Clone)]
pub struct Linter {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Linter {
    #[tool(description = "Check a shell script")]
    async fn check(&self, Parameters(LintArgs { source }): Parameters<LintArgs>) -> Result<CallToolResult, McpError> {
        let problems: Vec<String> = source
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("rm -rf /"))
            .map(|(i, _)| format!("line {}: refuses to delete /", i + 1))
            .collect();
        let mut result = CallToolResult::success(problems.iter().map(|p| Content::text(p.clone())).collect());
        result.is_error = Some(!problems.is_empty());
        Ok(result)
    }

    #[tool(description = "Format a shell script")]
    async fn format(&self, Parameters(LintArgs { source }): Parameters<LintArgs>) -> Result<CallToolResult, McpError> {
        if source.trim().is_empty() {
            let mut result = CallToolResult::success(vec![]);
            result.is_error = Some(true); //~ empty_error_content
            return Ok(result);
        }
        let mut result = CallToolResult::success(vec![Content::text(source.trim().to_string())]);
        if source.contains('\t') {
            result.is_error = Some(true);
            result.content.push(Content::text("tabs are not allowed; indent with spaces"));
        }
        Ok(result)
    }
}

#[tool_handler]
impl ServerHandler for Linter {}
