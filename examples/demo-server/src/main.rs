//! A note-taking MCP server (stdio) with the error-handling mistakes mcp-lint reports.
//!
//! `demo-server [DIR]` serves the notes in DIR (default: the current directory);
//! `demo-server --calculator` serves the hand-dispatched calculator instead.
//! Every deliberate mistake carries a comment naming the lint that reports it.

mod calculator;
mod notes;

use rmcp::{transport::stdio, ServiceExt};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arg = std::env::args().nth(1);
    if arg.as_deref() == Some("--calculator") {
        calculator::Calculator.serve(stdio()).await?.waiting().await?;
    } else {
        let dir = arg.map_or_else(std::env::current_dir, |d| Ok(d.into()))?;
        notes::Notes::new(dir).serve(stdio()).await?.waiting().await?;
    }
    Ok(())
}
