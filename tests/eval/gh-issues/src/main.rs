use anyhow::Context;
use gh_issues_mcp::{github::GitHub, server::GhServer};
use rmcp::{transport::stdio, ServiceExt};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();

    let token = std::env::var("GITHUB_TOKEN").context("GITHUB_TOKEN must be set")?;
    let default_repo = std::env::var("GH_DEFAULT_REPO").ok();
    let read_only = std::env::var("GH_READ_ONLY").is_ok_and(|v| v == "1");

    let server = GhServer::new(GitHub::new(token)?, default_repo, read_only);
    let service = server.serve(stdio()).await.inspect_err(|e| {
        tracing::error!("failed to start: {e}");
    })?;
    service.waiting().await?;
    Ok(())
}
