//! relaydesk: an MCP server in front of the Relay helpdesk REST API.
//!
//! Tools read and change tickets, comments and queues; reply drafts are kept
//! in memory behind short-lived handles.

mod args;
mod client;
mod config;
mod drafts;
mod error;
mod handler;
mod schemas;
mod tools;

use rmcp::{ServiceExt, transport::stdio};
use tracing_subscriber::EnvFilter;

use crate::{client::RelayClient, config::Config, handler::RelayDesk};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();

    let cfg = Config::from_env()?;
    let client = match cfg.token.clone() {
        Some(token) => Some(RelayClient::new(cfg.api_base.clone(), token, cfg.timeout)?),
        None => {
            tracing::warn!("RELAY_TOKEN is not set: every tool call will be refused");
            None
        }
    };

    let server = RelayDesk::new(cfg, client);
    let running = server.serve(stdio()).await?;
    running.waiting().await?;
    Ok(())
}
