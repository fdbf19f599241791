use std::time::Duration;

use reqwest::Client;
use serde::Deserialize;
use thiserror::Error;
use tokio_retry::strategy::{jitter, ExponentialBackoff};
use tokio_retry::Retry;
use tracing::warn;

#[derive(Debug, Error)]
pub enum MetricsError {
    #[error("HTTP request failed: {0}")]
    Http(#[from] reqwest::Error),
    #[error("Prometheus error: {0}")]
    Prometheus(String),
    #[error("No data returned")]
    NoData,
}

#[derive(Debug, Deserialize)]
struct PrometheusResponse {
    status: String,
    data: Option<PrometheusData>,
    error: Option<String>,
}

#[derive(Debug, Deserialize)]
struct PrometheusData {
    result: Vec<PrometheusResult>,
}

#[derive(Debug, Deserialize)]
struct PrometheusResult {
    value: Option<(f64, String)>,
    values: Option<Vec<(f64, String)>>,
}

pub struct PrometheusClient {
    client: Client,
    base_url: String,
    token: String,
}

impl PrometheusClient {
    pub fn new(client: Client, base_url: String, token: String) -> Self {
        Self { client, base_url, token }
    }

    async fn query_range_raw(
        &self,
        query: &str,
        start: f64,
        end: f64,
        step: &str,
    ) -> Result<Vec<PrometheusResult>, MetricsError> {
        let url = format!("{}/api/v1/query_range", self.base_url);
        let retry_strategy = ExponentialBackoff::from_millis(100)
            .max_delay(Duration::from_secs(5))
            .map(jitter)
            .take(3);

        let result = Retry::spawn(retry_strategy, || async {
            let mut req = self.client.get(&url).query(&[
                ("query", query),
                ("start", &start.to_string()),
                ("end", &end.to_string()),
                ("step", step),
            ]);
            if !self.token.is_empty() {
                req = req.bearer_auth(&self.token);
            }
            req.send().await.map_err(|e| {
                warn!("Prometheus request failed: {e}");
                e
            })
        })
        .await?;

        let resp: PrometheusResponse = result.json().await?;
        if resp.status != "success" {
            return Err(MetricsError::Prometheus(
                resp.error.unwrap_or_else(|| "unknown error".to_owned()),
            ));
        }
        Ok(resp.data.map(|d| d.result).unwrap_or_default())
    }

    async fn query_instant_raw(&self, query: &str, time: f64) -> Result<Vec<PrometheusResult>, MetricsError> {
        let url = format!("{}/api/v1/query", self.base_url);
        let retry_strategy = ExponentialBackoff::from_millis(100)
            .max_delay(Duration::from_secs(5))
            .map(jitter)
            .take(3);

        let result = Retry::spawn(retry_strategy, || async {
            let mut req = self.client.get(&url).query(&[
                ("query", query),
                ("time", &time.to_string()),
            ]);
            if !self.token.is_empty() {
                req = req.bearer_auth(&self.token);
            }
            req.send().await.map_err(|e| {
                warn!("Prometheus instant query failed: {e}");
                e
            })
        })
        .await?;

        let resp: PrometheusResponse = result.json().await?;
        if resp.status != "success" {
            return Err(MetricsError::Prometheus(
                resp.error.unwrap_or_else(|| "unknown error".to_owned()),
            ));
        }
        Ok(resp.data.map(|d| d.result).unwrap_or_default())
    }

    pub async fn latency_percentiles(
        &self,
        service: &str,
        window_minutes: u32,
    ) -> Result<LatencyStats, MetricsError> {
        let now = unix_now();
        let start = now - (window_minutes as f64 * 60.0);
        let step = step_for_window(window_minutes);

        let queries = [
            ("p50", format!("histogram_quantile(0.50, rate(http_request_duration_seconds_bucket{{service=\"{service}\"}}[5m]))")),
            ("p95", format!("histogram_quantile(0.95, rate(http_request_duration_seconds_bucket{{service=\"{service}\"}}[5m]))")),
            ("p99", format!("histogram_quantile(0.99, rate(http_request_duration_seconds_bucket{{service=\"{service}\"}}[5m]))")),
        ];

        let mut p50: Option<f64> = None;
        let mut p95: Option<f64> = None;
        let mut p99: Option<f64> = None;

        for (label, query) in &queries {
            let results = self.query_range_raw(query, start, now, step).await?;
            if let Some(series) = results.into_iter().next() {
                let last = series
                    .values
                    .unwrap_or_default()
                    .into_iter()
                    .last()
                    .and_then(|(_, v)| v.parse::<f64>().ok());
                match *label {
                    "p50" => p50 = last,
                    "p95" => p95 = last,
                    "p99" => p99 = last,
                    _ => {}
                }
            }
        }

        Ok(LatencyStats {
            p50_ms: p50.map(|v| v * 1000.0),
            p95_ms: p95.map(|v| v * 1000.0),
            p99_ms: p99.map(|v| v * 1000.0),
        })
    }

    pub async fn current_error_rate(
        &self,
        service: &str,
        window_minutes: u32,
    ) -> Result<f64, MetricsError> {
        let now = unix_now();
        let range = format!("{}m", window_minutes);
        let query = format!(
            "sum(rate(http_requests_total{{service=\"{service}\",status=~\"5..\"}}[{range}])) / sum(rate(http_requests_total{{service=\"{service}\"}}[{range}]))"
        );
        let results = self.query_instant_raw(&query, now).await?;
        results
            .into_iter()
            .next()
            .and_then(|r| r.value)
            .and_then(|(_, v)| v.parse::<f64>().ok())
            .ok_or(MetricsError::NoData)
    }

    pub async fn request_rate_current(
        &self,
        service: &str,
        window_minutes: u32,
    ) -> Result<f64, MetricsError> {
        let now = unix_now();
        let range = format!("{}m", window_minutes);
        let query = format!(
            "sum(rate(http_requests_total{{service=\"{service}\"}}[{range}]))"
        );
        let results = self.query_instant_raw(&query, now).await?;
        results
            .into_iter()
            .next()
            .and_then(|r| r.value)
            .and_then(|(_, v)| v.parse::<f64>().ok())
            .ok_or(MetricsError::NoData)
    }
}

#[derive(Debug, Clone)]
pub struct LatencyStats {
    pub p50_ms: Option<f64>,
    pub p95_ms: Option<f64>,
    pub p99_ms: Option<f64>,
}

fn unix_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs_f64()
}

fn step_for_window(window_minutes: u32) -> &'static str {
    if window_minutes <= 15 {
        "30s"
    } else if window_minutes <= 60 {
        "1m"
    } else if window_minutes <= 360 {
        "5m"
    } else {
        "15m"
    }
}
