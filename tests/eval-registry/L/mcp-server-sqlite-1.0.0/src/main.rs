use anyhow::Context;
use clap::Parser;
use mcp_server_sqlite::cli::Cli;

#[tokio::main(flavor = "multi_thread")]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info".into()),
        )
        .init();

    let cli = Cli::try_parse().context("Failed to parse the CLI arguments")?;

    let transport = rmcp::transport::io::stdio();
    let service =
        mcp_server_sqlite::orchestrator::serve(cli, transport).await?;
    service.waiting().await?;

    Ok(())
}
