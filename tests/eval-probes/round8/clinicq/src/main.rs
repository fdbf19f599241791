//! clinicq: an MCP server for the front desk of a family practice.

mod config;
mod db;
mod error;
mod handler;
mod service;
mod tools;

use handler::ClinicHandler;
use rust_mcp_sdk::error::SdkResult;
use rust_mcp_sdk::mcp_server::{server_runtime, McpServerOptions, ServerRuntime};
use rust_mcp_sdk::schema::{
    Implementation, ServerCapabilities, ServerCapabilitiesResources, ServerCapabilitiesTools,
};
use rust_mcp_sdk::{McpServer, ServerDetails, StdioTransport, ToMcpServerHandler, TransportOptions};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[tokio::main]
async fn main() -> SdkResult<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();

    let cfg = match config::ClinicConfig::from_env() {
        Ok(cfg) => cfg,
        Err(msg) => {
            eprintln!("clinicq: bad configuration: {msg}");
            std::process::exit(2);
        }
    };
    let svc = service::SchedulingService {
        db: db::AppointmentsDb::new(),
        opening_hour: cfg.opening_hour,
        closing_hour: cfg.closing_hour,
        slot_minutes: cfg.slot_minutes,
    };
    let clinic_name = cfg.clinic_name.clone();
    config::init(cfg).expect("configuration is initialised once");

    let server_details = ServerDetails {
        server_info: Implementation {
            name: "clinicq".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            title: Some(format!("{clinic_name} scheduling")),
            description: Some("Appointments and patient look-ups for the front desk".into()),
            icons: vec![],
            website_url: None,
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
        instructions: Some("Look patients up with find_patient before booking.".into()),
    };

    let handler = ClinicHandler {
        svc,
        maintenance: AtomicBool::new(false),
        state_key: std::env::var("CLINICQ_STATE_KEY").unwrap_or_else(|_| "dev".into()),
    };
    let transport = StdioTransport::new(TransportOptions::default())?;
    let server: Arc<ServerRuntime> = server_runtime::create_server(McpServerOptions {
        server_details,
        transport,
        handler: handler.to_mcp_server_handler(),
        message_observer: None,
    });
    if let Err(e) = server.start().await {
        eprintln!("clinicq stopped: {e}");
    }
    Ok(())
}
