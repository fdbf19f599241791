//@ rmcp = "1.8"
// An error helper that picks the code by a kind its wrappers pass (`internal_error(..)` is
// `mk(Kind::Internal, ..)`): each wrapper's summary holds only the arm its kind reaches, so a
// tool's call of `internal_error` is reported with -32603 alone, once, and not also as the
// -32602 (MCP006) or -32002 of the arms other wrappers take. Start-up code calls the wrappers
// too, so the findings are at the tools' calls.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Clone, Copy)]
enum Kind {
    NotFound,
    InvalidParams,
    Internal,
}

pub fn internal_error(message: &'static str, cause: impl Into<String>) -> McpError {
    mk(Kind::Internal, message, cause.into())
}

pub fn invalid_params_error(message: &'static str, cause: impl Into<String>) -> McpError {
    mk(Kind::InvalidParams, message, cause.into())
}

pub fn not_found_error(message: &'static str, cause: impl Into<String>) -> McpError {
    mk(Kind::NotFound, message, cause.into())
}

fn mk(kind: Kind, message: &'static str, cause: String) -> McpError {
    let data: Option<Value> = Some(json!({ "cause": cause }));
    match kind {
        Kind::NotFound => McpError::resource_not_found(message, data),
        Kind::InvalidParams => McpError::invalid_params(message, data),
        Kind::Internal => McpError::internal_error(message, data),
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Source {
    pub path: String,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Load a file")]
    async fn load(&self, Parameters(args): Parameters<Source>) -> Result<CallToolResult, McpError> {
        let text = std::fs::read_to_string(&args.path)
            .map_err(|e| internal_error("could not read the file", e.to_string()))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Look a file up")]
    async fn stat(&self, Parameters(args): Parameters<Source>) -> Result<CallToolResult, McpError> {
        let meta = std::fs::metadata(&args.path)
            .map_err(|e| not_found_error("no such file", e.to_string()))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(meta.len().to_string())]))
    }
}

pub fn start(config: &str) -> Result<(), McpError> {
    if config.is_empty() {
        return Err(invalid_params_error("empty configuration", config));
    }
    let _ = std::fs::read_to_string(config).map_err(|e| internal_error("no configuration", e.to_string()))?;
    let _ = std::fs::metadata(config).map_err(|e| not_found_error("no configuration", e.to_string()))?;
    Ok(())
}
