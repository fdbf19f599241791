//@ rmcp = "3.11"
// A builder the server fills with its own values only (literals, constants, closures setting
// literals on what they are handed: `ElicitationSchema::builder().required_bool_with("confirm",
// |f| f.title("Confirm")).build()`) fails only on the server's own mistake: -32603 is right and
// nothing is reported. The same builder given a value from the tool's arguments fails on that
// value: the tool's failure, reported.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AskArgs {
    pub question: String,
}

const CONFIRM: &str = "confirm";

fn confirm_schema() -> Result<ElicitationSchema, McpError> {
    ElicitationSchema::builder()
        .required_bool_with(CONFIRM, |field| {
            field
                .title("Confirm")
                .description("Apply this action. Answering no leaves everything unchanged.")
        })
        .description("Confirmation for one destructive mutation.")
        .build()
        .map_err(|error| McpError::internal_error(error, None))
}

pub struct Irc;

#[tool_router]
impl Irc {
    #[tool(description = "Kick a user, after confirmation")]
    async fn kick(&self) -> Result<CallToolResult, McpError> {
        let _schema = confirm_schema()?;
        Ok(CallToolResult::success(vec![ContentBlock::text("kicked")]))
    }

    #[tool(description = "Ask the user a question")]
    async fn ask(&self, Parameters(args): Parameters<AskArgs>) -> Result<CallToolResult, McpError> {
        let _schema = ElicitationSchema::builder()
            .required_string(CONFIRM)
            .description(args.question)
            .build()
            .map_err(|error| McpError::internal_error(error, None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text("asked")]))
    }
}
