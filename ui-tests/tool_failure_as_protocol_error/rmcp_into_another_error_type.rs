//@ rmcp = "1.8"
// `.map_err(Into::into)` in a fn that returns the crate's `IndexError` converts into that type,
// not into `McpError`: it does not reach `From<MemoryError> for McpError`, which only tools
// use, so that conversion is reported once, at its arms (each arm with its own code), and not
// at every tool call that converts. `.map_err(McpError::from)?` converts at the `map_err`; the
// `?` adds no second conversion.
use std::borrow::Cow;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{ErrorCode, ErrorData as McpError},
    schemars, tool, tool_handler, tool_router, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug)]
pub enum MemoryError {
    NotFound { name: String },
    InvalidInput { reason: String },
    Io(std::io::Error),
}

impl std::fmt::Display for MemoryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MemoryError::NotFound { name } => write!(f, "memory not found: {name}"),
            MemoryError::InvalidInput { reason } => write!(f, "invalid input: {reason}"),
            MemoryError::Io(e) => write!(f, "io error: {e}"),
        }
    }
}

impl From<MemoryError> for McpError {
    fn from(err: MemoryError) -> Self {
        let code = match &err {
            MemoryError::NotFound { .. } | MemoryError::InvalidInput { .. } => ErrorCode::INVALID_PARAMS,
            _ => ErrorCode::INTERNAL_ERROR,
        };
        McpError { //~ tool_failure_as_protocol_error
        //~| tool_input_as_invalid_params
            code,
            message: Cow::Owned(err.to_string()),
            data: None,
        }
    }
}

#[derive(Debug)]
pub struct IndexError(String);

impl From<std::io::Error> for IndexError {
    fn from(e: std::io::Error) -> Self {
        IndexError(e.to_string())
    }
}

/// Start-up only: loads the index file.
pub fn load_index(path: &str) -> Result<String, IndexError> {
    std::fs::read_to_string(path).map_err(Into::into)
}

fn validate_name(name: String) -> Result<String, MemoryError> {
    if name.is_empty() {
        return Err(MemoryError::InvalidInput { reason: "empty name".into() });
    }
    Ok(name)
}

fn read_memory(name: &str) -> Result<String, MemoryError> {
    match std::fs::read_to_string(name) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(MemoryError::NotFound { name: name.into() }),
        Err(e) => Err(MemoryError::Io(e)),
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RecallArgs {
    pub name: String,
}

#[derive(Clone)]
pub struct Memories {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Memories {
    #[tool(description = "Recall a memory by name")]
    async fn recall(&self, Parameters(args): Parameters<RecallArgs>) -> Result<String, McpError> {
        let name = validate_name(args.name).map_err(McpError::from)?;
        let text = read_memory(&name)?;
        Ok(text)
    }
}

#[tool_handler]
impl ServerHandler for Memories {}

fn main() {
    let _ = load_index("index.bin");
}
