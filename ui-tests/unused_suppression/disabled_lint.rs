//@ rmcp = "1.8"
// A suppression counts as used only when the lint it names is enabled and fires. `panic_in_tool`
// is off by default, so suppressing it is reported as unused (allow unused_suppression too for
// runs that turn lints off).
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RegexArgs {
    pub text: String,
}

#[derive(Clone)]
pub struct Extract {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Extract {
    #[tool(description = "Find the email addresses in a text")]
    async fn emails(&self, Parameters(RegexArgs { text }): Parameters<RegexArgs>) -> Result<CallToolResult, McpError> {
        //~v unused_suppression
        // mcp-lint: allow(panic_in_tool) the pattern is a literal and always compiles
        let re = regex::Regex::new(r"[\w.+-]+@[\w-]+\.[\w.]+").unwrap();
        let found: Vec<&str> = re.find_iter(&text).map(|m| m.as_str()).collect();
        Ok(CallToolResult::success(vec![Content::text(found.join("\n"))]))
    }
}

#[tool_handler]
impl ServerHandler for Extract {}
