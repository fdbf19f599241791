//! A plain HTTP health endpoint for the container orchestrator (not MCP).

use axum::{extract::State, http::StatusCode, routing::get, Router};

use crate::api::OpenMeteo;

async fn health(State(api): State<OpenMeteo>) -> (StatusCode, &'static str) {
    if api.ping().await {
        (StatusCode::OK, "ok")
    } else {
        tracing::warn!("health check failed");
        (StatusCode::SERVICE_UNAVAILABLE, "something went wrong")
    }
}

pub async fn serve(addr: String, api: OpenMeteo) {
    let app = Router::new().route("/healthz", get(health)).with_state(api);
    match tokio::net::TcpListener::bind(&addr).await {
        Ok(listener) => {
            if let Err(e) = axum::serve(listener, app).await {
                tracing::error!("health server stopped: {e}");
            }
        }
        Err(e) => tracing::error!("failed: {e}"),
    }
}
