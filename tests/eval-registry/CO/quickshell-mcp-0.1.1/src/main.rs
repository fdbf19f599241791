mod cache;
mod github;
mod render;
mod tools;
mod types;

use anyhow::Result;
use rmcp::{transport::stdio, ServiceExt};
use tools::QuickshellTools;

#[tokio::main]
async fn main() -> Result<()> {
    eprintln!("Quickshell MCP Server 启动中...");

    let service = QuickshellTools::new().serve(stdio()).await?;

    eprintln!("Quickshell MCP Server 已就绪");
    service.waiting().await?;

    Ok(())
}
