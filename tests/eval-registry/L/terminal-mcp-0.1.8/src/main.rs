mod config;
mod service;
mod shell_registry;
mod security;
mod utils;

use std::env::args;
use std::sync::LazyLock;
use anyhow::Result;
use rmcp::{transport::stdio, ServiceExt};
use uuid::Uuid;
use service::TerminalMcpService;

use crate::security::audit::{audit_log, export_logs, init_db, ExportFilter};

static GLOBAL_ID: LazyLock<Uuid> = LazyLock::new(|| Uuid::new_v4() );


#[tokio::main]
async fn main() -> Result<()> {
    init_db().await;
    audit_log("server_start", None, None, None, Ok("shell mcp service starting")).await;

    if args().any(|x| x == "log") {
        export_logs(ExportFilter::default()).await?;
        return Ok(());
    }

    let server = TerminalMcpService::new().serve(stdio()).await?;

    server.waiting().await?;
    audit_log("server_stop", None, None, None, Ok("shell mcp service stopped")).await;

    Ok(())
}