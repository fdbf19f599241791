//@ rmcp = "1.8"
// Every form with a reason, each suppressing a real finding: nothing to report.
// mcp-lint: allow-file(vague_error_text) messages come from the upstream API's own catalogue
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PayArgs {
    pub invoice: String,
}

#[derive(Clone)]
pub struct Payments {
    api: stripe::Client,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Payments {
    #[cfg_attr(mcp_lint, allow(mcp_lint::empty_error_content, reason = "the dashboard renders the code, not text"))]
    #[tool(description = "Pay an invoice")]
    async fn pay(&self, Parameters(PayArgs { invoice }): Parameters<PayArgs>) -> Result<CallToolResult, McpError> {
        let Ok(id) = invoice.parse::<stripe::InvoiceId>() else {
            return Ok(CallToolResult::error(vec![]));
        };
        match stripe::Invoice::pay(&self.api, &id, Default::default()).await {
            Ok(_) => Ok(CallToolResult::success(vec![Content::text(format!("paid {invoice}"))])),
            Err(_) => Ok(CallToolResult::error(vec![Content::text("Something went wrong.")])),
        }
    }

    #[tool(description = "Refund an invoice")]
    async fn refund(&self, Parameters(PayArgs { invoice }): Parameters<PayArgs>) -> Result<CallToolResult, McpError> {
        // mcp-lint: allow(MCP001) refunds must never be retried by the model
        Err(McpError::internal_error(format!("refunds of {invoice} are handled by support"), None))
    }
}

#[tool_handler]
impl ServerHandler for Payments {}
