//@ rmcp = "3.11"
//@ dep: tokio = { version = "1", features = ["sync"] }
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A lookup in a map the server keeps behind a lock, in one chain (`self.notes.lock().await
// .get(&p.id).cloned()`): the `None` is the miss of the key the model gave, a tool failure,
// not a fault of the lock the map was read under. A lookup by a key the source fixes
// (`.get("api_base")`) reads the server's own settings: its miss is the server's fault.
use std::collections::HashMap;

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};
use tokio::sync::{Mutex, RwLock};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub id: String,
}

pub struct S {
    notes: Mutex<HashMap<String, String>>,
    tags: RwLock<HashMap<String, Vec<String>>>,
    settings: Mutex<HashMap<&'static str, String>>,
}

#[tool_router]
impl S {
    #[tool(description = "Read the note with the id the model gives")]
    async fn read_note(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let note = self
            .notes
            .lock()
            .await
            .get(&p.id)
            .cloned()
            .ok_or_else(|| McpError::internal_error(format!("no note {}", p.id), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(note)]))
    }

    #[tool(description = "List the tags of the note with the id the model gives")]
    async fn tags(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let tags = self
            .tags
            .read()
            .await
            .get(&p.id)
            .cloned()
            .ok_or_else(|| McpError::resource_not_found(format!("no note {}", p.id), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(tags.join(", "))]))
    }

    #[tool(description = "Where the notes are synced to")]
    async fn sync_target(&self) -> Result<CallToolResult, McpError> {
        let base = self
            .settings
            .lock()
            .await
            .get("api_base")
            .cloned()
            .ok_or_else(|| McpError::internal_error("api_base is not configured", None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(base)]))
    }
}
