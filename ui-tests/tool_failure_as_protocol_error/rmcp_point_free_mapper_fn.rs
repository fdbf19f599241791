//@ rmcp = "1.8"
// rmcp: `?` on `.map_err(classify)`, a crate fn passed point-free that maps the store's error
// into the crate's `NoteError`, converts through `From<NoteError> for McpError`: the arms of the
// variants `classify` builds are the tool's answers, as with `.map_err(|e| classify(e))`.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug)]
pub enum DbError {
    NoRows,
    Locked,
    Io(String),
}

#[derive(Debug)]
pub enum NoteError {
    NotFound(String),
    Busy,
    Storage(String),
}

impl From<NoteError> for McpError {
    fn from(e: NoteError) -> Self {
        match e {
            NoteError::NotFound(id) => McpError::invalid_params(format!("no note {id}"), None), //~ tool_input_as_invalid_params
            NoteError::Busy => McpError::internal_error("the database is busy", None), //~ tool_failure_as_protocol_error
            NoteError::Storage(s) => McpError::internal_error(format!("storage: {s}"), None), //~ tool_failure_as_protocol_error
        }
    }
}

fn classify(e: DbError) -> NoteError {
    match e {
        DbError::NoRows => NoteError::NotFound("?".into()),
        DbError::Locked => NoteError::Busy,
        DbError::Io(s) => NoteError::Storage(s),
    }
}

pub trait Db: Send + Sync {
    fn get(&self, id: &str) -> Result<String, DbError>;
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct GetArgs {
    pub id: String,
}

#[derive(Clone)]
pub struct Notes {
    db: std::sync::Arc<dyn Db>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Notes {
    #[tool(description = "Get a note")]
    async fn get(&self, Parameters(args): Parameters<GetArgs>) -> Result<CallToolResult, McpError> {
        let text = self.db.get(&args.id).map_err(classify)?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

fn main() {}
