//@ rmcp = "3.11"
//@ dep: thiserror = "2"
// A tool that builds `ErrorData { code, message, data }` as a struct literal with the code picked
// by a `match` into a local: one site per code the local can hold. For the crate's own error
// enum each arm knows its variant; for another crate's value (`std::io::ErrorKind`) each arm's
// code is still one the tool sends: its -32603 is a tool failure as a protocol error (MCP001),
// while whether its -32602 arm rejects an argument value the source does not tell (no MCP006).
// The crate enum's miss on the model's id (-32602) is MCP006, its store failure (-32603) MCP001.
use std::collections::HashMap;

use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NoteArgs {
    pub path: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct IdArgs {
    pub id: String,
}

#[derive(Debug, thiserror::Error)]
pub enum NoteError {
    #[error("no note with id {0}")]
    Missing(String),
    #[error("the note store failed: {0}")]
    Store(String),
}

pub struct Notes {
    store: HashMap<String, String>,
}

impl Notes {
    fn load(&self, id: &str) -> Result<String, NoteError> {
        if id.is_empty() {
            return Err(NoteError::Store("empty key".to_string()));
        }
        self.store
            .get(id)
            .cloned()
            .ok_or_else(|| NoteError::Missing(id.to_string()))
    }
}

#[tool_router]
impl Notes {
    #[tool(description = "Read a note file")]
    async fn read_note(
        &self,
        Parameters(args): Parameters<NoteArgs>,
    ) -> Result<CallToolResult, McpError> {
        match std::fs::read_to_string(&args.path) {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(e) => {
                let code = match e.kind() {
                    std::io::ErrorKind::NotFound => ErrorCode::INVALID_PARAMS,
                    _ => ErrorCode::INTERNAL_ERROR,
                };
                Err(McpError { //~ tool_failure_as_protocol_error
                    code,
                    message: format!("cannot read {}: {e}", args.path).into(),
                    data: None,
                })
            }
        }
    }

    #[tool(description = "Get a note by id")]
    async fn get_note(&self, Parameters(args): Parameters<IdArgs>) -> Result<CallToolResult, McpError> {
        match self.load(&args.id) {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(e) => {
                let error_code = match &e {
                    NoteError::Missing(_) => ErrorCode::INVALID_PARAMS,
                    NoteError::Store(_) => ErrorCode::INTERNAL_ERROR,
                };
                Err(McpError { //~ tool_failure_as_protocol_error
                    code: error_code, //~| tool_input_as_invalid_params
                    message: e.to_string().into(),
                    data: None,
                })
            }
        }
    }
}
