//@ rmcp = "1.8"
// `?` goes through the `From` impl for the operand's own error type when the called fn declares
// it: `load_zone(..)?` reaches `From<ZoneError>` only. `From<DbError>` is reached by no tool here
// (only by the resource handler), so its -32603 is not a tool failure.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content, ReadResourceRequestParams, ReadResourceResult},
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug)]
pub struct ZoneError(String);

#[derive(Debug)]
pub struct DbError(String);

impl From<ZoneError> for McpError {
    fn from(e: ZoneError) -> Self {
        McpError::internal_error(format!("unknown time zone {}", e.0), None) //~ tool_failure_as_protocol_error
    }
}

impl From<DbError> for McpError {
    fn from(e: DbError) -> Self {
        McpError::internal_error(format!("database: {}", e.0), None)
    }
}

fn load_zone(name: &str) -> Result<String, ZoneError> {
    if name.contains('/') {
        Ok(name.to_string())
    } else {
        Err(ZoneError(name.to_string()))
    }
}

fn read_row(key: &str) -> Result<String, DbError> {
    Err(DbError(key.to_string()))
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ZoneArgs {
    pub zone: String,
}

#[derive(Clone)]
pub struct Clock {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Clock {
    #[tool(description = "The current time in a zone")]
    async fn now(&self, Parameters(ZoneArgs { zone }): Parameters<ZoneArgs>) -> Result<CallToolResult, McpError> {
        let zone = load_zone(&zone)?;
        Ok(CallToolResult::success(vec![Content::text(format!("12:00 in {zone}"))]))
    }
}

#[tool_handler]
impl ServerHandler for Clock {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let _row = read_row(&request.uri)?;
        Err(McpError::resource_not_found(format!("no resource {}", request.uri), None))
    }
}
