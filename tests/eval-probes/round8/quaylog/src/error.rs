//! Error types of quaylog and how they reach the MCP client.

use rmcp::model::{ErrorCode, ErrorData};
use serde_json::json;
use thiserror::Error;

/// Application code for "the berth is taken in that window" (outside the
/// JSON-RPC reserved range, so clients can key on it).
pub const BERTH_CONFLICT: ErrorCode = ErrorCode(-31001);

/// Code the old harbour dashboard expects for a locked call.
pub const CALL_LOCKED: ErrorCode = ErrorCode(-32010);

/// Errors of the store and the domain rules around it.
#[derive(Debug, Error)]
pub enum AppError {
    #[error("{kind} {id} not found")]
    NotFound { kind: &'static str, id: String },
    #[error("invalid {field}: {reason}")]
    Invalid { field: &'static str, reason: String },
    #[error("berth {0} is already reserved in that window")]
    Conflict(String),
    #[error("vessel call {0} is locked")]
    Locked(String),
    #[error("database error: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("vessel log lock poisoned")]
    Poisoned,
}

impl AppError {
    pub fn not_found(kind: &'static str, id: impl Into<String>) -> Self {
        AppError::NotFound {
            kind,
            id: id.into(),
        }
    }

    pub fn invalid(field: &'static str, reason: impl Into<String>) -> Self {
        AppError::Invalid {
            field,
            reason: reason.into(),
        }
    }
}

impl From<AppError> for ErrorData {
    fn from(err: AppError) -> Self {
        match err {
            AppError::NotFound { kind, id } => ErrorData::invalid_params(
                format!("{kind} {id} not found"),
                Some(json!({ "kind": kind, "id": id })),
            ),
            AppError::Invalid { field, reason } => {
                ErrorData::invalid_params(format!("invalid {field}: {reason}"), None)
            }
            AppError::Conflict(berth) => ErrorData::new(
                BERTH_CONFLICT,
                format!("berth {berth} is already reserved in that window"),
                None,
            ),
            AppError::Locked(id) => ErrorData::new(
                CALL_LOCKED,
                format!("vessel call {id} has departed or was cancelled and can no longer change"),
                None,
            ),
            AppError::Db(e) => {
                tracing::error!("sqlite: {e}");
                ErrorData::internal_error("Something went wrong", None)
            }
            AppError::Poisoned => {
                ErrorData::internal_error("vessel log unavailable: store lock poisoned", None)
            }
        }
    }
}

/// Problems with a cargo manifest line, found before it touches the store.
#[derive(Debug, Error)]
pub enum ManifestError {
    #[error("unknown HS code {0}")]
    UnknownHsCode(String),
    #[error("manifest of call {0} is sealed")]
    Sealed(String),
    #[error("{0} t exceeds the berth's deck load")]
    Overweight(f64),
}

impl From<ManifestError> for ErrorData {
    fn from(e: ManifestError) -> Self {
        match e {
            ManifestError::UnknownHsCode(code) => ErrorData::invalid_params(
                format!("unknown HS code {code:?}: expected 6 digits, e.g. 847130"),
                None,
            ),
            ManifestError::Sealed(call) => ErrorData::new(
                ErrorCode(-32003),
                format!("manifest of call {call} is sealed after departure"),
                None,
            ),
            ManifestError::Overweight(t) => {
                ErrorData::internal_error(format!("{t} t exceeds the berth's deck load"), None)
            }
        }
    }
}

/// Wraps an I/O failure of the CSV export.
pub fn export_failed(e: std::io::Error) -> ErrorData {
    ErrorData::internal_error(format!("writing the berth plan failed: {e}"), None)
}
