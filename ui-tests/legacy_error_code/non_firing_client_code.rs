//@ rmcp = "1.8"
// Reading a code is not emitting one: a client or proxy that compares a received error's code
// with -32001 (or matches on it) builds nothing. Codes outside the legacy range are not this
// lint: the standard JSON-RPC ones, the spec's -32020..-32022, and application codes outside the
// reserved range. Legacy-looking numbers in strings and comments (-32001) are not code positions.
use rmcp::{
    model::{CallToolRequestParams, ErrorCode, ReadResourceRequestParams, ReadResourceResult},
    service::{RequestContext, RunningService},
    ErrorData as McpError, RoleClient, RoleServer, ServerHandler, ServiceError,
};

pub const APP_QUOTA_EXCEEDED: ErrorCode = ErrorCode(-31001);
pub const APP_MAINTENANCE: ErrorCode = ErrorCode(1503);

pub async fn call_with_retry(client: &RunningService<RoleClient, ()>, name: &'static str) -> Result<String, String> {
    for _ in 0..3 {
        match client.call_tool(CallToolRequestParams::new(name)).await {
            Ok(result) => return Ok(format!("{:?}", result.content)),
            Err(ServiceError::McpError(e)) if e.code == ErrorCode(-32001) => continue,
            Err(ServiceError::McpError(McpError { code: ErrorCode(-32002), message, .. })) => {
                return Err(format!("old server says not found: {message}"));
            }
            Err(e) => return Err(format!("call to {name} failed: {e}")),
        }
    }
    Err("server kept answering -32001 (legacy session expired)".to_string())
}

#[derive(Clone)]
pub struct Gateway;

impl ServerHandler for Gateway {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        if request.uri.starts_with("maintenance://") {
            return Err(McpError::new(APP_MAINTENANCE, "the gateway is in maintenance until 02:00 UTC", None));
        }
        if request.uri.len() > 2048 {
            return Err(McpError::new(APP_QUOTA_EXCEEDED, "URI longer than 2048 bytes", None));
        }
        if request.uri.starts_with("v2://") {
            return Err(McpError::new(ErrorCode(-32020), "Mcp-Method header does not match the body", None));
        }
        Err(McpError::new(ErrorCode::INVALID_PARAMS, format!("unknown resource {}", request.uri), None))
    }
}
