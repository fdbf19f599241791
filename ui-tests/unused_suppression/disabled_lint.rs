//@ rmcp = "1.8"
// Unused suppressions are judged only for lints that ran: `panic_in_tool` is off by default, so a
// suppression of it is not reported (it becomes useful as soon as someone runs with
// `-W panic_in_tool`). A name that is no lint at all is always reported, with a did-you-mean.
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
        // mcp-lint: allow(panic_in_tool) the pattern is a literal and always compiles
        let re = regex::Regex::new(r"[\w.+-]+@[\w-]+\.[\w.]+").unwrap();
        //~v unused_suppression: did you mean `tool_failure_as_protocol_error`
        // mcp-lint: allow(tool_failure_as_protocol_eror) a typo suppresses nothing
        let found: Vec<&str> = re.find_iter(&text).map(|m| m.as_str()).collect();
        Ok(CallToolResult::success(vec![Content::text(found.join("\n"))]))
    }
}

#[tool_handler]
impl ServerHandler for Extract {}
