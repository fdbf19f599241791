//! Reading tool arguments out of the raw JSON object.

use rmcp::{ErrorData as McpError, model::JsonObject};
use serde_json::Value;

/// A required string argument. A missing or non-string value breaks the
/// tool's input schema.
pub fn req_str<'a>(args: &'a JsonObject, key: &str) -> Result<&'a str, McpError> {
    match args.get(key) {
        Some(Value::String(s)) => Ok(s.as_str()),
        Some(_) => Err(McpError::invalid_params(format!("argument `{key}` must be a string"), None)),
        None => Err(McpError::invalid_params(format!("missing required argument `{key}`"), None)),
    }
}

pub fn opt_str<'a>(args: &'a JsonObject, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

/// An optional integer argument.
pub fn opt_u64(args: &JsonObject, key: &str) -> Result<Option<u64>, McpError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| McpError::invalid_params(format!("argument `{key}` must be a non-negative integer"), None)),
    }
}

/// Ticket ids look like "T-48213".
pub fn ticket_id(args: &JsonObject) -> Result<String, McpError> {
    let raw = req_str(args, "ticket_id")?;
    let digits = raw.trim().trim_start_matches("T-");
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(McpError::invalid_params(format!("ticket_id must look like T-48213, got {raw:?}"), None));
    }
    Ok(format!("T-{digits}"))
}
