use clap::Parser;
use std::sync::Arc;
use tracing_subscriber::EnvFilter;

mod backends;
mod domain;
mod tools;
mod transport;

#[derive(Parser, Debug)]
#[command(name = "mcp-grafana", about = "MCP server for Grafana observability stack")]
struct Args {
    #[arg(long, env = "PROMETHEUS_URL", default_value = "http://localhost:9090")]
    prometheus_url: String,

    #[arg(long, env = "LOKI_URL", default_value = "http://localhost:3100")]
    loki_url: String,

    #[arg(long, env = "TEMPO_URL", default_value = "http://localhost:3200")]
    tempo_url: String,

    #[arg(long, env = "PROMETHEUS_TOKEN", default_value = "")]
    prometheus_token: String,

    #[arg(long, env = "LOKI_TOKEN", default_value = "")]
    loki_token: String,

    #[arg(long, env = "TEMPO_TOKEN", default_value = "")]
    tempo_token: String,

    #[arg(long, env = "REQUEST_TIMEOUT_SECS", default_value_t = 30)]
    request_timeout_secs: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();

    let args = Args::parse();

    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(args.request_timeout_secs))
        .build()?;

    let metrics_client = Arc::new(backends::metrics::PrometheusClient::new(
        client.clone(),
        args.prometheus_url,
        args.prometheus_token,
    ));

    let logs_client = Arc::new(backends::logs::LokiClient::new(
        client.clone(),
        args.loki_url,
        args.loki_token,
    ));

    let traces_client = Arc::new(backends::traces::TempoClient::new(
        client,
        args.tempo_url,
        args.tempo_token,
    ));

    let domain = Arc::new(domain::DomainService::new(
        metrics_client,
        logs_client,
        traces_client,
    ));

    let registry = tools::ToolRegistry::new(domain);
    transport::stdio::run(registry).await
}
