use std::path::PathBuf;

use rmcp::{transport::stdio, ServiceExt};
use workspace_fs_mcp::{sandbox::Sandbox, server::FsServer};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let root: PathBuf = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or(std::env::current_dir()?);
    let read_only = std::env::var_os("FS_READ_ONLY").is_some();
    let sandbox = Sandbox::new(&root)?;
    let service = FsServer::new(sandbox, read_only).serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
