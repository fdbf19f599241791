use std::sync::Arc;

use serde::Serialize;
use thiserror::Error;
use tracing::debug;

use crate::backends::{
    logs::{LogEntry, LokiClient, LogsError},
    metrics::{LatencyStats, PrometheusClient, MetricsError},
    traces::{Trace, TempoClient, TracesError},
};

#[derive(Debug, Error)]
pub enum DomainError {
    #[error("Metrics error: {0}")]
    Metrics(#[from] MetricsError),
    #[error("Logs error: {0}")]
    Logs(#[from] LogsError),
    #[error("Traces error: {0}")]
    Traces(#[from] TracesError),
}

#[derive(Debug, Serialize)]
pub struct LatencySpikeReport {
    pub service: String,
    pub window_minutes: u32,
    pub latency: LatencyReport,
    pub error_rate_pct: Option<f64>,
    pub anomaly: LatencyAnomaly,
    pub top_slow_traces: Vec<SlowTraceRef>,
}

#[derive(Debug, Serialize)]
pub struct LatencyReport {
    pub p50_ms: Option<f64>,
    pub p95_ms: Option<f64>,
    pub p99_ms: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct LatencyAnomaly {
    pub detected: bool,
    pub reason: String,
}

#[derive(Debug, Serialize)]
pub struct SlowTraceRef {
    pub trace_id: String,
    pub duration_ms: u64,
    pub operation: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct ErrorReport {
    pub service: String,
    pub window_minutes: u32,
    pub error_rate_pct: f64,
    pub top_errors: Vec<ErrorSummary>,
    pub sample_trace_ids: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct ErrorSummary {
    pub message: String,
    pub count: u32,
    pub level: String,
    pub trace_id: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct SlowRequestsReport {
    pub service: String,
    pub window_minutes: u32,
    pub threshold_ms: u64,
    pub slow_traces: Vec<SlowTraceDetail>,
}

#[derive(Debug, Serialize)]
pub struct SlowTraceDetail {
    pub trace_id: String,
    pub duration_ms: u64,
    pub bottleneck_span: Option<SpanSummary>,
    pub operation: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct SpanSummary {
    pub span_id: String,
    pub name: String,
    pub duration_ms: f64,
    pub service: Option<String>,
    pub error: bool,
}

#[derive(Debug, Serialize)]
pub struct ErrorTraceCorrelation {
    pub error_id: String,
    pub matching_logs: Vec<LogRef>,
    pub trace: Option<TraceRef>,
}

#[derive(Debug, Serialize)]
pub struct LogRef {
    pub message: String,
    pub level: String,
    pub trace_id: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct TraceRef {
    pub trace_id: String,
    pub root_duration_ms: f64,
    pub bottleneck_span: Option<SpanSummary>,
    pub critical_path_length: usize,
    pub error_spans: Vec<SpanSummary>,
}

#[derive(Debug, Serialize)]
pub struct ServiceHealthReport {
    pub service: String,
    pub window_minutes: u32,
    pub request_rate_rps: Option<f64>,
    pub error_rate_pct: Option<f64>,
    pub latency: LatencyReport,
    pub health_status: HealthStatus,
    pub recent_errors: Vec<ErrorSummary>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    Healthy,
    Degraded,
    Critical,
    Unknown,
}

pub struct DomainService {
    metrics: Arc<PrometheusClient>,
    logs: Arc<LokiClient>,
    traces: Arc<TempoClient>,
}

impl DomainService {
    pub fn new(
        metrics: Arc<PrometheusClient>,
        logs: Arc<LokiClient>,
        traces: Arc<TempoClient>,
    ) -> Self {
        Self { metrics, logs, traces }
    }

    pub async fn investigate_latency_spike(
        &self,
        service: &str,
        window_minutes: u32,
    ) -> Result<LatencySpikeReport, DomainError> {
        let (latency_result, error_rate_result, slow_traces_result) = tokio::join!(
            self.metrics.latency_percentiles(service, window_minutes),
            self.metrics.current_error_rate(service, window_minutes),
            self.traces.search_slow_traces(service, window_minutes, 1000),
        );

        let latency = latency_result.unwrap_or(crate::backends::metrics::LatencyStats {
            p50_ms: None,
            p95_ms: None,
            p99_ms: None,
        });
        let error_rate = error_rate_result.ok().map(|r| r * 100.0);
        let slow_traces = slow_traces_result.unwrap_or_default();

        let anomaly = detect_latency_anomaly(&latency, &error_rate);

        Ok(LatencySpikeReport {
            service: service.to_owned(),
            window_minutes,
            latency: LatencyReport {
                p50_ms: latency.p50_ms,
                p95_ms: latency.p95_ms,
                p99_ms: latency.p99_ms,
            },
            error_rate_pct: error_rate,
            anomaly,
            top_slow_traces: slow_traces
                .into_iter()
                .take(5)
                .map(|t| SlowTraceRef {
                    trace_id: t.trace_id,
                    duration_ms: t.duration_ms,
                    operation: t.root_name,
                })
                .collect(),
        })
    }

    pub async fn find_errors(
        &self,
        service: &str,
        window_minutes: u32,
    ) -> Result<ErrorReport, DomainError> {
        let (error_logs_result, error_rate_result) = tokio::join!(
            self.logs.error_logs(service, window_minutes),
            self.metrics.current_error_rate(service, window_minutes),
        );

        let error_logs = error_logs_result.unwrap_or_default();
        let error_rate = error_rate_result.unwrap_or(0.0) * 100.0;

        let top_errors = aggregate_errors(&error_logs);
        let sample_trace_ids: Vec<String> = error_logs
            .iter()
            .filter_map(|e| e.trace_id.clone())
            .collect::<std::collections::HashSet<_>>()
            .into_iter()
            .take(5)
            .collect();

        Ok(ErrorReport {
            service: service.to_owned(),
            window_minutes,
            error_rate_pct: error_rate,
            top_errors,
            sample_trace_ids,
        })
    }

    pub async fn trace_slow_requests(
        &self,
        service: &str,
        window_minutes: u32,
    ) -> Result<SlowRequestsReport, DomainError> {
        let threshold_ms = 1000u64;
        let slow_list = self
            .traces
            .search_slow_traces(service, window_minutes, threshold_ms)
            .await
            .unwrap_or_default();

        let mut details = Vec::new();
        for slow in slow_list.into_iter().take(10) {
            let bottleneck = match self.traces.get_trace(&slow.trace_id).await {
                Ok(trace) => find_bottleneck_span(&trace),
                Err(_) => None,
            };
            details.push(SlowTraceDetail {
                trace_id: slow.trace_id,
                duration_ms: slow.duration_ms,
                bottleneck_span: bottleneck,
                operation: slow.root_name,
            });
        }

        Ok(SlowRequestsReport {
            service: service.to_owned(),
            window_minutes,
            threshold_ms,
            slow_traces: details,
        })
    }

    pub async fn correlate_error_to_trace(
        &self,
        error_id: &str,
    ) -> Result<ErrorTraceCorrelation, DomainError> {
        let logs = self
            .logs
            .logs_containing_error_id(error_id)
            .await
            .unwrap_or_default();

        let trace_id = logs.iter().find_map(|l| l.trace_id.clone());

        let trace = if let Some(ref tid) = trace_id {
            match self.traces.get_trace(tid).await {
                Ok(t) => Some(build_trace_ref(t)),
                Err(TracesError::NotFound) => None,
                Err(e) => {
                    debug!("Trace fetch failed for {tid}: {e}");
                    None
                }
            }
        } else {
            None
        };

        let matching_logs = logs
            .into_iter()
            .take(5)
            .map(|l| LogRef {
                message: truncate(&l.message, 200),
                level: l.level.unwrap_or_else(|| "unknown".to_owned()),
                trace_id: l.trace_id,
            })
            .collect();

        Ok(ErrorTraceCorrelation {
            error_id: error_id.to_owned(),
            matching_logs,
            trace,
        })
    }

    pub async fn summarize_service_health(
        &self,
        service: &str,
        window_minutes: u32,
    ) -> Result<ServiceHealthReport, DomainError> {
        let (rps_result, error_rate_result, latency_result, error_logs_result) = tokio::join!(
            self.metrics.request_rate_current(service, window_minutes),
            self.metrics.current_error_rate(service, window_minutes),
            self.metrics.latency_percentiles(service, window_minutes),
            self.logs.error_logs(service, window_minutes),
        );

        let request_rate_rps = rps_result.ok();
        let error_rate = error_rate_result.ok().map(|r| r * 100.0);
        let latency = latency_result.unwrap_or(LatencyStats {
            p50_ms: None,
            p95_ms: None,
            p99_ms: None,
        });
        let error_logs = error_logs_result.unwrap_or_default();
        let recent_errors = aggregate_errors(&error_logs).into_iter().take(5).collect();

        let health_status = classify_health(error_rate, &latency);

        Ok(ServiceHealthReport {
            service: service.to_owned(),
            window_minutes,
            request_rate_rps,
            error_rate_pct: error_rate,
            latency: LatencyReport {
                p50_ms: latency.p50_ms,
                p95_ms: latency.p95_ms,
                p99_ms: latency.p99_ms,
            },
            health_status,
            recent_errors,
        })
    }
}

fn detect_latency_anomaly(latency: &LatencyStats, error_rate: &Option<f64>) -> LatencyAnomaly {
    if let Some(p99) = latency.p99_ms {
        if p99 > 5000.0 {
            return LatencyAnomaly {
                detected: true,
                reason: format!("p99 latency is critically high at {p99:.0}ms"),
            };
        }
    }
    if let Some(p95) = latency.p95_ms {
        if p95 > 2000.0 {
            return LatencyAnomaly {
                detected: true,
                reason: format!("p95 latency exceeds 2s at {p95:.0}ms"),
            };
        }
    }
    if let Some(rate) = error_rate {
        if *rate > 5.0 {
            return LatencyAnomaly {
                detected: true,
                reason: format!("Error rate is elevated at {rate:.1}%"),
            };
        }
    }
    LatencyAnomaly {
        detected: false,
        reason: "No anomaly detected within thresholds".to_owned(),
    }
}

fn aggregate_errors(logs: &[LogEntry]) -> Vec<ErrorSummary> {
    let mut counts: std::collections::HashMap<String, (u32, String, Option<String>)> =
        std::collections::HashMap::new();
    for entry in logs {
        let key = normalize_error_message(&entry.message);
        let e = counts.entry(key.clone()).or_insert((
            0,
            entry.level.clone().unwrap_or_else(|| "error".to_owned()),
            entry.trace_id.clone(),
        ));
        e.0 += 1;
    }
    let mut result: Vec<ErrorSummary> = counts
        .into_iter()
        .map(|(msg, (count, level, trace_id))| ErrorSummary {
            message: msg,
            count,
            level,
            trace_id,
        })
        .collect();
    result.sort_by(|a, b| b.count.cmp(&a.count));
    result.truncate(10);
    result
}

fn normalize_error_message(msg: &str) -> String {
    let truncated = truncate(msg, 120);
    let without_ids = truncated
        .split_whitespace()
        .map(|word| {
            if word.len() > 8 && word.chars().all(|c| c.is_ascii_hexdigit()) {
                "<id>"
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    without_ids
}

fn find_bottleneck_span(trace: &Trace) -> Option<SpanSummary> {
    trace
        .spans
        .iter()
        .max_by(|a, b| a.duration_ms.partial_cmp(&b.duration_ms).unwrap_or(std::cmp::Ordering::Equal))
        .map(|s| SpanSummary {
            span_id: s.span_id.clone(),
            name: s.name.clone(),
            duration_ms: s.duration_ms,
            service: s.service_name.clone(),
            error: s.status_code == 2,
        })
}

fn build_trace_ref(trace: Trace) -> TraceRef {
    let error_spans: Vec<SpanSummary> = trace
        .spans
        .iter()
        .filter(|s| s.status_code == 2)
        .map(|s| SpanSummary {
            span_id: s.span_id.clone(),
            name: s.name.clone(),
            duration_ms: s.duration_ms,
            service: s.service_name.clone(),
            error: true,
        })
        .collect();

    let bottleneck = find_bottleneck_span(&trace);
    let critical_len = trace.critical_path.len();

    TraceRef {
        trace_id: trace.trace_id,
        root_duration_ms: trace.root_duration_ms,
        bottleneck_span: bottleneck,
        critical_path_length: critical_len,
        error_spans,
    }
}

fn classify_health(error_rate: Option<f64>, latency: &LatencyStats) -> HealthStatus {
    let Some(rate) = error_rate else {
        return HealthStatus::Unknown;
    };
    if rate > 10.0 {
        return HealthStatus::Critical;
    }
    if rate > 1.0 {
        return HealthStatus::Degraded;
    }
    if let Some(p95) = latency.p95_ms {
        if p95 > 3000.0 {
            return HealthStatus::Degraded;
        }
    }
    HealthStatus::Healthy
}

fn truncate(s: &str, max_chars: usize) -> String {
    if s.len() <= max_chars {
        s.to_owned()
    } else {
        format!("{}...", &s[..max_chars])
    }
}
