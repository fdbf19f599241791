//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
//@ dep: schemars = "1"
//@ dep: thiserror = "2"
// An arm of the crate's `From<AppError> for McpError` is judged by where its variant is built.
// A variant built only on the server's own faults (a poisoned lock, a `OnceLock` the server
// fills at start-up, also behind an `Arc`, serialising a value the server built) is a server
// fault wherever the mapping makes it -32603: right there. A variant also built on a failure of
// the model's input (a file the model named) is a tool failure, at its arm, naming the tools
// whose calls can pass it: not `backup`, whose `manifest()` fails only on its own lock and
// serialisation.
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    Db(String),
    #[error("{0}")]
    Config(String),
    #[error("encode: {0}")]
    Encode(serde_json::Error),
    #[error("{0}")]
    Storage(String),
}

impl From<AppError> for McpError {
    fn from(err: AppError) -> Self {
        match err {
            AppError::Db(msg) => McpError::internal_error(msg, None),
            AppError::Config(msg) => McpError::internal_error(msg, None),
            AppError::Encode(e) => McpError::internal_error(e.to_string(), None),
            AppError::Storage(msg) => McpError::internal_error(msg, None), //~ tool_failure_as_protocol_error
        }
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub key: String,
}

#[derive(serde::Serialize)]
struct Manifest {
    keys: Vec<String>,
}

pub struct Store {
    rows: Mutex<HashMap<String, String>>,
    url: Arc<OnceLock<String>>,
}

impl Store {
    fn url(&self) -> Result<&str, AppError> {
        self.url
            .get()
            .map(String::as_str)
            .ok_or_else(|| AppError::Config("DATABASE_URL was not set at start-up".into()))
    }

    fn get(&self, key: &str) -> Result<String, AppError> {
        let rows = self.rows.lock().map_err(|_| AppError::Db("row table lock poisoned".into()))?;
        Ok(rows.get(key).cloned().unwrap_or_default())
    }

    fn manifest(&self) -> Result<Vec<u8>, AppError> {
        let rows = self.rows.lock().map_err(|_| AppError::Storage("lock poisoned".into()))?;
        let manifest = Manifest { keys: rows.keys().cloned().collect() };
        serde_json::to_vec(&manifest).map_err(AppError::Encode)
    }

    fn load(&self, key: &str) -> Result<String, AppError> {
        std::fs::read_to_string(key).map_err(|e| AppError::Storage(e.to_string()))
    }
}

#[tool_router]
impl Store {
    #[tool(description = "Read a row")]
    async fn get_row(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let _ = self.url()?;
        let row = self.get(&p.key)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(row)]))
    }

    #[tool(description = "Back up the row keys")]
    async fn backup(&self) -> Result<CallToolResult, McpError> {
        let bytes = self.manifest()?;
        Ok(CallToolResult::success(vec![ContentBlock::text(bytes.len().to_string())]))
    }

    #[tool(description = "Load a file")]
    async fn load_file(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let text = self.load(&p.key)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "The configured database")]
    async fn database(&self) -> Result<CallToolResult, McpError> {
        // The cell is filled at start-up: its `None` is the server's fault.
        let url = self
            .url
            .get()
            .ok_or_else(|| McpError::internal_error("server started without a database", None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(url.clone())]))
    }
}
