//! The notebook tools: trait handlers, `#[mcp_server]` methods and a typed search tool.

use std::sync::Arc;

use async_trait::async_trait;
use pmcp::types::{CallToolResult, Content, ToolInfo};
use pmcp::{mcp_server, mcp_tool, Error, ErrorCode, RequestHandlerExtra, ToolHandler, ToolOutput};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::backup::{self, BackupError};
use crate::store::{Note, Notebook, Store, HANDLE_TTL};

/// `open_notebook`: load a markdown file and hand out a handle for it.
pub struct OpenNotebook {
    store: Arc<Store>,
}

impl OpenNotebook {
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }
}

#[async_trait]
impl ToolHandler for OpenNotebook {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let Some(path) = args.get("path").and_then(Value::as_str) else {
            return Err(Error::tool_rejected(
                "`path` (string) is required: the markdown file to open",
                None,
            ));
        };
        let text = tokio::fs::read_to_string(path).await?;
        let notebook = Notebook::parse(path.into(), &text);
        let count = notebook.notes.len();
        let handle = self.store.insert(notebook);
        Ok(json!({
            "handle": handle,
            "notes": count,
            "expires_after_idle_secs": HANDLE_TTL.as_secs(),
        }))
    }

    fn metadata(&self) -> Option<ToolInfo> {
        Some(ToolInfo::new(
            "open_notebook",
            Some("Open a markdown notebook file and return a handle for the other tools".into()),
            json!({
                "type": "object",
                "properties": { "path": { "type": "string" } },
                "required": ["path"]
            }),
        ))
    }
}

/// `export_notebook`: write a notebook back to disk; owns its `CallToolResult`.
pub struct ExportNotebook {
    store: Arc<Store>,
}

impl ExportNotebook {
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }
}

#[async_trait]
impl ToolHandler for ExportNotebook {
    async fn handle(&self, args: Value, extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let output = self.handle_output(args, extra).await?;
        let ToolOutput::Result(result) = output else {
            unreachable!("export_notebook always builds its own result")
        };
        Ok(serde_json::to_value(result)?)
    }

    async fn handle_output(
        &self,
        args: Value,
        _extra: RequestHandlerExtra,
    ) -> pmcp::Result<ToolOutput> {
        let handle = args["handle"].as_str().unwrap_or_default().to_string();
        let dest = args["path"].as_str().unwrap_or_default().to_string();
        let rendered = {
            let map = self
                .store
                .notebooks
                .lock()
                .map_err(|_| Error::internal("notebook store lock poisoned"))?;
            match map.get(&handle) {
                Some(nb) if nb.notes.is_empty() => {
                    return Ok(ToolOutput::Result(CallToolResult::error(vec![])));
                }
                Some(nb) => nb.render(),
                None => {
                    return Ok(ToolOutput::Result(CallToolResult::rejected(
                        format!("notebook handle {handle} has expired or never existed; call open_notebook again"),
                        None,
                    )))
                }
            }
        };
        if let Err(e) = tokio::fs::write(&dest, rendered.as_bytes()).await {
            return Ok(ToolOutput::Result(CallToolResult::error(vec![Content::text(
                format!("cannot write {dest}: {e}"),
            )])));
        }
        Ok(ToolOutput::Result(CallToolResult::new(vec![Content::text(
            format!("exported {handle} to {dest}"),
        )])))
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct HandleArgs {
    /// Handle returned by open_notebook
    pub handle: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct AddNoteArgs {
    pub handle: String,
    pub title: String,
    pub body: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchArgs {
    pub handle: String,
    /// A regular expression matched against titles and bodies
    pub pattern: String,
}

pub struct NotebookTools {
    store: Arc<Store>,
    backup_url: Option<String>,
}

impl NotebookTools {
    pub fn new(store: Arc<Store>, backup_url: Option<String>) -> Self {
        Self { store, backup_url }
    }
}

#[mcp_server]
impl NotebookTools {
    #[mcp_tool(description = "Append a note to an open notebook")]
    async fn add_note(&self, args: AddNoteArgs) -> pmcp::Result<Value> {
        if args.title.trim().is_empty() {
            return Err(Error::validation("title must not be empty"));
        }
        let mut map = self
            .store
            .notebooks
            .lock()
            .map_err(|_| Error::internal("notebook store lock poisoned"))?;
        let Some(nb) = map.get_mut(&args.handle) else {
            return Err(Error::tool_rejected(
                format!(
                    "notebook handle {} has expired or never existed; call open_notebook again",
                    args.handle
                ),
                None,
            ));
        };
        let id = nb.notes.iter().map(|n| n.id).max().unwrap_or(0) + 1;
        nb.notes.push(Note {
            id,
            title: args.title,
            body: args.body,
            tags: Vec::new(),
        });
        nb.last_used = std::time::Instant::now();
        Ok(json!({ "id": id }))
    }

    #[mcp_tool(description = "List the notes of an open notebook", annotations(read_only = true))]
    async fn list_notes(&self, args: HandleArgs) -> pmcp::Result<Value> {
        let map = self
            .store
            .notebooks
            .lock()
            .map_err(|_| Error::internal("notebook store lock poisoned"))?;
        match map.get(&args.handle) {
            Some(nb) => Ok(json!({
                "notes": nb.notes.iter().map(|n| json!({ "id": n.id, "title": n.title })).collect::<Vec<_>>()
            })),
            None => Ok(json!({
                "notes": [],
                "message": format!("notebook {} not found", args.handle),
            })),
        }
    }

    #[mcp_tool(description = "Close a notebook and forget its handle")]
    async fn close_notebook(&self, args: HandleArgs) -> pmcp::Result<Value> {
        let mut map = self
            .store
            .notebooks
            .lock()
            .map_err(|_| Error::internal("notebook store lock poisoned"))?;
        match map.remove(&args.handle) {
            Some(nb) => Ok(json!({ "closed": args.handle, "path": nb.path })),
            None => Err(Error::invalid_params(format!(
                "unknown notebook handle {}",
                args.handle
            ))),
        }
    }

    #[mcp_tool(description = "Upload an open notebook to the backup service")]
    async fn sync_notebook(&self, args: HandleArgs) -> pmcp::Result<Value> {
        let Some(base) = &self.backup_url else {
            return Err(Error::tool_rejected(
                "backup is not configured on this server (NOTEBOOK_BACKUP_URL is unset)",
                None,
            ));
        };
        let (name, body) = {
            let map = self
                .store
                .notebooks
                .lock()
                .map_err(|_| Error::internal("notebook store lock poisoned"))?;
            let Some(nb) = map.get(&args.handle) else {
                return Err(Error::tool_rejected(
                    format!("notebook handle {} has expired; open it again", args.handle),
                    None,
                ));
            };
            let name = nb
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| args.handle.clone());
            (name, nb.render())
        };
        match backup::upload(base, &name, body).await {
            Ok(etag) => Ok(json!({ "synced": name, "etag": etag })),
            Err(BackupError::RateLimited(secs)) => Err(Error::protocol(
                ErrorCode::RATE_LIMITED,
                format!("backup service rate limited; retry in {secs}s"),
            )),
            Err(e) => Err(Error::tool_rejected(format!("backup failed: {e}"), None)),
        }
    }
}

/// Search the notes of an open notebook (registered with `tool_typed`).
pub fn search(store: &Store, args: SearchArgs) -> pmcp::Result<Value> {
    let re = regex::Regex::new(&args.pattern).map_err(|e| {
        Error::validation(format!("`{}` is not a valid regex: {e}", args.pattern))
    })?;
    let map = store
        .notebooks
        .lock()
        .map_err(|_| Error::internal("notebook store lock poisoned"))?;
    let Some(nb) = map.get(&args.handle) else {
        return Err(Error::tool_rejected(
            format!("notebook handle {} has expired; open the notebook again", args.handle),
            None,
        ));
    };
    let hits: Vec<Value> = nb
        .notes
        .iter()
        .filter(|n| re.is_match(&n.title) || re.is_match(&n.body))
        .map(|n| json!({ "id": n.id, "title": n.title }))
        .collect();
    Ok(json!({ "matches": hits }))
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct StatsArgs {
    /// A markdown file on disk
    pub path: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Stats {
    pub words: usize,
    pub lines: usize,
    pub error: Option<String>,
}

#[mcp_tool(description = "Count words and lines of a markdown file", annotations(read_only = true))]
async fn word_stats(args: StatsArgs) -> pmcp::Result<Stats> {
    let text = match tokio::fs::read_to_string(&args.path).await {
        Ok(text) => text,
        Err(e) => {
            return Ok(Stats {
                words: 0,
                lines: 0,
                error: Some(e.to_string()),
            })
        }
    };
    Ok(Stats {
        words: text.split_whitespace().count(),
        lines: text.lines().count(),
        error: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejected_results_carry_text() {
        let r = CallToolResult::error(vec![]);
        assert!(r.is_error);
        let e = Error::protocol(ErrorCode::RATE_LIMITED, "error");
        assert!(e.is_error_code(ErrorCode::RATE_LIMITED));
    }

    #[test]
    fn bad_regex_is_reported() {
        let store = Store::default();
        let err = search(
            &store,
            SearchArgs {
                handle: "nb_x".into(),
                pattern: "(".into(),
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("not a valid regex"));
    }
}
