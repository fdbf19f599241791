//@ rmcp = "2.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A tool whose precondition is unmet (the user has not connected an account) answering with
// -32042: 2025-11-25 defines that code for a tool to send, 2026-07-28 retires it ("MUST NOT
// emit"). Under 2026-07-28 it is both a retired code and a tool failure the model never sees,
// whether written by its name (`url_elicitation_required(..)`) or as the constant.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content, ErrorCode},
    tool, tool_router, ErrorData as McpError,
};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ShareArgs {
    pub dashboard: String,
}

pub struct Sharer {
    signed_in: bool,
}

#[tool_router]
impl Sharer {
    #[tool(description = "Share a dashboard")]
    async fn share(&self, Parameters(args): Parameters<ShareArgs>) -> Result<CallToolResult, McpError> {
        if !self.signed_in {
            //~v tool_failure_as_protocol_error
            return Err(McpError::url_elicitation_required(
                //~^ reserved_error_code
                format!("sign in to share dashboard {}", args.dashboard),
                Some(json!({ "url": "https://grafana.example/login" })),
            ));
        }
        if args.dashboard.starts_with("private/") {
            //~v tool_failure_as_protocol_error
            return Err(McpError::new(
                ErrorCode::URL_ELICITATION_REQUIRED, //~ reserved_error_code
                format!("accept the sharing terms for {}", args.dashboard),
                None,
            ));
        }
        Ok(CallToolResult::success(vec![Content::text(args.dashboard)]))
    }
}
