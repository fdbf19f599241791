//! Hardcover MCP server — stdio transport entry point.
//!
//! stdout is the JSON-RPC protocol channel; all logging goes to stderr.

mod client;
mod server;
mod slate;
mod tools;
mod types;

use rmcp::{transport::stdio, ServiceExt};

use crate::server::HardcoverServer;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();

    let token = std::env::var("HARDCOVER_API_TOKEN").map_err(|_| {
        anyhow::anyhow!(
            "HARDCOVER_API_TOKEN is not set. Get a token at \
             https://hardcover.app/account/api (expires yearly, resets Jan 1) \
             and set it in your MCP client config."
        )
    })?;

    let service = HardcoverServer::new(token)?
        .serve(stdio())
        .await
        .inspect_err(|e| tracing::error!("serving error: {:?}", e))?;

    service.waiting().await?;
    Ok(())
}
