//@ dep: tower-mcp = "0.25"
//@ dep: serde = "1"
//@ dep: schemars = "1"
// tower-mcp: `CallToolResult::error(message)` puts `message` in the result's one text block, so
// an empty message is an isError result with nothing for the model to read. A message that says
// what failed is fine.
use schemars::JsonSchema;
use serde::Deserialize;
use tower_mcp::{tool_fn, CallToolResult, Error};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PathInput {
    path: String,
}

#[tool_fn(description = "Read a file")]
pub async fn read(input: PathInput) -> Result<CallToolResult, Error> {
    match std::fs::read_to_string(&input.path) {
        Ok(text) => Ok(CallToolResult::text(text)),
        Err(_) => Ok(CallToolResult::error("")), //~ empty_error_content
    }
}

#[tool_fn(description = "Measure a file")]
pub async fn size(input: PathInput) -> Result<CallToolResult, Error> {
    match std::fs::metadata(&input.path) {
        Ok(meta) => Ok(CallToolResult::text(meta.len().to_string())),
        Err(e) => Ok(CallToolResult::error(format!("cannot stat {}: {e}", input.path))),
    }
}
