use anyhow::Result;
use clap::Parser;
use cnb_api::client::CnbClient;
use cnb_core::auth;
use cnb_core::config::{Config, DEFAULT_DOMAIN, DEFAULT_SCHEME};
use cnb_mcp::CnbMcpServer;
use rmcp::ServiceExt;
use rmcp::transport::io::stdio;

#[derive(Parser)]
#[command(
    name = "cnb-rs-mcp",
    version,
    about = "CNB MCP Server — Rust-native MCP server for the CNB platform (cnb.cool)"
)]
struct Args {
    /// CNB domain [default: cnb.cool]
    #[arg(long, env = "CNB_DOMAIN")]
    domain: Option<String>,
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();

    rustls::crypto::ring::default_provider()
        .install_default()
        .ok();

    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();

    let config = Config::load().unwrap_or_default();
    let domain = args
        .domain
        .as_deref()
        .or(config.domain.as_deref())
        .unwrap_or(DEFAULT_DOMAIN);

    let token = std::env::var("CNB_TOKEN")
        .ok()
        .filter(|t| !t.is_empty())
        .or_else(|| auth::get_token(domain, &config))
        .unwrap_or_default();

    let base_url = format!("{DEFAULT_SCHEME}://api.{domain}");
    let base_web_url = format!("{DEFAULT_SCHEME}://{domain}/");
    let client = CnbClient::new(&base_url, &base_web_url, &token, "")?;

    let server = CnbMcpServer::new(client);

    tracing::info!("cnb-rs-mcp starting (domain={domain})");

    let service = server.serve(stdio()).await?;
    service.waiting().await?;

    Ok(())
}
