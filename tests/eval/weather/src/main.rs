use rmcp::{transport::stdio, ServiceExt};
use weather_mcp::{api::OpenMeteo, health, server::WeatherServer};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let api = OpenMeteo::new(std::env::var("OPEN_METEO_URL").ok());
    if let Ok(addr) = std::env::var("HEALTH_ADDR") {
        tokio::spawn(health::serve(addr, api.clone()));
    }
    let service = WeatherServer::new(api).serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
