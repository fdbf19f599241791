//! An rmcp 3.11 server whose tools report failures through the wrong channel, in the forms
//! `mcp-lint check --fix --unsafe-fixes` rewrites, errors built in helpers only tools use (a fn
//! and a `From` impl) among them. Every finding here carries a fix that applies; after fixing,
//! the crate must still compile and mcp-lint must find nothing.

use std::collections::HashMap;
use std::sync::Mutex;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolRequestMethod, CallToolRequestParams, CallToolResponse, CallToolResult},
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NoteArgs {
    /// The note's title.
    pub title: String,
    /// The note's text, for `add`.
    pub body: Option<String>,
}

pub struct Notes {
    notes: Mutex<HashMap<String, String>>,
    tool_router: ToolRouter<Self>,
}

impl Default for Notes {
    fn default() -> Self {
        Self {
            notes: Mutex::new(HashMap::new()),
            tool_router: Self::tool_router(),
        }
    }
}

/// A title the model can use, or why not.
fn checked_title(title: &str) -> Result<&str, String> {
    match title.chars().count() {
        0 => Err("it is empty".to_string()),
        n if n > 80 => Err(format!("it has {n} characters; at most 80")),
        _ => Ok(title),
    }
}

/// A title no note has.
#[derive(Debug)]
pub struct NoSuchNote(String);

impl From<NoSuchNote> for McpError {
    fn from(e: NoSuchNote) -> Self {
        McpError::internal_error(format!("no note titled {}", e.0), None)
    }
}

fn note_text(notes: &Mutex<HashMap<String, String>>, title: &str) -> Result<String, NoSuchNote> {
    let notes = notes
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    notes
        .get(title)
        .cloned()
        .ok_or_else(|| NoSuchNote(title.to_string()))
}

/// Why a note could not be written out.
fn export_failed(path: &str, e: std::io::Error) -> McpError {
    McpError::internal_error(format!("cannot write {path}: {e}"), None)
}

#[tool_router]
impl Notes {
    #[tool(description = "Export a note to a file")]
    async fn export(
        &self,
        Parameters(NoteArgs { title, body }): Parameters<NoteArgs>,
    ) -> Result<CallToolResult, McpError> {
        let path = body.unwrap_or_else(|| format!("{title}.txt"));
        let text = note_text(&self.notes, &title)?;
        std::fs::write(&path, text).map_err(|e| export_failed(&path, e))?;
        Ok(CallToolResult::success(vec![
            rmcp::model::ContentBlock::text(format!("exported {title} to {path}")),
        ]))
    }

    #[tool(description = "Add a note")]
    async fn add(
        &self,
        Parameters(NoteArgs { title, body }): Parameters<NoteArgs>,
    ) -> Result<CallToolResult, McpError> {
        let title = checked_title(&title).map_err(|e| {
            McpError::invalid_params(format!("title {title:?} cannot be used: {e}"), None)
        })?;
        let body = body.unwrap_or_default();
        if body.trim().is_empty() {
            return Err(McpError::invalid_params(
                "a note needs a body with some text",
                None,
            ));
        }
        let mut notes = self
            .notes
            .lock()
            .map_err(|_| McpError::internal_error("note store lock poisoned", None))?;
        if notes.contains_key(title) {
            return Err(McpError::internal_error(
                format!("a note titled {title} already exists; pick another title"),
                None,
            ));
        }
        notes.insert(title.to_string(), body);
        Ok(CallToolResult::success(vec![
            rmcp::model::ContentBlock::text(format!("added {title}")),
        ]))
    }

    #[tool(description = "Read a note")]
    async fn read(
        &self,
        Parameters(NoteArgs { title, .. }): Parameters<NoteArgs>,
    ) -> Result<CallToolResult, McpError> {
        let notes = self
            .notes
            .lock()
            .map_err(|_| McpError::internal_error("note store lock poisoned", None))?;
        let body = notes
            .get(&title)
            .ok_or_else(|| McpError::internal_error(format!("no note titled {title}"), None))?;
        Ok(CallToolResult::success(vec![
            rmcp::model::ContentBlock::text(body.clone()),
        ]))
    }

    #[tool(description = "Import a note from a JSON file")]
    async fn import(
        &self,
        Parameters(NoteArgs { title, .. }): Parameters<NoteArgs>,
    ) -> Result<CallToolResult, McpError> {
        if title.ends_with(".tmp") {
            return Err(McpError {
                code: rmcp::model::ErrorCode::INTERNAL_ERROR,
                message: format!("{title} is a temporary file; import the saved note instead")
                    .into(),
                data: None,
            });
        }
        let text = std::fs::read_to_string(&title).map_err(|e| {
            McpError::internal_error(
                format!("cannot read {title}: {e}"),
                Some(serde_json::json!({ "path": title })),
            )
        })?;
        match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(v) => Ok(CallToolResult::success(vec![
                rmcp::model::ContentBlock::text(v.to_string()),
            ])),
            Err(e) => Ok(CallToolResult::success(vec![
                rmcp::model::ContentBlock::text(format!("{title} is not JSON: {e}")),
            ])),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Notes {}

/// A hand-written dispatcher (rmcp 3.x: `CallToolResponse`, results through `.into()`).
pub struct Clock;

impl ServerHandler for Clock {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        match request.name.as_ref() {
            "now" => {
                let size = std::fs::metadata("clock.log")
                    .map_err(|e| {
                        McpError::internal_error(format!("the clock log cannot be read: {e}"), None)
                    })?
                    .len();
                Ok(
                    CallToolResult::success(vec![rmcp::model::ContentBlock::text(
                        size.to_string(),
                    )])
                    .into(),
                )
            }
            other => Ok(
                CallToolResult::error(vec![rmcp::model::ContentBlock::text(format!(
                    "there is no tool {other} here"
                ))])
                .into(),
            ),
        }
    }
}

/// A dispatcher that answers unknown tools with -32601.
pub struct Ping;

impl ServerHandler for Ping {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        match request.name.as_ref() {
            "ping" => {
                Ok(CallToolResult::success(vec![rmcp::model::ContentBlock::text("pong")]).into())
            }
            _ => Err(McpError::method_not_found::<CallToolRequestMethod>()),
        }
    }
}
