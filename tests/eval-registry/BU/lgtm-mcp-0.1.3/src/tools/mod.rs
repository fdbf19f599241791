use std::sync::Arc;

use serde::Deserialize;
use thiserror::Error;

use crate::domain::DomainService;

#[derive(Debug, Error)]
pub enum ToolError {
    #[error("Unknown tool: {0}")]
    UnknownTool(String),
    #[error("Invalid arguments: {0}")]
    InvalidArguments(String),
    #[error("Backend error: {0}")]
    Backend(String),
    #[error("Domain error: {0}")]
    Domain(String),
}

impl From<crate::domain::DomainError> for ToolError {
    fn from(e: crate::domain::DomainError) -> Self {
        ToolError::Domain(e.to_string())
    }
}

pub struct ToolRegistry {
    domain: Arc<DomainService>,
}

impl ToolRegistry {
    pub fn new(domain: Arc<DomainService>) -> Self {
        Self { domain }
    }

    pub fn list_tools(&self) -> Vec<(&'static str, &'static str, serde_json::Value)> {
        vec![
            (
                "investigate_latency_spike",
                "Investigate a latency spike for a service over a time window. Returns p50/p95/p99 latency, error rate, anomaly detection, and references to the slowest traces.",
                serde_json::json!({
                    "type": "object",
                    "properties": {
                        "service": { "type": "string", "description": "Service name as labeled in Prometheus/Loki/Tempo" },
                        "window_minutes": { "type": "integer", "minimum": 1, "maximum": 10080, "description": "Look-back window in minutes" }
                    },
                    "required": ["service", "window_minutes"]
                }),
            ),
            (
                "find_errors",
                "Find and summarize error logs for a service. Returns error rate, deduplicated error messages with counts, and trace IDs associated with errors.",
                serde_json::json!({
                    "type": "object",
                    "properties": {
                        "service": { "type": "string", "description": "Service name" },
                        "window_minutes": { "type": "integer", "minimum": 1, "maximum": 10080, "description": "Look-back window in minutes" }
                    },
                    "required": ["service", "window_minutes"]
                }),
            ),
            (
                "trace_slow_requests",
                "Find slow requests for a service and identify the bottleneck span in each trace. Returns trace IDs, durations, and the single slowest span per trace.",
                serde_json::json!({
                    "type": "object",
                    "properties": {
                        "service": { "type": "string", "description": "Service name" },
                        "window_minutes": { "type": "integer", "minimum": 1, "maximum": 10080, "description": "Look-back window in minutes" }
                    },
                    "required": ["service", "window_minutes"]
                }),
            ),
            (
                "correlate_error_to_trace",
                "Given an error ID or error string, find related log entries and the associated distributed trace. Returns matched log lines and a trace summary with error spans.",
                serde_json::json!({
                    "type": "object",
                    "properties": {
                        "error_id": { "type": "string", "description": "Error ID, error message substring, or trace ID to correlate" }
                    },
                    "required": ["error_id"]
                }),
            ),
            (
                "summarize_service_health",
                "Get a full health summary for a service: request rate, error rate, latency percentiles, health classification, and top recent errors.",
                serde_json::json!({
                    "type": "object",
                    "properties": {
                        "service": { "type": "string", "description": "Service name" },
                        "window_minutes": { "type": "integer", "minimum": 1, "maximum": 10080, "description": "Look-back window in minutes" }
                    },
                    "required": ["service", "window_minutes"]
                }),
            ),
        ]
    }

    pub async fn call_tool(&self, name: &str, args: serde_json::Value) -> Result<String, ToolError> {
        match name {
            "investigate_latency_spike" => {
                let params: ServiceWindowParams = parse_args(args)?;
                let report = self
                    .domain
                    .investigate_latency_spike(&params.service, params.window_minutes)
                    .await?;
                Ok(serde_json::to_string_pretty(&report).map_err(|e| ToolError::Backend(e.to_string()))?)
            }
            "find_errors" => {
                let params: ServiceWindowParams = parse_args(args)?;
                let report = self
                    .domain
                    .find_errors(&params.service, params.window_minutes)
                    .await?;
                Ok(serde_json::to_string_pretty(&report).map_err(|e| ToolError::Backend(e.to_string()))?)
            }
            "trace_slow_requests" => {
                let params: ServiceWindowParams = parse_args(args)?;
                let report = self
                    .domain
                    .trace_slow_requests(&params.service, params.window_minutes)
                    .await?;
                Ok(serde_json::to_string_pretty(&report).map_err(|e| ToolError::Backend(e.to_string()))?)
            }
            "correlate_error_to_trace" => {
                let params: ErrorIdParams = parse_args(args)?;
                let report = self
                    .domain
                    .correlate_error_to_trace(&params.error_id)
                    .await?;
                Ok(serde_json::to_string_pretty(&report).map_err(|e| ToolError::Backend(e.to_string()))?)
            }
            "summarize_service_health" => {
                let params: ServiceWindowParams = parse_args(args)?;
                let report = self
                    .domain
                    .summarize_service_health(&params.service, params.window_minutes)
                    .await?;
                Ok(serde_json::to_string_pretty(&report).map_err(|e| ToolError::Backend(e.to_string()))?)
            }
            other => Err(ToolError::UnknownTool(other.to_owned())),
        }
    }
}

#[derive(Deserialize)]
struct ServiceWindowParams {
    service: String,
    window_minutes: u32,
}

#[derive(Deserialize)]
struct ErrorIdParams {
    error_id: String,
}

fn parse_args<T: for<'de> Deserialize<'de>>(args: serde_json::Value) -> Result<T, ToolError> {
    serde_json::from_value(args).map_err(|e| ToolError::InvalidArguments(e.to_string()))
}
