//@ rmcp = "3.5"
// The central error -> code mapping picks the code by a `match` on the crate's error into a local,
// and one arm picks it by a second `match` on the code a backend answered with. Every code that
// arm can yield is one its variant may get: the backend's -32700 / -32603 reach the tool as a
// protocol error (MCP001) and its -32602 as invalid params (MCP006). A mapping with an arm whose
// code the source does not state (`code => ErrorCode(code as i32)`) says nothing of that arm: no
// finding is made up for it, and `lookup` (which only passes that variant) stays silent.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content, ErrorCode},
    tool, tool_router, ErrorData,
};

pub enum VaultError {
    InvalidPath(String),
    Io(std::io::Error),
    Rpc { code: i64, message: String },
}

impl std::fmt::Display for VaultError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VaultError::InvalidPath(p) => write!(f, "invalid path {p}"),
            VaultError::Io(e) => write!(f, "{e}"),
            VaultError::Rpc { message, .. } => f.write_str(message),
        }
    }
}

impl From<VaultError> for ErrorData {
    fn from(err: VaultError) -> Self {
        let code = match &err {
            VaultError::InvalidPath(_) => ErrorCode::INVALID_PARAMS,
            VaultError::Io(_) => ErrorCode::INTERNAL_ERROR,
            VaultError::Rpc { code, .. } => match *code {
                -32700 => ErrorCode::PARSE_ERROR,
                -32602 => ErrorCode::INVALID_PARAMS,
                _ => ErrorCode::INTERNAL_ERROR,
            },
        };
        ErrorData::new(code, err.to_string(), None) //~ tool_failure_as_protocol_error
        //~^ tool_input_as_invalid_params
    }
}

pub enum LookupError {
    Rpc { code: i64, message: String },
}

impl From<LookupError> for ErrorData {
    fn from(err: LookupError) -> Self {
        let code = match &err {
            LookupError::Rpc { code, .. } => match *code {
                -32602 => ErrorCode::INVALID_PARAMS,
                code => ErrorCode(code as i32),
            },
        };
        let LookupError::Rpc { message, .. } = err;
        ErrorData::new(code, message, None)
    }
}

fn ask_backend(query: &str) -> Result<String, VaultError> {
    if query.is_empty() {
        return Err(VaultError::Rpc { code: -32602, message: "empty query".into() });
    }
    std::fs::read_to_string(query).map_err(VaultError::Io)
}

fn ask_index(query: &str) -> Result<String, LookupError> {
    Err(LookupError::Rpc { code: -32001, message: format!("no entry {query}") })
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Query {
    query: String,
}

pub struct Vault;

#[tool_router]
impl Vault {
    #[tool(description = "Search the vault")]
    async fn search(&self, Parameters(q): Parameters<Query>) -> Result<CallToolResult, ErrorData> {
        let text = ask_backend(&q.query)?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Look a term up in the index")]
    async fn lookup(&self, Parameters(q): Parameters<Query>) -> Result<CallToolResult, ErrorData> {
        let text = ask_index(&q.query)?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
