use rmcp::{transport::stdio, ServiceExt};
use tz_clock_mcp::Clock;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let home = std::env::var("CLOCK_HOME_TZ").unwrap_or_else(|_| "UTC".into());
    let clock = Clock::new(&home).map_err(|e| anyhow::anyhow!(e))?;
    let service = clock.serve(stdio()).await.inspect_err(|e| {
        tracing::error!("failed: {e}");
    })?;
    service.waiting().await?;
    Ok(())
}
