use calc_mcp::server::Calculator;
use rmcp::{transport::stdio, ServiceExt};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let keep_history = std::env::var_os("CALC_HISTORY").is_some();
    let service = Calculator::new(keep_history).serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
