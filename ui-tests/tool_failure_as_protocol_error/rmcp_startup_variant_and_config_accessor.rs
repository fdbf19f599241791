//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
//@ dep: thiserror = "2"
// Two start-up idioms whose -32603 is right. (1) An arm of the crate's `From<ApiError> for
// McpError` for a variant only start-up code builds (`ApiError::NotConfigured`, a unit variant
// built in `Client::from_env`, which only `Server::new` and `main` call): no tool failure
// reaches it. (2) The `None` of a crate accessor over a static `OnceLock` the server fills at
// start-up (`config::get()` with `fn get() -> Option<&'static Config> { CONFIG.get() }`): a
// server fault, as `CONFIG.get()` written in the tool is. The variant a tool's HTTP call builds
// (`ApiError::Http`) is a tool failure, at its arm.
use std::sync::OnceLock;

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("GITHUB_TOKEN is not set")]
    NotConfigured,
    #[error("request failed: {0}")]
    Http(#[from] std::io::Error),
}

impl From<ApiError> for McpError {
    fn from(e: ApiError) -> Self {
        match e {
            ApiError::NotConfigured => McpError::internal_error(e.to_string(), None),
            ApiError::Http(err) => McpError::internal_error(err.to_string(), None), //~ tool_failure_as_protocol_error
        }
    }
}

pub mod config {
    use std::sync::OnceLock;

    pub struct Config {
        pub owner: String,
    }

    static CONFIG: OnceLock<Config> = OnceLock::new();

    pub fn init(owner: String) {
        let _ = CONFIG.set(Config { owner });
    }

    pub fn get() -> Option<&'static Config> {
        CONFIG.get()
    }
}

pub struct Client {
    token: String,
}

impl Client {
    pub fn from_env() -> Result<Self, ApiError> {
        let token = std::env::var("GITHUB_TOKEN").map_err(|_| ApiError::NotConfigured)?;
        Ok(Client { token })
    }

    pub fn get(&self, path: &str) -> Result<String, ApiError> {
        let body = std::fs::read_to_string(path)?;
        Ok(format!("{} bytes with a token of {}", body.len(), self.token.len()))
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub path: String,
}

pub struct Server {
    client: Client,
    name: OnceLock<String>,
}

impl Server {
    pub fn new() -> Result<Self, ApiError> {
        Ok(Server { client: Client::from_env()?, name: OnceLock::new() })
    }
}

#[tool_router]
impl Server {
    #[tool(description = "Fetch a path")]
    async fn fetch(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let cfg = config::get().ok_or_else(|| McpError::internal_error("configuration missing", None))?;
        let body = self.client.get(&p.path)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{}: {body}", cfg.owner))]))
    }

    #[tool(description = "The server's name")]
    async fn name(&self) -> Result<CallToolResult, McpError> {
        let name = self.name.get().ok_or_else(|| McpError::internal_error("name not set", None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(name.clone())]))
    }
}

fn main() {
    config::init("octo".into());
    let _server = Server::new().expect("start-up");
}
