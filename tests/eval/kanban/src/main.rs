use kanban_mcp::{db::Board, server::KanbanServer};
use rmcp::{transport::stdio, ServiceExt};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let url = std::env::var("KANBAN_DB").unwrap_or_else(|_| "sqlite://kanban.db?mode=rwc".into());
    let db = Board::connect(&url).await?;
    let service = KanbanServer::new(db).serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
