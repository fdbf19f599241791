//@ rmcp = "3.1"
// A message written as a crate `const` of a string literal is that literal: "Invalid input" named
// by `INVALID_INPUT` in a tool's protocol error is as vague as written in place, and is reported
// where the const is named. A const that says what valid input looks like is not vague.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::CallToolResult,
    schemars, tool, tool_router, ErrorData as McpError,
};

const INVALID_INPUT: &str = "Invalid input";
const TZ_HELP: &str = "timezone must be an IANA name such as Europe/Paris";

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Zone {
    pub timezone: String,
}

pub struct Clock;

#[tool_router]
impl Clock {
    #[tool(description = "Current time in a timezone")]
    async fn now(&self, Parameters(z): Parameters<Zone>) -> Result<CallToolResult, McpError> {
        if z.timezone.is_empty() {
            return Err(McpError::internal_error(INVALID_INPUT, None)); //~ vague_error_text
            //~^ tool_failure_as_protocol_error
        }
        if !z.timezone.contains('/') {
            return Err(McpError::internal_error(TZ_HELP.to_string(), None)); //~ tool_failure_as_protocol_error
        }
        Ok(CallToolResult::success(vec![]))
    }
}
