//@ rmcp = "1.8"
//@ dep: tokio = "1"
// `if let Some(token) = guard.as_ref() { .. } else { .. }` on state the server keeps behind a
// lock (`self.authorization.lock().await`, filled by its own middleware) or in a `OnceLock` it
// set at start-up: what is missing is the server's own state, as for
// `guard.as_ref().ok_or_else(..)`, and -32603 / -32600 is right there. A lookup in a locked map
// by the model's id is the tool's failure, still reported.
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;
use tokio::sync::Mutex;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Fetch {
    pub id: String,
}

pub struct Proxy {
    authorization: Arc<Mutex<Option<String>>>,
    endpoint: OnceLock<String>,
    sessions: Arc<Mutex<HashMap<String, String>>>,
}

#[tool_router]
impl Proxy {
    #[tool(description = "Fetch user data with the caller's authorization")]
    async fn fetch_user_data(&self, Parameters(args): Parameters<Fetch>) -> Result<CallToolResult, McpError> {
        let auth = self.authorization.lock().await;
        if let Some(token) = auth.as_ref() {
            Ok(CallToolResult::success(vec![Content::text(format!("{} with {token}", args.id))]))
        } else {
            Err(McpError::invalid_request("No authorization token available", None))
        }
    }

    #[tool(description = "Where requests go")]
    async fn endpoint(&self) -> Result<CallToolResult, McpError> {
        if let Some(url) = self.endpoint.get() {
            Ok(CallToolResult::success(vec![Content::text(url.clone())]))
        } else {
            Err(McpError::internal_error("endpoint not configured", None))
        }
    }

    #[tool(description = "Read a session by id")]
    async fn session(&self, Parameters(args): Parameters<Fetch>) -> Result<CallToolResult, McpError> {
        let sessions = self.sessions.lock().await;
        if let Some(session) = sessions.get(&args.id) {
            Ok(CallToolResult::success(vec![Content::text(session.clone())]))
        } else {
            Err(McpError::internal_error(format!("no session {}", args.id), None)) //~ tool_failure_as_protocol_error
        }
    }
}
