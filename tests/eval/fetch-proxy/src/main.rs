use fetch_proxy_mcp::{server::FetchServer, upstream::Upstream};
use rmcp::{transport::stdio, ServiceExt};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let upstream = match std::env::var("SEARCH_SERVER_CMD") {
        Ok(cmd) => Some(Upstream::connect(&cmd).await?),
        Err(_) => None,
    };
    let service = FetchServer::new(upstream).serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
