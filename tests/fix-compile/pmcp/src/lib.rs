//! A pmcp 2.23 server whose tools report failures as JSON-RPC errors (pmcp sends every handler
//! `Err` but `Error::ToolRejected` as -32603), in the forms `mcp-lint check --fix --unsafe-fixes`
//! rewrites to `Error::tool_rejected(..)`, plus text only a person can write.

use std::collections::HashMap;
use std::sync::Mutex;

use pmcp::{async_trait, Error, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

/// Notes by title.
#[derive(Default)]
pub struct Notes {
    notes: Mutex<HashMap<String, String>>,
}

fn title_of(args: &Value) -> Option<&str> {
    args.get("title").and_then(Value::as_str)
}

/// The error for a note that is not there.
fn no_such_note(title: &str) -> Error {
    Error::not_found(format!(
        "no note titled {title:?}; list_notes shows the titles"
    ))
}

/// `read_note`: a note's text.
pub struct ReadNote(pub std::sync::Arc<Notes>);

#[async_trait]
impl ToolHandler for ReadNote {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let title = title_of(&args).ok_or_else(|| Error::validation("title missing"))?;
        let notes = self.0.notes.lock().expect("note store lock");
        match notes.get(title) {
            Some(text) => Ok(json!({ "text": text })),
            None => Err(no_such_note(title)),
        }
    }
}

/// Notes are imported from the working tree only.
fn check_relative(path: &str) -> Result<(), String> {
    if path.starts_with('/') {
        Err(format!(
            "{path} is absolute; give a path relative to the notes directory"
        ))
    } else {
        Ok(())
    }
}

/// `import_note`: a note read from a file.
pub struct ImportNote(pub std::sync::Arc<Notes>);

#[async_trait]
impl ToolHandler for ImportNote {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let path = args
            .get("path")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::validation("path is required"))?;
        check_relative(path).map_err(Error::invalid_params)?;
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::internal(format!("cannot read {path}: {e}")))?;
        let title = match text.lines().next() {
            Some(line) if !line.trim().is_empty() => line.trim().to_string(),
            _ => return Err(Error::not_found("line 1 holds no title")),
        };
        if title.len() > 80 {
            return Err(Error::protocol_msg(format!(
                "title {title:?} has {} characters; at most 80",
                title.len()
            )));
        }
        let mut notes = self.0.notes.lock().expect("note store lock");
        notes.insert(title.clone(), text);
        Ok(json!({ "imported": title }))
    }
}

/// `delete_note`: removes a note.
pub struct DeleteNote(pub std::sync::Arc<Notes>);

#[async_trait]
impl ToolHandler for DeleteNote {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let Some(title) = title_of(&args) else {
            return Err(Error::validation("failed"));
        };
        let mut notes = self.0.notes.lock().expect("note store lock");
        match notes.remove(title) {
            Some(_) => Ok(json!({ "deleted": title })),
            None => Err(Error::tool_rejected("", None)),
        }
    }
}
