//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
//@ dep: thiserror = "2"
// `AppError::Config` is built only in `Settings::load`, which only `main` calls: its arm
// answers no tool call. `Ok(Config { .. })` builds the crate's struct `Config`, not the
// variant, so it is no build of `AppError::Config` that a tool could meet. The `Io` arm, reached
// by a file the model names, is reported. (`read`'s `check(path)?` fails with what the source
// does not show: every arm is judged by where its variant is built.)
use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("io: {0}")]
    Io(std::io::Error),
    #[error("config: {0}")]
    Config(String),
}

impl From<AppError> for McpError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Io(e) => McpError::internal_error(format!("cannot read the file: {e}"), None), //~ tool_failure_as_protocol_error
            AppError::Config(m) => McpError::internal_error(format!("server misconfigured: {m}"), None),
        }
    }
}

pub struct Config {
    pub root: String,
}

pub struct Settings;

impl Settings {
    pub fn load(text: &str) -> Result<Config, AppError> {
        let root = text.trim();
        if !root.starts_with('/') {
            return Err(AppError::Config(format!("root must be an absolute path, got {root:?}")));
        }
        Ok(Config { root: root.to_string() })
    }
}

pub fn read(path: &str, check: impl Fn(&str) -> Result<(), AppError>) -> Result<String, AppError> {
    check(path)?;
    std::fs::read_to_string(path).map_err(AppError::Io)
}

pub fn default_config() -> Config {
    Config { root: ".".into() }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ReadArgs {
    pub path: String,
}

pub struct Files {
    config: Config,
}

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    async fn read_file(&self, Parameters(args): Parameters<ReadArgs>) -> Result<CallToolResult, McpError> {
        let _ = default_config();
        let text = read(&format!("{}/{}", self.config.root, args.path), |_| Ok(()))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}

fn main() {
    let config = Settings::load("/srv").unwrap_or_else(|_| default_config());
    let _ = Files { config };
}
