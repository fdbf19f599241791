//! tidepool: an MCP server for tide-gauge and buoy observations.

mod cache;
mod client;
mod config;
mod error;
mod resources;
mod tools;
mod validate;

use std::sync::Arc;

use tower_mcp::{BoxError, McpRouter, StdioTransport};
use tracing_subscriber::EnvFilter;

use crate::client::TidesClient;
use crate::config::Config;
use crate::tools::App;

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();

    let cfg = config::install(Config::from_env()?)
        .map_err(|_| "configuration installed twice")?;
    let client = TidesClient::new(cfg)?;
    let app = Arc::new(App { client, cfg });

    let mut router = McpRouter::new()
        .server_info("tidepool", env!("CARGO_PKG_VERSION"))
        .instructions(
            "Tide stations use seven-digit ids (find_stations looks them up); \
             dates are YYYY-MM-DD in the station's local time.",
        )
        .resource_template(resources::station_template(app.clone()));
    for tool in tools::all(app.clone()) {
        router = router.tool(tool);
    }

    tracing::info!(api = %cfg.api_base, "tidepool ready on stdio");
    StdioTransport::new(router).run().await?;
    Ok(())
}
