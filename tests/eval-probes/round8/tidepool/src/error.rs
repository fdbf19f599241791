//! Errors of the observations client and validators, and how tools report them.

use tower_mcp::{Error, JsonRpcError, McpErrorCode};

#[derive(Debug, thiserror::Error)]
pub enum TideError {
    #[error("{0}")]
    InvalidArgument(String),

    #[error("station {0} does not exist")]
    StationNotFound(String),

    #[error("observations API returned HTTP {status}: {message}")]
    Upstream { status: u16, message: String },

    #[error("observations API timed out after {0} s")]
    Timeout(u64),

    #[error("request to observations API failed: {0}")]
    Http(#[source] reqwest::Error),

    #[error("observations API sent a body we could not read: {0}")]
    Decode(#[source] serde_json::Error),

    #[error("cache lock poisoned")]
    CachePoisoned,
}

impl From<reqwest::Error> for TideError {
    fn from(e: reqwest::Error) -> Self {
        if e.is_timeout() {
            TideError::Timeout(crate::config::get().map_or(20, |c| c.request_timeout.as_secs()))
        } else {
            TideError::Http(e)
        }
    }
}

impl From<TideError> for Error {
    fn from(err: TideError) -> Self {
        match err {
            TideError::InvalidArgument(msg) => Error::tool(msg),
            TideError::StationNotFound(id) => {
                Error::tool(format!("station {id} does not exist; use find_stations to look it up"))
            }
            TideError::Timeout(secs) => Error::JsonRpc(JsonRpcError::mcp_error(
                McpErrorCode::RequestTimeout,
                format!("observations API did not answer within {secs} s"),
            )),
            TideError::CachePoisoned => Error::internal("station cache lock poisoned"),
            other => Error::tool_from(other),
        }
    }
}
