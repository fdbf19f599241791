//! Error codes relaydesk sends, and the mapping of Relay API failures.

use rmcp::model::{ErrorCode, ErrorData};

use crate::client::ApiError;

/// Relay refused our credentials.
pub const UPSTREAM_AUTH: ErrorCode = ErrorCode(-32001);

/// Relay's rate limit; clients may back off on this code.
pub const RATE_LIMITED: ErrorCode = ErrorCode(-32029);

/// Ticket is locked by another agent (application code).
pub const TICKET_LOCKED: ErrorCode = ErrorCode(-31409);

/// Relay failed in a way we cannot classify.
pub const UPSTREAM_FAILURE: i32 = -32011;

/// Maps a Relay API failure to the error the MCP client receives.
pub fn upstream_error(e: &ApiError) -> ErrorData {
    let code = match e {
        ApiError::NotFound(_) => ErrorCode::INVALID_PARAMS,
        ApiError::Unauthorized => UPSTREAM_AUTH,
        ApiError::RateLimited { .. } => RATE_LIMITED,
        ApiError::Status(..) | ApiError::Transport(_) | ApiError::Decode(_) => ErrorCode::INTERNAL_ERROR,
    };
    ErrorData::new(code, e.to_string(), None)
}
