mod db;
mod server;

use turbomcp::prelude::*;

use crate::server::SqliteExplorer;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt().with_writer(std::io::stderr).init();
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: sqlite-explorer-mcp <database.sqlite> [--read-write]")?;
    let read_only = !std::env::args().any(|a| a == "--read-write");
    let explorer = SqliteExplorer::open(&path, read_only)?;
    explorer.run_stdio().await?;
    Ok(())
}
