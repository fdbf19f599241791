//! ledgerline: an MCP server over a small double-entry ledger.

mod args;
mod config;
mod error;
mod export;
mod limiter;
mod resources;
mod store;
mod tools;

use std::sync::Arc;

use pmcp::{Error, Server};
use tracing_subscriber::EnvFilter;

use crate::config::{Config, CONFIG};
use crate::limiter::PostLimiter;
use crate::resources::LedgerResources;
use crate::store::Ledger;
use crate::tools::ToolCtx;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();

    let cfg = Config::from_env()?;
    CONFIG
        .set(cfg.clone())
        .map_err(|_| Error::internal("configuration was initialised twice"))?;

    let ledger = Arc::new(Ledger::new());
    let ctx = ToolCtx {
        ledger: ledger.clone(),
        limiter: Arc::new(PostLimiter::new(cfg.max_posts_per_minute)),
    };
    let hidden = std::env::var("LEDGER_HIDDEN_ACCOUNTS")
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();

    let builder = Server::builder()
        .name(cfg.server_name.clone())
        .version(env!("CARGO_PKG_VERSION"))
        .resources(LedgerResources::new(ledger, hidden));
    let server = tools::register(builder, &ctx).build()?;

    tracing::info!(name = %cfg.server_name, "ledgerline ready on stdio");
    server.run_stdio().await?;
    Ok(())
}
