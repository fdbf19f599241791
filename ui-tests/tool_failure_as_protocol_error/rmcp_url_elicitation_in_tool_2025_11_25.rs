//@ rmcp = "2.2"
//@ target-protocol: 2025-11-25
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// The same tool targeting 2025-11-25, which defines -32042 for a tool to send: nothing to
// report.
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
            return Err(McpError::url_elicitation_required(
                format!("sign in to share dashboard {}", args.dashboard),
                Some(json!({ "url": "https://grafana.example/login" })),
            ));
        }
        if args.dashboard.starts_with("private/") {
            return Err(McpError::new(
                format!("accept the sharing terms for {}", args.dashboard),
                None,
            ));
        }
        Ok(CallToolResult::success(vec![Content::text(args.dashboard)]))
    }
}
