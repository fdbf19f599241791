//@ rmcp = "3.11"
// A method called on a value of another crate's type is that crate's method, even when the package
// has exactly one method of that name. `Journal::size` calls `self.file.metadata()` on its
// `std::fs::File` field: that is `File::metadata`, not the `metadata` tool below, whose session
// lookup (a helper the resource handler uses too) is reported at the tool's own call. The
// `journal_size` tool's failure is reported once, at the arm of `From<JournalError>` (only tools
// use it) that makes it -32603; a name matcher would send `size` into the `metadata` tool and
// report the `?` in `journal_size` too, with the session lookup's -32600.
use std::collections::HashMap;
use std::fs::File;

use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Session {
    pub session: String,
}

pub struct Journal {
    file: File,
}

pub enum JournalError {
    Unreadable(String),
}

impl From<JournalError> for McpError {
    fn from(e: JournalError) -> Self {
        match e {
            JournalError::Unreadable(msg) => McpError::internal_error(msg, None), //~ tool_failure_as_protocol_error
        }
    }
}

impl Journal {
    pub async fn size(&self) -> Result<u64, JournalError> {
        match self.file.metadata() {
            Ok(m) => Ok(m.len()),
            Err(e) => Err(JournalError::Unreadable(format!("could not read the journal: {e}"))),
        }
    }
}

pub struct Jobs {
    sessions: HashMap<String, String>,
    journal: Journal,
}

impl Jobs {
    fn session(&self, id: &str) -> Result<&String, McpError> {
        self.sessions
            .get(id)
            .ok_or_else(|| McpError::invalid_request(format!("no session {id}; start_job returns one"), None))
    }

    pub async fn read_resource(&self, id: &str) -> Result<String, McpError> {
        // The resource lists the journal's size when it can read it.
        let size = self.journal.size().await.ok();
        Ok(format!("{} ({size:?} bytes)", self.session(id)?))
    }
}

#[tool_router]
impl Jobs {
    #[tool(description = "A session's job metadata")]
    async fn metadata(&self, Parameters(s): Parameters<Session>) -> Result<CallToolResult, McpError> {
        let job = self.session(&s.session)?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(job.clone())]))
    }

    #[tool(description = "The journal's size in bytes")]
    async fn journal_size(&self) -> Result<CallToolResult, McpError> {
        let n = self.journal.size().await?;
        Ok(CallToolResult::success(vec![Content::text(format!("{n} bytes"))]))
    }
}
