//! The MCP server type and its `ServerHandler` impl.

use std::sync::Arc;

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler,
    handler::server::router::{prompt::PromptRouter, tool::ToolRouter},
    model::{
        AnnotateAble, Implementation, ListResourcesResult, PaginatedRequestParams, RawResource,
        ReadResourceRequestParams, ReadResourceResult, ResourceContents, ServerCapabilities,
        ServerInfo,
    },
    prompt_handler,
    service::RequestContext,
    tool_handler,
};

use crate::store::Store;

#[derive(Clone)]
pub struct QuayLog {
    pub(crate) store: Arc<Store>,
    tool_router: ToolRouter<QuayLog>,
    prompt_router: PromptRouter<QuayLog>,
}

impl QuayLog {
    pub fn new(store: Arc<Store>) -> Self {
        Self {
            store,
            tool_router: Self::berth_router() + Self::call_router(),
            prompt_router: Self::prompt_router(),
        }
    }
}

const BERTH_URI_PREFIX: &str = "quaylog://berths/";

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
impl ServerHandler for QuayLog {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("quaylog", env!("CARGO_PKG_VERSION")))
        .with_instructions(
            "Harbour vessel log: look up berths, register vessel calls, record cargo manifests.",
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let berths = self.store.list_berths()?;
        let resources = berths
            .into_iter()
            .map(|b| {
                RawResource::new(format!("{BERTH_URI_PREFIX}{}", b.code), format!("Berth {}", b.code))
                    .no_annotation()
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let Some(code) = request.uri.strip_prefix(BERTH_URI_PREFIX) else {
            return Err(McpError::resource_not_found(
                format!("no resource at {}", request.uri),
                None,
            ));
        };
        let plan = self.store.berth_plan(code)?;
        let text = serde_json::to_string_pretty(&plan)
            .map_err(|e| McpError::internal_error(format!("encoding berth plan: {e}"), None))?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]))
    }
}
