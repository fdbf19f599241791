mod handler;
mod sandbox;
mod tools;

use std::path::PathBuf;
use std::sync::Arc;

use rust_mcp_sdk::error::SdkResult;
use rust_mcp_sdk::mcp_server::{server_runtime, McpServerOptions};
use rust_mcp_sdk::schema::{
    Implementation, ServerCapabilities, ServerCapabilitiesPrompts, ServerCapabilitiesResources,
    ServerCapabilitiesTools,
};
use rust_mcp_sdk::{McpServer, ServerDetails, StdioTransport, ToMcpServerHandler, TransportOptions};

use crate::handler::WorkspaceHandler;
use crate::sandbox::Sandbox;

#[tokio::main]
async fn main() -> SdkResult<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();

    let roots: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let roots = if roots.is_empty() {
        vec![std::env::current_dir().expect("the current directory is readable")]
    } else {
        roots
    };
    let sandbox = Arc::new(Sandbox::new(roots));

    let server_details = ServerDetails {
        server_info: Implementation {
            name: "workspace-files".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            title: Some("Workspace files".into()),
            description: Some("Read, search and edit files inside the configured roots".into()),
            icons: vec![],
            website_url: None,
        },
        capabilities: ServerCapabilities {
            tools: Some(ServerCapabilitiesTools { list_changed: None }),
            resources: Some(ServerCapabilitiesResources::default()),
            prompts: Some(ServerCapabilitiesPrompts::default()),
            ..Default::default()
        },
        instructions: Some(format!(
            "Paths are relative to one of the workspace roots: {}",
            sandbox.describe_roots()
        )),
        meta: None,
    };

    let transport = StdioTransport::new(TransportOptions::default())?;
    let handler = WorkspaceHandler::new(sandbox).to_mcp_server_handler();
    let server = server_runtime::create_server(McpServerOptions {
        transport,
        handler,
        server_details,
        message_observer: None,
    });
    server.start().await
}
