use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    AnnotateAble, CallToolResult, ContentBlock, Implementation, ListResourcesResult,
    PaginatedRequestParams, RawResource, ReadResourceRequestParams, ReadResourceResult,
    ResourceContents, ServerCapabilities, ServerInfo,
};
use rmcp::service::RequestContext;
use rmcp::{
    prompt_handler, schemars, tool, tool_handler, tool_router, ErrorData as McpError, RoleServer,
    ServerHandler,
};
use serde::Deserialize;
use serde_json::json;

use crate::store::{Store, IDLE_EXPIRY};

#[derive(Clone)]
pub struct NotesServer {
    store: Arc<Mutex<Store>>,
    export_dir: PathBuf,
    tool_router: ToolRouter<Self>,
    pub(crate) prompt_router: PromptRouter<Self>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct OpenArgs {
    /// A title for the notebook
    pub title: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NotebookArg {
    /// Handle returned by open_notebook
    pub notebook: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AddNote {
    pub notebook: String,
    pub text: String,
    #[serde(default)]
    pub tags: Vec<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NoteRef {
    pub notebook: String,
    pub note_id: u32,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ExportArgs {
    pub notebook: String,
    /// File name inside the export directory, e.g. "meeting.json"
    pub file: String,
}

fn expired(handle: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "notebook {handle} does not exist or has expired (idle limit {} minutes); \
         call open_notebook to create a new one",
        IDLE_EXPIRY.as_secs() / 60
    ))])
}

impl NotesServer {
    pub(crate) fn store(&self) -> Result<MutexGuard<'_, Store>, McpError> {
        self.store
            .lock()
            .map_err(|_| McpError::internal_error("notebook store lock poisoned", None))
    }
}

#[tool_router]
impl NotesServer {
    pub fn new(export_dir: PathBuf) -> Self {
        Self {
            store: Arc::new(Mutex::new(Store::default())),
            export_dir,
            tool_router: Self::tool_router(),
            prompt_router: Self::prompt_router(),
        }
    }

    #[tool(
        description = "Open a new notebook and get its handle. Handles expire after 30 idle minutes."
    )]
    async fn open_notebook(
        &self,
        Parameters(OpenArgs { title }): Parameters<OpenArgs>,
    ) -> Result<CallToolResult, McpError> {
        let handle = self.store()?.open(title);
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "opened notebook {handle}"
        ))]))
    }

    #[tool(description = "Add a note to a notebook")]
    async fn add_note(
        &self,
        Parameters(AddNote {
            notebook,
            text,
            tags,
        }): Parameters<AddNote>,
    ) -> Result<CallToolResult, McpError> {
        if text.trim().is_empty() {
            return Ok(CallToolResult::error(vec![ContentBlock::text(
                "text must not be empty",
            )]));
        }
        let mut store = self.store()?;
        let Some(nb) = store.get_mut(&notebook) else {
            return Ok(expired(&notebook));
        };
        let id = nb.add(text, tags);
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "added note {id} to {notebook}"
        ))]))
    }

    #[tool(description = "Read one note")]
    async fn read_note(
        &self,
        Parameters(NoteRef { notebook, note_id }): Parameters<NoteRef>,
    ) -> Result<CallToolResult, McpError> {
        let mut store = self.store()?;
        match store.get(&notebook) {
            None => Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "Notebook {notebook} not found."
            ))])),
            Some(nb) => match nb.notes.get(&note_id) {
                Some(note) => Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                    "[{}] {}{}",
                    note.id,
                    note.text,
                    if note.tags.is_empty() {
                        String::new()
                    } else {
                        format!(" #{}", note.tags.join(" #"))
                    }
                ))])),
                None => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "notebook {notebook} has no note {note_id}; it has notes {:?}",
                    nb.notes.keys().collect::<Vec<_>>()
                ))])),
            },
        }
    }

    #[tool(description = "Delete a note")]
    async fn delete_note(
        &self,
        Parameters(NoteRef { notebook, note_id }): Parameters<NoteRef>,
    ) -> Result<CallToolResult, McpError> {
        let mut store = self.store()?;
        let Some(nb) = store.get_mut(&notebook) else {
            return Ok(expired(&notebook));
        };
        match nb.notes.remove(&note_id) {
            Some(_) => Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "deleted note {note_id}"
            ))])),
            None => Ok(CallToolResult::success(vec![ContentBlock::text(
                "nothing to delete",
            )])),
        }
    }

    #[tool(description = "Pin a note so it is listed first")]
    async fn pin_note(
        &self,
        Parameters(NoteRef { notebook, note_id }): Parameters<NoteRef>,
    ) -> Result<String, ()> {
        let mut store = self.store.lock().unwrap();
        let Some(nb) = store.get_mut(&notebook) else {
            return Err(());
        };
        let note = nb.notes.get_mut(&note_id).ok_or(())?;
        note.pinned = true;
        Ok(format!("pinned note {note_id}"))
    }

    #[tool(description = "Close a notebook and discard its notes")]
    async fn close_notebook(
        &self,
        Parameters(NotebookArg { notebook }): Parameters<NotebookArg>,
    ) -> Result<CallToolResult, McpError> {
        let nb = self.store()?.remove(&notebook).ok_or_else(|| {
            McpError::invalid_params(format!("unknown notebook handle {notebook}"), None)
        })?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "closed {notebook} ({} notes discarded)",
            nb.notes.len()
        ))]))
    }

    #[tool(description = "Write a notebook as JSON into the export directory")]
    async fn export_notebook(
        &self,
        Parameters(ExportArgs { notebook, file }): Parameters<ExportArgs>,
    ) -> Result<CallToolResult, McpError> {
        if file.contains('/') || file.contains("..") || !file.ends_with(".json") {
            return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "file must be a plain name ending in .json, got {file:?}"
            ))]));
        }
        let json = {
            let mut store = self.store()?;
            let Some(nb) = store.get(&notebook) else {
                return Ok(expired(&notebook));
            };
            serde_json::to_string_pretty(nb).map_err(|e| {
                McpError::internal_error(format!("could not serialize notebook: {e}"), None)
            })?
        };
        let path = self.export_dir.join(&file);
        tokio::fs::write(&path, json).await.map_err(|e| {
            McpError::internal_error(format!("could not write {}: {e}", path.display()), None)
        })?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "exported {notebook} to {}",
            path.display()
        ))]))
    }
}

#[tool_handler]
#[prompt_handler]
impl ServerHandler for NotesServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::from_build_env())
        .with_instructions("Open a notebook first; every other tool takes its handle.")
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let store = self.store()?;
        let resources = store
            .handles()
            .map(|(handle, nb)| {
                RawResource::new(format!("notes://{handle}"), nb.title.clone()).no_annotation()
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let uri = request.uri;
        let Some(handle) = uri.strip_prefix("notes://") else {
            return Err(McpError::invalid_params(
                format!("expected notes://<handle>, got {uri}"),
                Some(json!({ "uri": uri })),
            ));
        };
        let mut store = self.store()?;
        let Some(nb) = store.get(handle) else {
            return Err(McpError::resource_not_found(
                format!("notebook {handle} does not exist or has expired"),
                Some(json!({ "uri": uri })),
            ));
        };
        let text = serde_json::to_string_pretty(nb).map_err(|e| {
            McpError::internal_error(format!("could not serialize notebook: {e}"), None)
        })?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(
            text, uri,
        )]))
    }
}
