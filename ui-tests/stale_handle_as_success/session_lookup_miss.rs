//@ rmcp = "1.8"
// A lookup on a handle the model passed back misses, and the tool answers with a *success*
// result: the model reads "not found" as a result, not as a reason to open a new session. The
// span is the success result built in the miss branch (let-else, `None =>` arm, `if let .. else`).
use std::collections::HashMap;
use std::sync::Arc;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Mutex;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SessionArgs {
    pub session_id: String,
    pub sql: Option<String>,
}

pub struct DbSession {
    pub conn: sqlx::PgConnection,
    pub statements: usize,
}

#[derive(Clone)]
pub struct Sessions {
    sessions: Arc<Mutex<HashMap<String, DbSession>>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Sessions {
    #[tool(description = "Run a statement in an open session")]
    async fn execute(&self, Parameters(args): Parameters<SessionArgs>) -> Result<CallToolResult, McpError> {
        let mut sessions = self.sessions.lock().await;
        let Some(session) = sessions.get_mut(&args.session_id) else {
            return Ok(CallToolResult::success(vec![Content::text(format!("session {} not found", args.session_id))])); //~ stale_handle_as_success
        };
        session.statements += 1;
        Ok(CallToolResult::success(vec![Content::text(format!("ran {:?}", args.sql))]))
    }

    #[tool(description = "Close a session")]
    async fn close(&self, Parameters(args): Parameters<SessionArgs>) -> Result<CallToolResult, McpError> {
        match self.sessions.lock().await.remove(&args.session_id) {
            Some(session) => Ok(CallToolResult::success(vec![Content::text(format!(
                "closed after {} statements",
                session.statements
            ))])),
            None => Ok(CallToolResult::success(vec![Content::text( //~ stale_handle_as_success
                json!({ "success": false, "error": "no such session" }).to_string(),
            )])),
        }
    }

    #[tool(description = "How many statements a session ran")]
    async fn stats(&self, Parameters(args): Parameters<SessionArgs>) -> Result<CallToolResult, McpError> {
        if let Some(session) = self.sessions.lock().await.get(&args.session_id) {
            Ok(CallToolResult::success(vec![Content::text(session.statements.to_string())]))
        } else {
            Ok(CallToolResult::success(vec![Content::text("0")])) //~ stale_handle_as_success
        }
    }
}

#[tool_handler]
impl ServerHandler for Sessions {}
