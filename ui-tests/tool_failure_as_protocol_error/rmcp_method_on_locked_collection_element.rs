//@ rmcp = "3.11"
//@ dep: tokio = "1"
//@ dep: serde = "1"
// A method called on an element of a collection the server keeps behind a lock, through the
// crate's alias for it (`type Sessions = HashMap<String, Arc<Session>>` in an
// `Arc<Mutex<Sessions>>` field, the guard kept in a local): the element's type is `Session`, so
// `session.stop()` is `Session::stop`, whose protocol error is reported with the tool it is
// reached from. `Indexer::stop`, the other `stop` of the crate, runs only at start-up: not
// reported (a name matcher would merge the two).
use std::collections::HashMap;
use std::sync::Arc;

use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;
use tokio::sync::Mutex;

pub struct Session {
    pid: u32,
}

impl Session {
    pub fn stop(&self) -> Result<(), McpError> {
        if self.pid == 0 {
            return Err(McpError::internal_error("the session's process did not stop", None)); //~ tool_failure_as_protocol_error
        }
        Ok(())
    }
}

pub struct Indexer;

impl Indexer {
    pub fn stop(&self) -> Result<(), McpError> {
        Err(McpError::internal_error("the indexer is not running", None))
    }
}

type Sessions = HashMap<String, Arc<Session>>;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct StopArgs {
    pub session: String,
}

pub struct Shell {
    sessions: Arc<Mutex<Sessions>>,
}

pub fn shutdown(indexer: &Indexer) {
    let _ = indexer.stop();
}

#[tool_router]
impl Shell {
    #[tool(description = "Stop a shell session")]
    async fn stop(&self, Parameters(args): Parameters<StopArgs>) -> Result<CallToolResult, McpError> {
        let sessions = self.sessions.lock().await;
        let Some(session) = sessions.get(&args.session) else {
            return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "no session {}; list_sessions shows the open ones",
                args.session
            ))]));
        };
        session.stop()?;
        Ok(CallToolResult::success(vec![ContentBlock::text("stopped")]))
    }
}
