//@ rmcp = "0.8"
//@ dep: serde = "1"
//@ dep: serde_json = "1"
// The code picked per variant into a local before the conversion matches on the error
// (`let code = e.rpc_code(); match e { .. }`): each arm gets the codes of its own variants. The
// `Missing` arm sends -32602 for a name the model gave (an argument value: MCP006); the
// catch-all sends `Io`'s -32603 (a tool failure: MCP001), and `Poisoned`'s -32603 only on the
// server's own lock.
use std::sync::Mutex;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, ErrorCode};
use rmcp::{schemars, tool, tool_router, ErrorData as McpError};

#[derive(Debug)]
pub enum AppError {
    Missing(String),
    Io(std::io::Error),
    Poisoned,
}

impl AppError {
    pub fn rpc_code(&self) -> i32 {
        match self {
            AppError::Missing(_) => -32602,
            AppError::Io(_) | AppError::Poisoned => -32603,
        }
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl From<AppError> for McpError {
    fn from(e: AppError) -> Self {
        let code = e.rpc_code();
        match e {
            AppError::Missing(name) => McpError::new(ErrorCode(code), format!("no note named {name}"), Some(serde_json::json!({ "name": name }))), //~ tool_input_as_invalid_params
            other => McpError::new(ErrorCode(code), other.to_string(), None), //~ tool_failure_as_protocol_error
        }
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct NameArgs {
    pub name: String,
}

pub struct Server {
    seen: Mutex<Vec<String>>,
}

impl Server {
    fn read(&self, name: &str) -> Result<String, AppError> {
        if name.is_empty() {
            return Err(AppError::Missing(name.to_string()));
        }
        let text = std::fs::read_to_string(name).map_err(AppError::Io)?;
        self.seen.lock().map_err(|_| AppError::Poisoned)?.push(name.to_string());
        Ok(text)
    }
}

#[tool_router]
impl Server {
    #[tool(description = "Read a note")]
    async fn read_note(&self, Parameters(args): Parameters<NameArgs>) -> Result<CallToolResult, McpError> {
        let text = self.read(&args.name)?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

fn main() {}
