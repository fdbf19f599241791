//@ rmcp = "3.11"
// A rustfmt-clean server: every fix keeps it rustfmt-clean (tests/ui.rs runs rustfmt on the
// `.fixed` of every fixture whose `.rs` rustfmt leaves alone).
use std::collections::HashMap;
use std::sync::Mutex;

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock},
    schemars,
    service::RequestContext,
    tool, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NoteArgs {
    pub title: String,
    pub body: Option<String>,
}

pub struct Notes {
    notes: Mutex<HashMap<String, String>>,
}

fn checked_title(title: &str) -> Result<&str, String> {
    if title.is_empty() {
        Err("it is empty".to_string())
    } else {
        Ok(title)
    }
}

#[tool_router]
impl Notes {
    #[tool(description = "Add a note")]
    async fn add(
        &self,
        Parameters(NoteArgs { title, body }): Parameters<NoteArgs>,
    ) -> Result<CallToolResult, McpError> {
        //~vv tool_input_as_invalid_params
        let title = checked_title(&title).map_err(|e| {
            McpError::invalid_params(format!("title {title:?} cannot be used: {e}"), None)
        })?;
        let body = body.unwrap_or_default();
        if body.trim().is_empty() {
            //~v tool_input_as_invalid_params
            return Err(McpError::invalid_params("a note needs a body", None));
        }
        // A poisoned lock is the server's own fault: no finding.
        let mut notes = self
            .notes
            .lock()
            .map_err(|_| McpError::internal_error("note store lock poisoned", None))?;
        if notes.contains_key(title) {
            //~v tool_failure_as_protocol_error
            return Err(McpError::internal_error(
                format!("a note titled {title} already exists; pick another title"),
                None,
            ));
        }
        notes.insert(title.to_string(), body);
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "added {title}"
        ))]))
    }

    #[tool(description = "Size of a note file")]
    async fn size(
        &self,
        Parameters(NoteArgs { title, .. }): Parameters<NoteArgs>,
    ) -> Result<CallToolResult, McpError> {
        //~vvvv tool_failure_as_protocol_error
        let len = std::fs::read_to_string(&title)
            .map_err(|e| {
                tracing::warn!("reading {title} failed: {e}");
                McpError::internal_error(format!("cannot read {title}: {e}"), None)
            })?
            .lines()
            .count();
        Ok(CallToolResult::success(vec![ContentBlock::text(
            len.to_string(),
        )]))
    }
}

/// A hand-written dispatcher (rmcp 3.x: results through `.into()`).
pub struct Clock;

impl ServerHandler for Clock {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        match request.name.as_ref() {
            "now" => {
                //~vvv tool_failure_as_protocol_error
                let size = std::fs::metadata("clock.log")
                    .map(|m| m.len())
                    .map_err(|e| McpError::internal_error(format!("clock log: {e}"), None))?
                    .to_string();
                Ok(CallToolResult::success(vec![ContentBlock::text(size)]).into())
            }
            //~v unknown_tool_as_tool_error
            other => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "there is no tool {other} here"
            ))])
            .into()),
        }
    }
}
