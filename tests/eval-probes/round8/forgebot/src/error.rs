//! forgebot's error type and its conversion to turbomcp's error.

use turbomcp::{McpError, ProtocolError, ServerError};

#[derive(Debug, thiserror::Error)]
pub enum ForgeError {
    #[error("HTTP request to the forge failed: {0}")]
    Http(#[from] reqwest::Error),
    #[error("forge API answered {status}: {body}")]
    Api { status: u16, body: String },
    #[error("{kind} {id} does not exist")]
    NotFound { kind: &'static str, id: String },
    #[error("`{cmd}` exited with {code}: {stderr}")]
    Command { cmd: String, code: i32, stderr: String },
    #[error("could not start `{cmd}`: {source}")]
    Spawn {
        cmd: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0:?} is not a branch, tag or commit in the workspace")]
    InvalidRef(String),
    #[error("forge did not answer within {0} s")]
    Timeout(u64),
    #[error("server misconfigured: {0}")]
    Config(String),
}

impl From<ForgeError> for McpError {
    fn from(err: ForgeError) -> Self {
        match err {
            ForgeError::NotFound { kind, id } => {
                McpError::Server(ServerError::not_found(format!("{kind} {id}")))
            }
            ForgeError::Api { status: 429, body } => {
                McpError::Server(ServerError::rate_limit(format!("forge rate limit: {body}")))
            }
            ForgeError::Timeout(secs) => {
                McpError::Server(ServerError::timeout("forge API call", secs * 1000))
            }
            ForgeError::Config(msg) => McpError::Server(ServerError::configuration(msg)),
            ForgeError::InvalidRef(r) => McpError::from(ProtocolError::invalid_params(format!(
                "git_ref {r:?} is not a branch, tag or commit; list branches with list_pipelines"
            ))),
            other => McpError::tool(other.to_string()),
        }
    }
}
