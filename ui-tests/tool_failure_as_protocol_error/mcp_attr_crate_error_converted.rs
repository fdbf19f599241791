//@ dep: mcp-attr = "0.0.7"
//@ dep: tokio = "1"
// mcp-attr 0.0.7: jsoncall's blanket `impl<E: std::error::Error> From<E> for Error` converts the
// crate's own error types too (the crate cannot write its own `From` beside it), so a `#[tool]`
// fn's `?` on a crate fn failing with `StoreError` is -32603, as is `Err(e.into())` of an
// `io::Error`. A `?` on a fn that fails only on a poisoned lock is the server's own fault:
// -32603 is right there. A `#[resource]` fn is no tool.
use std::collections::HashMap;
use std::fmt;
use std::sync::RwLock;

use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::Result;

#[derive(Debug)]
pub enum StoreError {
    Missing(String),
    Poisoned,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Missing(id) => write!(f, "no note {id}"),
            StoreError::Poisoned => write!(f, "note table lock poisoned"),
        }
    }
}

impl std::error::Error for StoreError {}

pub struct Store {
    notes: RwLock<HashMap<String, String>>,
}

impl Store {
    pub fn read(&self, id: &str) -> std::result::Result<String, StoreError> {
        let notes = self.notes.read().map_err(|_| StoreError::Poisoned)?;
        notes.get(id).cloned().ok_or_else(|| StoreError::Missing(id.to_string()))
    }

    pub fn count(&self) -> std::result::Result<usize, StoreError> {
        let notes = self.notes.read().map_err(|_| StoreError::Poisoned)?;
        Ok(notes.len())
    }
}

struct Notes {
    store: Store,
}

#[mcp_server]
impl McpServer for Notes {
    /// Read a note.
    #[tool]
    async fn read_note(&self, id: String) -> Result<String> {
        let text = self.store.read(&id)?; //~ tool_failure_as_protocol_error
        Ok(text)
    }

    /// Read a file of notes.
    #[tool]
    async fn read_file(&self, path: String) -> Result<String> {
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(text),
            Err(e) => Err(e.into()), //~ tool_failure_as_protocol_error
        }
    }

    /// Count the notes.
    #[tool]
    async fn count_notes(&self) -> Result<String> {
        let n = self.store.count()?;
        Ok(n.to_string())
    }

    #[resource("notes://{id}")]
    async fn note(&self, id: String) -> Result<String> {
        Ok(self.store.read(&id)?)
    }
}

fn main() {}
