//@ rmcp = "3.11"
//@ dep: serde_json = "1"
// An argument helper over the raw JSON arguments: the catch-all after `Some(Value::String(s))`
// rejects a value of the wrong JSON type, a shape the input schema answers, whether it is
// written `Some(_)` or binds the value to show it (`Some(other) => .. "got {other}"`). After an
// arm whose guard tests the value (`Some(Value::Number(n)) if n.is_u64()`), the catch-all also
// takes numbers of the right type that fail the test (negative, fractional): a value check.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock, JsonObject},
    tool, tool_router, ErrorData as McpError,
};
use serde_json::Value;

pub struct Logs;

#[tool_router]
impl Logs {
    #[tool(description = "Tail a log")]
    async fn tail(&self, Parameters(args): Parameters<JsonObject>) -> Result<CallToolResult, McpError> {
        let name = req_str(&args, "name")?;
        let lines = opt_u64(&args, "lines")?.unwrap_or(20);
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{name}: {lines}"))]))
    }
}

pub fn req_str<'a>(args: &'a JsonObject, key: &str) -> Result<&'a str, McpError> {
    match args.get(key) {
        Some(Value::String(s)) => Ok(s),
        None => Err(McpError::invalid_params(format!("missing required argument `{key}`"), None)),
        Some(other) => Err(McpError::invalid_params(format!("`{key}` must be a string, got {other}"), None)),
    }
}

pub fn opt_u64(args: &JsonObject, key: &str) -> Result<Option<u64>, McpError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) if n.is_u64() => Ok(n.as_u64()),
        Some(other) => Err(McpError::invalid_params(format!("`{key}` must be a non-negative integer, got {other}"), None)), //~ tool_input_as_invalid_params
    }
}
