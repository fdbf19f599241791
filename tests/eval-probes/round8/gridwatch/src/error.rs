//! The one error type every handler returns, and its JSON-RPC mapping.

use serde_json::{json, Value};
use thiserror::Error;

use crate::clients::db::DbError;
use crate::clients::metrics::MetricsError;
use crate::rpc::JsonRpcError;

#[derive(Debug, Error)]
pub enum AppError {
    #[error("Parse error: {0}")]
    Parse(String),

    #[error("Invalid Request: {0}")]
    InvalidRequest(String),

    #[error("Method not found: {0}")]
    MethodNotFound(String),

    #[error("Invalid params: {0}")]
    InvalidParams(String),

    #[error("Unknown tool: {0}")]
    UnknownTool(String),

    #[error("{kind} {id} not found")]
    NotFound { kind: &'static str, id: String },

    #[error("{0}")]
    Forbidden(String),

    #[error("telemetry backend error: {0}")]
    Upstream(String),

    #[error("telemetry backend rate limit reached; retry in {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },

    #[error("asset database error: {0}")]
    Db(String),

    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),

    #[error("could not encode response: {0}")]
    Serialization(#[from] serde_json::Error),

    #[error("{0} is not configured on this server")]
    NotConfigured(&'static str),

    #[error("shared state lock poisoned: {0}")]
    LockPoisoned(&'static str),

    #[error("{0}")]
    Internal(String),
}

impl AppError {
    /// The JSON-RPC code this error is sent with.
    pub fn json_rpc_code(&self) -> i64 {
        match self {
            AppError::Parse(_) => -32700,
            AppError::InvalidRequest(_) => -32600,
            AppError::MethodNotFound(_) => -32601,
            AppError::InvalidParams(_) | AppError::UnknownTool(_) => -32602,
            AppError::NotFound { .. } => -32002,
            AppError::Forbidden(_) => -32001,
            AppError::Upstream(_) => -32010,
            AppError::RateLimited { .. } => -32029,
            AppError::Db(_)
            | AppError::Io(_)
            | AppError::Serialization(_)
            | AppError::NotConfigured(_)
            | AppError::LockPoisoned(_)
            | AppError::Internal(_) => -32603,
        }
    }

    fn data(&self) -> Option<Value> {
        match self {
            AppError::RateLimited { retry_after_secs } => {
                Some(json!({ "retryAfterSecs": retry_after_secs }))
            }
            AppError::NotFound { kind, id } => Some(json!({ "kind": kind, "id": id })),
            _ => None,
        }
    }
}

impl From<AppError> for JsonRpcError {
    fn from(err: AppError) -> Self {
        if matches!(err.json_rpc_code(), -32603) {
            tracing::error!(error = %err, "internal error while handling request");
        }
        JsonRpcError {
            code: err.json_rpc_code(),
            message: err.to_string(),
            data: err.data(),
        }
    }
}

impl From<DbError> for AppError {
    fn from(err: DbError) -> Self {
        match err {
            DbError::Sql(e) => AppError::Db(e.to_string()),
            DbError::Poisoned => AppError::LockPoisoned("asset database connection"),
        }
    }
}

impl From<MetricsError> for AppError {
    fn from(err: MetricsError) -> Self {
        match err {
            MetricsError::RateLimited(secs) => AppError::RateLimited {
                retry_after_secs: secs,
            },
            MetricsError::Http(e) => AppError::Upstream(e.to_string()),
            MetricsError::Status(status, body) => {
                AppError::Upstream(format!("HTTP {status}: {body}"))
            }
            MetricsError::Decode(e) => AppError::Upstream(format!("bad response body: {e}")),
        }
    }
}
