//! Domain errors of the scheduling service and their MCP conversions.

use chrono::NaiveDate;
use rust_mcp_sdk::schema::{schema_utils::CallToolError, RpcError, RpcErrorCodes};
use thiserror::Error;

/// Code for "slot already taken" when the error leaves as a JSON-RPC error.
pub const SLOT_CONFLICT_CODE: i64 = -32009;
/// Code we used to answer missing resources with (kept for older front-desk clients).
pub const RESOURCE_MISSING_CODE: i64 = -32002;

#[derive(Debug, Error)]
pub enum ClinicError {
    #[error("appointment {0} does not exist")]
    AppointmentNotFound(String),
    #[error("patient {0} does not exist")]
    PatientNotFound(String),
    #[error("slot {start} with {provider} is already booked by appointment {holder}")]
    SlotTaken {
        provider: String,
        start: String,
        holder: String,
    },
    #[error("{0} is outside opening hours ({1}:00-{2}:00)")]
    OutsideHours(String, u32, u32),
    #[error("date {0} is in the past; today is {1}")]
    PastDate(NaiveDate, NaiveDate),
    #[error("patient {0} is blocked from online booking: {1}")]
    PatientBlocked(String, String),
    #[error("appointment store lock was poisoned")]
    LockPoisoned,
    #[error("could not encode {what}: {source}")]
    Encode {
        what: &'static str,
        #[source]
        source: serde_json::Error,
    },
}

impl From<ClinicError> for RpcError {
    fn from(err: ClinicError) -> Self {
        match err {
            ClinicError::AppointmentNotFound(_) | ClinicError::PatientNotFound(_) => {
                RpcError::invalid_params().with_message(err.to_string())
            }
            ClinicError::SlotTaken { .. } => RpcError {
                code: SLOT_CONFLICT_CODE,
                message: err.to_string(),
                data: None,
            },
            ClinicError::LockPoisoned => RpcError::internal_error(),
            other => RpcError::new(RpcErrorCodes::INTERNAL_ERROR, other.to_string(), None),
        }
    }
}

/// Turn a domain error into the isError text the model reads.
pub fn tool_error(err: ClinicError) -> CallToolError {
    match err {
        ClinicError::PastDate(given, today) => CallToolError::from_message(format!(
            "date {given} is in the past; pick a date on or after {today}"
        )),
        other => CallToolError::new(other),
    }
}
