use rmcp::{transport::stdio, ServiceExt};
use sqlite_query_mcp::{db::Db, server::SqlServer};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let path = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: sqlite-query-mcp <database.sqlite>"))?;
    let db = Db::open(&path)?;
    tracing::info!(%path, "serving database");
    let service = SqlServer::new(db).serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
