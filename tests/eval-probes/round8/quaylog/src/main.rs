//! quaylog: an MCP server over the harbour's berth and vessel-call log.
//!
//! Berths, vessel calls (arrivals/departures) and cargo manifests live in a
//! SQLite file. The server speaks MCP over stdio.

mod config;
mod error;
mod model;
mod prompts;
mod server;
mod store;
mod tools;
mod validate;

use std::sync::Arc;

use anyhow::Context;
use rmcp::{ServiceExt, transport::stdio};
use tracing_subscriber::EnvFilter;

use crate::{config::Config, server::QuayLog, store::Store};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();

    let cfg = Config::from_env().context("reading QUAYLOG_* configuration")?;
    tracing::info!(db = %cfg.db_path.display(), harbour = %cfg.harbour, "starting quaylog");

    let store = Store::open(&cfg.db_path)
        .with_context(|| format!("opening vessel log at {}", cfg.db_path.display()))?;
    config::install(cfg)?;

    let server = QuayLog::new(Arc::new(store));
    let service = server
        .serve(stdio())
        .await
        .inspect_err(|e| tracing::error!("serve error: {e:?}"))?;
    service.waiting().await?;
    Ok(())
}
