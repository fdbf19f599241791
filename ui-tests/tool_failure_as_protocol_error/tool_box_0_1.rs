//@ rmcp = "0.1"
// rmcp 0.1.x: `#[tool(tool_box)]` on both impls, `#[tool(param)]` / `#[tool(aggr)]` arguments,
// and the error type exported as `rmcp::Error` (aliased to `McpError`, or written out in full).
use std::collections::HashMap;
use std::sync::Arc;

use rmcp::{
    model::{CallToolResult, Content, ServerCapabilities, ServerInfo},
    schemars, tool, Error as McpError, ServerHandler,
};
use serde::Deserialize;
use tokio::sync::RwLock;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RenameRequest {
    #[schemars(description = "the note to rename")]
    pub id: u64,
    #[schemars(description = "the new title")]
    pub title: String,
}

#[derive(Clone, Default)]
pub struct Notes {
    notes: Arc<RwLock<HashMap<u64, String>>>,
}

#[tool(tool_box)]
impl Notes {
    #[tool(description = "Show one note")]
    async fn show(
        &self,
        #[tool(param)]
        #[schemars(description = "note id")]
        id: u64,
    ) -> Result<CallToolResult, McpError> {
        let notes = self.notes.read().await;
        // A lookup miss on an id the model gave: the model could pick another id.
        let note = notes
            .get(&id)
            .ok_or_else(|| McpError::internal_error(format!("no note with id {id}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(note.clone())]))
    }

    #[tool(description = "Rename a note")]
    async fn rename(&self, #[tool(aggr)] RenameRequest { id, title }: RenameRequest) -> Result<CallToolResult, rmcp::Error> {
        if title.trim().is_empty() {
            return Err(rmcp::Error::internal_error("a note title cannot be blank", None)); //~ tool_failure_as_protocol_error
        }
        let mut notes = self.notes.write().await;
        match notes.get_mut(&id) {
            Some(note) => {
                *note = title;
                Ok(CallToolResult::success(vec![Content::text("renamed")]))
            }
            None => Err(McpError::internal_error(format!("note {id} does not exist"), None)), //~ tool_failure_as_protocol_error
        }
    }

    // `String` is IntoContents in 0.1: a plain tool with no failure path.
    #[tool(description = "Count the notes")]
    async fn count(&self) -> String {
        self.notes.read().await.len().to_string()
    }
}

#[tool(tool_box)]
impl ServerHandler for Notes {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            instructions: Some("A small note store".into()),
            capabilities: ServerCapabilities::builder().enable_tools().build(),
            ..Default::default()
        }
    }
}
