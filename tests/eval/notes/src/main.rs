use notebooks_mcp::server::NotesServer;
use rmcp::{transport::stdio, ServiceExt};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let export_dir = std::env::var("NOTES_EXPORT_DIR").unwrap_or_else(|_| "exports".into());
    let service = NotesServer::new(export_dir.into()).serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
