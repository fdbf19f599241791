//! HTTP client for the telemetry store (a Prometheus-compatible query API).

use std::time::Duration;

use chrono::{DateTime, Utc};
use reqwest::StatusCode;
use serde::Deserialize;

#[derive(Debug, thiserror::Error)]
pub enum MetricsError {
    #[error("request to telemetry store failed: {0}")]
    Http(#[from] reqwest::Error),
    #[error("telemetry store answered {0}: {1}")]
    Status(StatusCode, String),
    #[error("telemetry store rate limited us for {0} s")]
    RateLimited(u64),
    #[error("unexpected telemetry payload: {0}")]
    Decode(String),
}

#[derive(Debug, Clone, Copy, Deserialize, serde::Serialize)]
pub struct Sample {
    pub ts: i64,
    pub value: f64,
}

#[derive(Deserialize)]
struct QueryResponse {
    status: String,
    #[serde(default)]
    data: Option<QueryData>,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Deserialize)]
struct QueryData {
    result: Vec<Series>,
}

#[derive(Deserialize)]
struct Series {
    values: Vec<(f64, String)>,
}

pub struct MetricsClient {
    http: reqwest::Client,
    base_url: String,
    token: Option<String>,
}

impl MetricsClient {
    pub fn new(base_url: &str, token: Option<String>, timeout_secs: u64) -> Result<Self, MetricsError> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(timeout_secs))
            .user_agent(concat!("gridwatch/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(MetricsClient { http, base_url: base_url.trim_end_matches('/').to_string(), token })
    }

    /// Runs a range query and returns the first series.
    pub async fn range(
        &self,
        expr: &str,
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        step_secs: u64,
    ) -> Result<Vec<Sample>, MetricsError> {
        let mut req = self
            .http
            .get(format!("{}/api/v1/query_range", self.base_url))
            .query(&[
                ("query", expr.to_string()),
                ("start", start.timestamp().to_string()),
                ("end", end.timestamp().to_string()),
                ("step", step_secs.to_string()),
            ]);
        if let Some(token) = &self.token {
            req = req.bearer_auth(token);
        }
        let resp = req.send().await?;
        match resp.status() {
            StatusCode::TOO_MANY_REQUESTS => {
                let wait = resp
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(30);
                return Err(MetricsError::RateLimited(wait));
            }
            s if !s.is_success() => {
                let body = resp.text().await.unwrap_or_default();
                return Err(MetricsError::Status(s, body));
            }
            _ => {}
        }
        let body: QueryResponse = resp.json().await?;
        if body.status != "success" {
            return Err(MetricsError::Decode(body.error.unwrap_or_else(|| body.status.clone())));
        }
        let series = body
            .data
            .and_then(|d| d.result.into_iter().next())
            .map(|s| s.values)
            .unwrap_or_default();
        series
            .into_iter()
            .map(|(ts, v)| {
                v.parse::<f64>()
                    .map(|value| Sample { ts: ts as i64, value })
                    .map_err(|e| MetricsError::Decode(format!("sample {v:?}: {e}")))
            })
            .collect()
    }

    /// Latest value of an instant query, if the series exists.
    pub async fn latest(&self, expr: &str) -> Result<Option<f64>, MetricsError> {
        let end = Utc::now();
        let start = end - chrono::Duration::minutes(5);
        let samples = self.range(expr, start, end, 60).await?;
        Ok(samples.last().map(|s| s.value))
    }
}
