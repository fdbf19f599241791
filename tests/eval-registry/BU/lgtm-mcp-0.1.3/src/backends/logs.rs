use std::time::Duration;

use reqwest::Client;
use serde::Deserialize;
use thiserror::Error;
use tokio_retry::strategy::{jitter, ExponentialBackoff};
use tokio_retry::Retry;
use tracing::warn;

#[derive(Debug, Error)]
pub enum LogsError {
    #[error("HTTP request failed: {0}")]
    Http(#[from] reqwest::Error),
    #[error("Loki error: {0}")]
    Loki(String),
}

#[derive(Debug, Deserialize)]
struct LokiResponse {
    status: String,
    data: LokiData,
}

#[derive(Debug, Deserialize)]
struct LokiData {
    result: Vec<LokiStream>,
}

#[derive(Debug, Deserialize)]
struct LokiStream {
    stream: std::collections::HashMap<String, String>,
    values: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub struct LogEntry {
    pub timestamp_ns: u64,
    pub message: String,
    pub trace_id: Option<String>,
    pub level: Option<String>,
}

pub struct LokiClient {
    client: Client,
    base_url: String,
    token: String,
}

impl LokiClient {
    pub fn new(client: Client, base_url: String, token: String) -> Self {
        Self { client, base_url, token }
    }

    async fn query_range_raw(
        &self,
        logql: &str,
        start_ns: u64,
        end_ns: u64,
        limit: u32,
    ) -> Result<Vec<LokiStream>, LogsError> {
        let url = format!("{}/loki/api/v1/query_range", self.base_url);
        let retry_strategy = ExponentialBackoff::from_millis(100)
            .max_delay(Duration::from_secs(5))
            .map(jitter)
            .take(3);

        let result = Retry::spawn(retry_strategy, || async {
            let mut req = self.client.get(&url).query(&[
                ("query", logql),
                ("start", &start_ns.to_string()),
                ("end", &end_ns.to_string()),
                ("limit", &limit.to_string()),
                ("direction", "backward"),
            ]);
            if !self.token.is_empty() {
                req = req.bearer_auth(&self.token);
            }
            req.send().await.map_err(|e| {
                warn!("Loki request failed: {e}");
                e
            })
        })
        .await?;

        let resp: LokiResponse = result.json().await?;
        if resp.status != "success" {
            return Err(LogsError::Loki("non-success status".to_owned()));
        }
        Ok(resp.data.result)
    }

    pub async fn error_logs(
        &self,
        service: &str,
        window_minutes: u32,
    ) -> Result<Vec<LogEntry>, LogsError> {
        let (start_ns, end_ns) = window_ns(window_minutes);
        let logql = format!(
            "{{service=\"{service}\"}} |= \"error\" | logfmt | level=~\"error|ERROR|Error\""
        );
        let streams = self.query_range_raw(&logql, start_ns, end_ns, 100).await?;
        Ok(parse_entries(streams))
    }

    pub async fn logs_containing_error_id(
        &self,
        error_id: &str,
    ) -> Result<Vec<LogEntry>, LogsError> {
        let (start_ns, end_ns) = window_ns(60 * 24);
        let logql = format!("{{}} |= \"{error_id}\"");
        let streams = self.query_range_raw(&logql, start_ns, end_ns, 20).await?;
        Ok(parse_entries(streams))
    }
}

fn parse_entries(streams: Vec<LokiStream>) -> Vec<LogEntry> {
    let mut entries = Vec::new();
    for stream in streams {
        for (ts_str, msg) in &stream.values {
            let timestamp_ns = ts_str.parse::<u64>().unwrap_or(0);
            let trace_id = extract_trace_id(msg);
            let level = extract_level(msg, &stream.stream);
            entries.push(LogEntry {
                timestamp_ns,
                message: msg.clone(),
                trace_id,
                level,
            });
        }
    }
    entries.sort_by(|a, b| b.timestamp_ns.cmp(&a.timestamp_ns));
    entries
}

fn extract_trace_id(msg: &str) -> Option<String> {
    for keyword in &["traceID=", "trace_id=", "traceId=", "TraceID="] {
        if let Some(pos) = msg.find(keyword) {
            let rest = &msg[pos + keyword.len()..];
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '"' || c == ',')
                .unwrap_or(rest.len());
            let candidate = &rest[..end];
            if !candidate.is_empty() {
                return Some(candidate.to_owned());
            }
        }
    }
    None
}

fn extract_level(msg: &str, labels: &std::collections::HashMap<String, String>) -> Option<String> {
    if let Some(level) = labels.get("level") {
        return Some(level.clone());
    }
    for keyword in &["level=error", "level=ERROR", "\"level\":\"error\"", "ERROR"] {
        if msg.contains(keyword) {
            return Some("error".to_owned());
        }
    }
    if msg.contains("WARN") || msg.contains("warn") {
        return Some("warn".to_owned());
    }
    None
}

fn window_ns(window_minutes: u32) -> (u64, u64) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let end_ns = now.as_nanos() as u64;
    let start_ns = end_ns.saturating_sub((window_minutes as u64) * 60 * 1_000_000_000);
    (start_ns, end_ns)
}
