//@ rmcp = "1.8"
// A one-line helper whose value is the protocol error (`fn err(e: VaultError) -> McpError {
// McpError::from(e) }`) converts through the crate's `From<VaultError> for McpError`: a tool
// that answers a vault failure with `Err(err(e))` reaches that impl, reported once at its
// construction. The same kind of wrapper over `From<ConfigError>`, used only at start-up, is
// reached by no tool.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug)]
pub enum VaultError {
    Io(std::io::Error),
}

#[derive(Debug)]
pub struct ConfigError(String);

impl From<VaultError> for McpError {
    fn from(e: VaultError) -> Self {
        match e {
            VaultError::Io(io) => McpError::internal_error(format!("vault: {io}"), None), //~ tool_failure_as_protocol_error
        }
    }
}

impl From<ConfigError> for McpError {
    fn from(e: ConfigError) -> Self {
        McpError::internal_error(format!("config: {}", e.0), None)
    }
}

fn err(e: VaultError) -> McpError {
    eprintln!("vault failure: {e:?}");
    McpError::from(e)
}

fn config_err(e: ConfigError) -> McpError {
    McpError::from(e)
}

fn read_note(path: &str) -> Result<String, VaultError> {
    std::fs::read_to_string(path).map_err(VaultError::Io)
}

fn load_config() -> Result<String, ConfigError> {
    std::env::var("VAULT").map_err(|e| ConfigError(e.to_string()))
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NoteArgs {
    pub path: String,
}

#[derive(Clone)]
pub struct Vault {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Vault {
    #[tool(description = "Read a note")]
    async fn read(&self, Parameters(args): Parameters<NoteArgs>) -> Result<CallToolResult, McpError> {
        match read_note(&args.path) {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(e) => Err(err(e)),
        }
    }
}

#[tool_handler]
impl ServerHandler for Vault {}

fn main() -> Result<(), McpError> {
    let _vault = load_config().map_err(config_err)?;
    Ok(())
}
