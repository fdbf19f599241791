//! The `ServerHandler`: hand-written tool dispatch and ticket resources.

use std::sync::Arc;

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler,
    model::{
        AnnotateAble, CallToolRequestMethod, CallToolRequestParams, CallToolResponse, ErrorCode,
        Implementation, ListResourcesResult, ListToolsResult, PaginatedRequestParams, RawResource,
        ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents,
        ServerCapabilities, ServerConfig,
    },
    service::RequestContext,
};
use serde_json::json;

use crate::{
    client::{ApiError, RelayClient},
    config::Config,
    drafts::{self, DraftStore},
    schemas, tools,
};

const TICKET_URI: &str = "relay://tickets/";
const QUEUE_URI: &str = "relay://queues/";

#[derive(Clone)]
pub struct RelayDesk {
    config: Arc<Config>,
    client: Option<RelayClient>,
    drafts: Arc<DraftStore>,
}

impl RelayDesk {
    pub fn new(config: Config, client: Option<RelayClient>) -> Self {
        Self {
            config: Arc::new(config),
            client,
            drafts: Arc::new(DraftStore::default()),
        }
    }

    fn client(&self) -> Result<&RelayClient, McpError> {
        self.client
            .as_ref()
            .ok_or_else(|| McpError::internal_error("relaydesk has no Relay API token (set RELAY_TOKEN)", None))
    }
}

impl ServerHandler for RelayDesk {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_server_info(Implementation::new("relaydesk", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "Relay helpdesk tools. Default queue: {}. Reply drafts expire after 30 minutes.",
                self.config.default_queue
            ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(schemas::all_tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let client = self.client()?;
        let args = request.arguments.clone().unwrap_or_default();
        let result = match request.name.as_ref() {
            "get_ticket" => tools::get_ticket(client, &args).await,
            "list_tickets" => tools::list_tickets(client, &args).await,
            "create_ticket" => tools::create_ticket(client, &args).await,
            "update_ticket_status" => tools::update_ticket_status(client, &args).await,
            "add_comment" => tools::add_comment(client, &args).await,
            "assign_ticket" => tools::assign_ticket(client, &args).await,
            "list_queues" => tools::list_queues(client).await,
            "apply_macro" => tools::apply_macro(client, &args).await,
            "close_ticket" => tools::close_ticket(client, &args, &context).await,
            "summarize_ticket" => tools::summarize_ticket(client, &args, &context).await,
            "search_tickets" => tools::search_tickets(client, &args).await,
            "sla_report" => tools::sla_report(client, &args).await,
            name if name.starts_with("draft_") => drafts::dispatch(&self.drafts, client, name, &args).await,
            _ => return Err(McpError::method_not_found::<CallToolRequestMethod>()),
        };
        result.map(Into::into)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let client = self.client()?;
        let queues = client
            .list_queues()
            .await
            .map_err(|e| McpError::internal_error(format!("listing queues: {e}"), None))?;
        let resources = queues
            .into_iter()
            .map(|q| RawResource::new(format!("{QUEUE_URI}{}", q.name), format!("Queue {}", q.name)).no_annotation())
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let client = self.client()?;
        let uri = request.uri.as_str();
        let text = if let Some(id) = uri.strip_prefix(TICKET_URI) {
            match client.get_ticket(id).await {
                Ok(t) => serde_json::to_string_pretty(&t).map_err(|e| McpError::internal_error(e.to_string(), None))?,
                Err(ApiError::NotFound(_)) => {
                    return Err(McpError::invalid_params(format!("no ticket at {uri}"), Some(json!({ "uri": uri }))));
                }
                Err(e) => return Err(McpError::internal_error(format!("reading {uri}: {e}"), None)),
            }
        } else if let Some(name) = uri.strip_prefix(QUEUE_URI) {
            let page = client
                .list_tickets(name, Some("open"), 50)
                .await
                .map_err(|e| McpError::internal_error(format!("reading {uri}: {e}"), None))?;
            serde_json::to_string_pretty(&page).map_err(|e| McpError::internal_error(e.to_string(), None))?
        } else {
            return Err(McpError::new(ErrorCode(-32002), format!("unknown resource {uri}"), Some(json!({ "uri": uri }))));
        };
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, uri)]).into())
    }
}
