//@ rmcp = "1.8"
// `allow-file(..)` and the `#[cfg_attr(mcp_lint, allow(mcp_lint::..))]` item attribute: used ones
// are silent, an unused one is reported at the comment or the attribute.
//~v unused_suppression
// mcp-lint: allow-file(legacy_error_code) codes are generated from the shared error table
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct MailArgs {
    pub to: String,
    pub body: String,
}

#[derive(Clone)]
pub struct Mailer {
    smtp: lettre::AsyncSmtpTransport<lettre::Tokio1Executor>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Mailer {
    #[cfg_attr(mcp_lint, allow(mcp_lint::tool_failure_as_protocol_error, reason = "SMTP outages page the on-call, not the model"))]
    #[tool(description = "Send an email")]
    async fn send(&self, Parameters(MailArgs { to, body }): Parameters<MailArgs>) -> Result<CallToolResult, McpError> {
        use lettre::AsyncTransport;
        let message = lettre::Message::builder()
            .to(to.parse().map_err(|e| McpError::internal_error(format!("bad address {to}: {e}"), None))?)
            .body(body)
            .map_err(|e| McpError::internal_error(format!("cannot build the message: {e}"), None))?;
        self.smtp.send(message).await.map_err(|e| McpError::internal_error(format!("SMTP: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(format!("sent to {to}"))]))
    }

    //~v unused_suppression
    #[cfg_attr(mcp_lint, allow(mcp_lint::failure_as_success, reason = "a batch reports per-item failures"))]
    #[tool(description = "Count queued emails")]
    async fn queued(&self) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![Content::text("0")]))
    }
}

#[tool_handler]
impl ServerHandler for Mailer {}
