use clap::Parser;

#[derive(Parser)]
#[command(
    name = "task-mcp",
    version,
    about = "Agent-safe task runner MCP server"
)]
struct Cli {
    /// Start as MCP server (stdio transport).
    #[arg(long)]
    mcp: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if cli.mcp {
        task_mcp::mcp::run().await
    } else {
        eprintln!("task-mcp: use --mcp to start as MCP server");
        std::process::exit(1);
    }
}
