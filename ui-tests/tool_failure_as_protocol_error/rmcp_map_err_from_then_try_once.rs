//@ rmcp = "1.8"
// `From<StoreError> for McpError` is also used by a resource handler, so each tool call that
// converts is reported. `.map_err(McpError::from)?` converts once, at the `map_err`: one
// finding there, not a second one at the `?`.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{ReadResourceRequestParams, ReadResourceResult},
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug)]
pub struct StoreError(String);

impl From<StoreError> for McpError {
    fn from(e: StoreError) -> Self {
        McpError::internal_error(format!("store: {}", e.0), None)
    }
}

fn fetch(key: &str) -> Result<String, StoreError> {
    std::fs::read_to_string(key).map_err(|e| StoreError(e.to_string()))
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct GetArgs {
    pub key: String,
}

#[derive(Clone)]
pub struct Store {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Store {
    #[tool(description = "Get a value")]
    async fn get(&self, Parameters(args): Parameters<GetArgs>) -> Result<String, McpError> {
        let value = fetch(&args.key).map_err(McpError::from)?; //~ tool_failure_as_protocol_error
        Ok(value)
    }
}

#[tool_handler]
impl ServerHandler for Store {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let _value = fetch(&request.uri)?;
        Err(McpError::resource_not_found(format!("no resource {}", request.uri), None))
    }
}

fn main() {}
