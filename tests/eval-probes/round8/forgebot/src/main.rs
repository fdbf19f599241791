//! forgebot: drive the CI/build farm from an MCP client.

mod api;
mod config;
mod error;
mod runner;
mod tools;

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use tools::{ForgeBot, RunnerInfo};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();

    let cfg = config::ForgeConfig::from_env()?;
    let api = api::ForgeClient::new(&cfg.api_base, cfg.token.clone(), cfg.http_timeout)?;
    let runners = load_runner_table(&cfg.workspace);
    config::install(cfg);

    let bot = ForgeBot {
        api: Arc::new(api),
        runners: Arc::new(RwLock::new(runners)),
    };
    bot.run_stdio().await?;
    Ok(())
}

/// Runner inventory is kept in `.forge/runners.json` of the workspace.
fn load_runner_table(workspace: &std::path::Path) -> HashMap<String, RunnerInfo> {
    let path = workspace.join(".forge/runners.json");
    let Ok(raw) = std::fs::read_to_string(&path) else {
        tracing::warn!("no runner table at {}", path.display());
        return HashMap::new();
    };
    let ids: Vec<String> = serde_json::from_str(&raw).unwrap_or_default();
    ids.into_iter()
        .map(|id| {
            let info = RunnerInfo {
                id: id.clone(),
                tags: vec![],
                paused: false,
                busy_jobs: 0,
            };
            (id, info)
        })
        .collect()
}
