//! Reading tool arguments out of the raw JSON object. A missing or mistyped argument means the
//! request does not match the tool's input schema.

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::McpError;

pub fn number(args: &JsonObject, key: &str) -> Result<f64, McpError> {
    args.get(key).and_then(Value::as_f64).ok_or_else(|| {
        McpError::invalid_params(
            format!("argument '{key}' is required and must be a number"),
            None,
        )
    })
}

pub fn string<'a>(args: &'a JsonObject, key: &str) -> Result<&'a str, McpError> {
    args.get(key).and_then(Value::as_str).ok_or_else(|| {
        McpError::invalid_params(
            format!("argument '{key}' is required and must be a string"),
            None,
        )
    })
}

pub fn numbers(args: &JsonObject, key: &str) -> Result<Vec<f64>, McpError> {
    let Some(Value::Array(items)) = args.get(key) else {
        return Err(McpError::invalid_params(
            format!("argument '{key}' is required and must be an array of numbers"),
            None,
        ));
    };
    items
        .iter()
        .map(|v| {
            v.as_f64().ok_or_else(|| {
                McpError::invalid_params(
                    format!("argument '{key}' must contain only numbers"),
                    None,
                )
            })
        })
        .collect()
}
