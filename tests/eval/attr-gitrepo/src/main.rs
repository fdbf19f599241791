mod git;
mod server;

use std::path::PathBuf;

use mcp_attr::server::serve_stdio;
use mcp_attr::Result;

use crate::server::GitInspector;

#[tokio::main]
async fn main() -> Result<()> {
    let root = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    if std::process::Command::new("git").arg("--version").output().is_err() {
        eprintln!("git-inspector-mcp needs `git` on PATH");
        std::process::exit(2);
    }
    serve_stdio(GitInspector::new(root)).await?;
    Ok(())
}
