use std::time::Duration;

use reqwest::Client;
use serde::Deserialize;
use thiserror::Error;
use tokio_retry::strategy::{jitter, ExponentialBackoff};
use tokio_retry::Retry;
use tracing::warn;

#[derive(Debug, Error)]
pub enum TracesError {
    #[error("HTTP request failed: {0}")]
    Http(#[from] reqwest::Error),
    #[error("Trace not found")]
    NotFound,
    #[error("Invalid trace data: {0}")]
    Parse(String),
}

#[derive(Debug, Deserialize)]
struct TempoTraceResponse {
    batches: Vec<ResourceSpanBatch>,
}

#[derive(Debug, Deserialize)]
struct ResourceSpanBatch {
    resource: Option<Resource>,
    #[serde(rename = "scopeSpans")]
    scope_spans: Option<Vec<ScopeSpans>>,
    #[serde(rename = "instrumentationLibrarySpans")]
    instrumentation_library_spans: Option<Vec<ScopeSpans>>,
}

#[derive(Debug, Deserialize)]
struct Resource {
    attributes: Option<Vec<KeyValue>>,
}

#[derive(Debug, Deserialize)]
struct ScopeSpans {
    spans: Option<Vec<RawSpan>>,
}

#[derive(Debug, Deserialize)]
struct RawSpan {
    #[serde(rename = "spanId")]
    span_id: String,
    #[serde(rename = "parentSpanId")]
    parent_span_id: Option<String>,
    name: String,
    #[serde(rename = "startTimeUnixNano")]
    start_time_unix_nano: String,
    #[serde(rename = "endTimeUnixNano")]
    end_time_unix_nano: String,
    status: Option<SpanStatus>,
}

#[derive(Debug, Deserialize)]
struct SpanStatus {
    code: Option<u32>,
}

#[derive(Debug, Deserialize)]
struct KeyValue {
    key: String,
    value: Option<AnyValue>,
}

#[derive(Debug, Deserialize)]
struct AnyValue {
    #[serde(rename = "stringValue")]
    string_value: Option<String>,
}

#[derive(Debug, Deserialize)]
struct TempoSearchResponse {
    traces: Vec<TraceSearchResult>,
}

#[derive(Debug, Deserialize)]
struct TraceSearchResult {
    #[serde(rename = "traceID")]
    trace_id: String,
    #[serde(rename = "rootTraceName")]
    root_trace_name: Option<String>,
    #[serde(rename = "durationMs")]
    duration_ms: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct Span {
    pub span_id: String,
    pub parent_span_id: Option<String>,
    pub name: String,
    pub duration_ms: f64,
    pub status_code: u32,
    pub service_name: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Trace {
    pub trace_id: String,
    pub spans: Vec<Span>,
    pub root_duration_ms: f64,
    pub critical_path: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct SlowTrace {
    pub trace_id: String,
    pub root_name: Option<String>,
    pub duration_ms: u64,
}

pub struct TempoClient {
    client: Client,
    base_url: String,
    token: String,
}

impl TempoClient {
    pub fn new(client: Client, base_url: String, token: String) -> Self {
        Self { client, base_url, token }
    }

    pub async fn get_trace(&self, trace_id: &str) -> Result<Trace, TracesError> {
        let url = format!("{}/api/traces/{}", self.base_url, trace_id);
        let retry_strategy = ExponentialBackoff::from_millis(100)
            .max_delay(Duration::from_secs(5))
            .map(jitter)
            .take(3);

        let resp = Retry::spawn(retry_strategy, || async {
            let mut req = self.client.get(&url);
            if !self.token.is_empty() {
                req = req.bearer_auth(&self.token);
            }
            req.send().await.map_err(|e| {
                warn!("Tempo request failed: {e}");
                e
            })
        })
        .await?;

        if resp.status() == reqwest::StatusCode::NOT_FOUND {
            return Err(TracesError::NotFound);
        }

        let raw: TempoTraceResponse = resp
            .json()
            .await
            .map_err(|e| TracesError::Parse(e.to_string()))?;

        parse_trace(trace_id, raw)
    }

    pub async fn search_slow_traces(
        &self,
        service: &str,
        window_minutes: u32,
        min_duration_ms: u64,
    ) -> Result<Vec<SlowTrace>, TracesError> {
        let url = format!("{}/api/search", self.base_url);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let start = now - (window_minutes as u64 * 60);

        let retry_strategy = ExponentialBackoff::from_millis(100)
            .max_delay(Duration::from_secs(5))
            .map(jitter)
            .take(3);

        let min_dur = format!("{}ms", min_duration_ms);
        let start_str = start.to_string();
        let end_str = now.to_string();

        let resp = Retry::spawn(retry_strategy, || async {
            let mut req = self.client.get(&url).query(&[
                ("service.name", service),
                ("minDuration", &min_dur),
                ("start", &start_str),
                ("end", &end_str),
                ("limit", "20"),
            ]);
            if !self.token.is_empty() {
                req = req.bearer_auth(&self.token);
            }
            req.send().await.map_err(|e| {
                warn!("Tempo search failed: {e}");
                e
            })
        })
        .await?;

        let search: TempoSearchResponse = resp
            .json()
            .await
            .map_err(|e| TracesError::Parse(e.to_string()))?;

        Ok(search
            .traces
            .into_iter()
            .map(|t| SlowTrace {
                trace_id: t.trace_id,
                root_name: t.root_trace_name,
                duration_ms: t.duration_ms.unwrap_or(0),
            })
            .collect())
    }
}

fn parse_trace(trace_id: &str, raw: TempoTraceResponse) -> Result<Trace, TracesError> {
    let mut spans = Vec::new();

    for batch in raw.batches {
        let service_name = batch
            .resource
            .as_ref()
            .and_then(|r| r.attributes.as_ref())
            .and_then(|attrs| {
                attrs.iter().find(|kv| kv.key == "service.name").and_then(|kv| {
                    kv.value.as_ref().and_then(|v| v.string_value.clone())
                })
            });

        let scope_spans_list = batch
            .scope_spans
            .or(batch.instrumentation_library_spans)
            .unwrap_or_default();

        for scope in scope_spans_list {
            for raw_span in scope.spans.unwrap_or_default() {
                let start_ns = raw_span.start_time_unix_nano.parse::<u64>().unwrap_or(0);
                let end_ns = raw_span.end_time_unix_nano.parse::<u64>().unwrap_or(0);
                let duration_ms = if end_ns > start_ns {
                    (end_ns - start_ns) as f64 / 1_000_000.0
                } else {
                    0.0
                };

                let status_code = raw_span
                    .status
                    .as_ref()
                    .and_then(|s| s.code)
                    .unwrap_or(0);

                spans.push(Span {
                    span_id: raw_span.span_id,
                    parent_span_id: raw_span.parent_span_id.filter(|s| !s.is_empty()),
                    name: raw_span.name,
                    duration_ms,
                    status_code,
                    service_name: service_name.clone(),
                });
            }
        }
    }

    let root_duration_ms = spans
        .iter()
        .filter(|s| s.parent_span_id.is_none())
        .map(|s| s.duration_ms)
        .fold(0.0_f64, f64::max);

    let critical_path = find_critical_path(&spans);

    Ok(Trace {
        trace_id: trace_id.to_owned(),
        spans,
        root_duration_ms,
        critical_path,
    })
}

fn find_critical_path(spans: &[Span]) -> Vec<String> {
    let root = spans.iter().find(|s| s.parent_span_id.is_none());
    let Some(root) = root else {
        return Vec::new();
    };
    let mut path = Vec::new();
    let mut current_id = root.span_id.clone();
    path.push(current_id.clone());

    loop {
        let children: Vec<&Span> = spans
            .iter()
            .filter(|s| s.parent_span_id.as_deref() == Some(&current_id))
            .collect();
        if children.is_empty() {
            break;
        }
        let slowest = children
            .into_iter()
            .max_by(|a, b| a.duration_ms.partial_cmp(&b.duration_ms).unwrap_or(std::cmp::Ordering::Equal));
        if let Some(s) = slowest {
            current_id = s.span_id.clone();
            path.push(current_id.clone());
        } else {
            break;
        }
    }
    path
}
