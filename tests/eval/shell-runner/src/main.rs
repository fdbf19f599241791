use rmcp::{transport::stdio, ServiceExt};
use shell_runner_mcp::{config::Config, server::ShellServer};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let path = std::env::var("SHELL_RUNNER_CONFIG").unwrap_or_else(|_| "commands.toml".into());
    let config = Config::load(&path)?;
    tracing::info!(commands = config.commands.len(), "loaded {path}");
    let service = ShellServer::new(config).serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
