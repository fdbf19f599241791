//@ rmcp = "1.8"
// Words that also name server faults ("lock", "cancel", "channel") do not make a business rule a
// server fault: a document locked by another user, an order the customer cancelled, or a Slack
// channel the model named are the tool's own failures. A legacy code in a tool is reported twice,
// once per lint, each at its own span.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content, ErrorCode},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct DocArgs {
    pub doc_id: String,
    pub text: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct OrderArgs {
    pub order_id: u64,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PostArgs {
    pub channel: String,
    pub message: String,
}

#[derive(Clone)]
pub struct Office {
    docs: std::sync::Arc<crate::docs::DocStore>,
    orders: std::sync::Arc<crate::orders::Orders>,
    slack: std::sync::Arc<crate::slack::Client>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Office {
    #[tool(description = "Replace a document's text")]
    async fn edit_doc(&self, Parameters(DocArgs { doc_id, text }): Parameters<DocArgs>) -> Result<CallToolResult, McpError> {
        if let Some(holder) = self.docs.lock_holder(&doc_id).await {
            //~v tool_failure_as_protocol_error
            return Err(McpError::new(
                ErrorCode(-32001), //~ legacy_error_code
                format!("document {doc_id} is locked by {holder}; try again after they close it"),
                None,
            ));
        }
        self.docs.replace(&doc_id, &text).await;
        Ok(CallToolResult::success(vec![Content::text(format!("updated {doc_id}"))]))
    }

    #[tool(description = "Ship an order")]
    async fn ship(&self, Parameters(OrderArgs { order_id }): Parameters<OrderArgs>) -> Result<CallToolResult, McpError> {
        if self.orders.is_cancelled(order_id).await {
            return Err(McpError::internal_error(format!("order {order_id} was cancelled by the customer"), None)); //~ tool_failure_as_protocol_error
        }
        Ok(CallToolResult::success(vec![Content::text(format!("order {order_id} shipped"))]))
    }

    #[tool(description = "Post a message to a Slack channel")]
    async fn post(&self, Parameters(PostArgs { channel, message }): Parameters<PostArgs>) -> Result<CallToolResult, McpError> {
        self.slack
            .post(&channel, &message)
            .await
            .map_err(|e| McpError::internal_error(format!("channel {channel} rejected the message: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(format!("posted to {channel}"))]))
    }
}

#[tool_handler]
impl ServerHandler for Office {}
