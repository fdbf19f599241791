//! gridwatch: an MCP server (streamable HTTP, JSON responses only) in front of the
//! distribution-grid asset registry and the telemetry store.

mod clients;
mod config;
mod content;
mod error;
mod rpc;
mod tools;

use std::net::SocketAddr;
use std::sync::{Arc, RwLock};

use axum::routing::{get, post};
use axum::Router;
use tokio::sync::OnceCell;
use tracing_subscriber::EnvFilter;

use crate::clients::db::GridDb;
use crate::clients::metrics::MetricsClient;
use crate::config::Config;
use crate::tools::alarms::AlarmCache;

/// Loaded once at start-up; tools read it through `config()`.
pub static CONFIG: OnceCell<Config> = OnceCell::const_new();

pub fn config() -> Option<&'static Config> {
    CONFIG.get()
}

/// Everything a request handler needs.
pub struct AppState {
    pub db: GridDb,
    pub metrics: Option<MetricsClient>,
    pub alarms: RwLock<AlarmCache>,
}

pub type SharedState = Arc<AppState>;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();

    let path = std::env::var("GRIDWATCH_CONFIG").unwrap_or_else(|_| "gridwatch.toml".into());
    let cfg = Config::load(&path)?;
    let bind: SocketAddr = cfg.server.bind.parse()?;

    let db = GridDb::open(&cfg.database.path)?;
    let metrics = match &cfg.metrics {
        Some(m) => Some(MetricsClient::new(&m.base_url, m.token.clone(), m.timeout_secs)?),
        None => {
            tracing::warn!("no [metrics] section: telemetry tools will be unavailable");
            None
        }
    };
    CONFIG
        .set(cfg)
        .map_err(|_| "configuration initialised twice")?;

    let state: SharedState = Arc::new(AppState {
        db,
        metrics,
        alarms: RwLock::new(AlarmCache::default()),
    });

    let app = Router::new()
        .route("/mcp", post(rpc::mcp_endpoint))
        .route("/healthz", get(|| async { "ok" }))
        .with_state(state);

    tracing::info!(%bind, "gridwatch listening");
    let listener = tokio::net::TcpListener::bind(bind).await?;
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
