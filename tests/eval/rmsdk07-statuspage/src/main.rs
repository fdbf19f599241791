mod api;
mod handler;
mod tools;

use rust_mcp_sdk::error::SdkResult;
use rust_mcp_sdk::mcp_server::server_runtime_core;
use rust_mcp_sdk::schema::{
    Implementation, InitializeResult, ServerCapabilities, ServerCapabilitiesResources,
    ServerCapabilitiesTools, LATEST_PROTOCOL_VERSION,
};
use rust_mcp_sdk::{McpServer, StdioTransport, TransportOptions};

use crate::api::StatusApi;
use crate::handler::StatusHandler;

#[tokio::main]
async fn main() -> SdkResult<()> {
    let page_id = std::env::var("STATUSPAGE_PAGE_ID").expect("STATUSPAGE_PAGE_ID is set");
    let token = std::env::var("STATUSPAGE_TOKEN").expect("STATUSPAGE_TOKEN is set");
    let api = StatusApi::new("https://api.statuspage.io/v1", &page_id, &token);

    let server_details = InitializeResult {
        server_info: Implementation {
            name: "statuspage".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            title: Some("Statuspage incidents".to_string()),
        },
        capabilities: ServerCapabilities {
            tools: Some(ServerCapabilitiesTools { list_changed: None }),
            resources: Some(ServerCapabilitiesResources {
                list_changed: None,
                subscribe: None,
            }),
            ..Default::default()
        },
        meta: None,
        instructions: Some("Incident ids look like `p31zjtct2jer`.".to_string()),
        protocol_version: LATEST_PROTOCOL_VERSION.to_string(),
    };

    let transport = StdioTransport::new(TransportOptions::default())?;
    let server = server_runtime_core::create_server(server_details, transport, StatusHandler::new(api));
    server.start().await
}
