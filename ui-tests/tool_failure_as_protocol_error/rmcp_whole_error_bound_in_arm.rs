//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
//@ dep: thiserror = "2"
// Arms that bind the whole error (`e @ AppError::Poisoned(_)`, `e @ (A | B)`) name their
// variants as a bare pattern does: an arm is judged by where its own variants are built. The
// `Poisoned` arm is built only on the server's poisoned lock, so its -32603 is right; the
// `Missing` arm is built on a file the model named: a tool failure.
use std::collections::HashMap;
use std::sync::Mutex;

use rmcp::{
    handler::server::wrapper::Parameters, model::CallToolResult, tool, tool_router,
    ErrorData as McpError,
};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("note store lock poisoned")]
    Poisoned(String),
    #[error("no note file {0}")]
    Missing(String),
    #[error("note {0} is empty")]
    Empty(String),
}

impl From<AppError> for McpError {
    fn from(err: AppError) -> Self {
        match err {
            e @ AppError::Poisoned(_) => McpError::internal_error(e.to_string(), None),
            e @ (AppError::Missing(_) | AppError::Empty(_)) => {
                McpError::internal_error(e.to_string(), None) //~ tool_failure_as_protocol_error
            }
        }
    }
}

pub struct Notes {
    cache: Mutex<HashMap<String, String>>,
}

impl Notes {
    fn remember(&self, name: &str, text: &str) -> Result<(), AppError> {
        let mut cache = self
            .cache
            .lock()
            .map_err(|_| AppError::Poisoned("cache".to_string()))?;
        cache.insert(name.to_string(), text.to_string());
        Ok(())
    }

    fn read(&self, name: &str) -> Result<String, AppError> {
        let text = std::fs::read_to_string(name).map_err(|_| AppError::Missing(name.to_string()))?;
        if text.is_empty() {
            return Err(AppError::Empty(name.to_string()));
        }
        Ok(text)
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub name: String,
}

pub struct Server {
    notes: Notes,
}

#[tool_router]
impl Server {
    #[tool(description = "Read a note")]
    async fn read_note(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let text = self.notes.read(&p.name)?;
        self.notes.remember(&p.name, &text)?;
        Ok(CallToolResult::success(vec![]))
    }
}

fn main() {}
