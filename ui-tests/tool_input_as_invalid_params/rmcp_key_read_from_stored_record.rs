//@ rmcp = "1.8"
// rmcp: `From<StoreError> for McpError` answers `NotFound` with -32602 and is also reached by
// `read_resource`, so each tool `?` is reported with the codes it can carry. The lookup of the
// call id the model gave rejects that argument (MCP006). The lookup of the berth the stored call
// points to is keyed by a value read out of the store's own record (`self.store.berth(&call.berth)`
// after `let call = self.store.call(&args.call_id)?`): a miss there is the store's inconsistency,
// not a rejected argument.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, Content, ReadResourceRequestParams, ReadResourceResult, ResourceContents,
    },
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Debug)]
pub enum StoreError {
    NotFound(String),
}

impl From<StoreError> for McpError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound(what) => McpError::invalid_params(format!("{what} not found"), None),
        }
    }
}

#[derive(Clone)]
pub struct VesselCall {
    pub berth: String,
}

#[derive(Clone, Default)]
pub struct Store {
    calls: HashMap<String, VesselCall>,
    berths: HashMap<String, f64>,
}

impl Store {
    pub fn call(&self, id: &str) -> Result<VesselCall, StoreError> {
        self.calls
            .get(id)
            .cloned()
            .ok_or_else(|| StoreError::NotFound(format!("vessel call {id}")))
    }

    pub fn berth(&self, code: &str) -> Result<f64, StoreError> {
        self.berths
            .get(code)
            .copied()
            .ok_or_else(|| StoreError::NotFound(format!("berth {code}")))
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CallArgs {
    pub call_id: String,
}

#[derive(Clone)]
pub struct Harbour {
    store: Store,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Harbour {
    #[tool(description = "Length of the berth a vessel call is assigned to")]
    async fn berth_length(&self, Parameters(args): Parameters<CallArgs>) -> Result<CallToolResult, McpError> {
        let call = self.store.call(&args.call_id)?; //~ tool_input_as_invalid_params
        let length = self.store.berth(&call.berth)?;
        Ok(CallToolResult::success(vec![Content::text(format!("{length} m"))]))
    }
}

#[tool_handler]
impl ServerHandler for Harbour {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let call = self.store.call(request.uri.trim_start_matches("call://"))?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(call.berth, request.uri.clone())]))
    }
}

fn main() {}
