//! Tool catalogue and dispatch.

pub mod alarms;
pub mod assets;
pub mod outages;
pub mod telemetry;

use serde_json::{json, Value};

use crate::clients::db::Feeder;
use crate::error::AppError;
use crate::SharedState;

pub fn definitions() -> Vec<Value> {
    vec![
        tool_def("list_substations", "List substations, optionally in one region (north, south, east, west)",
            json!({ "region": { "type": "string" } }), &[]),
        tool_def("get_substation", "Show a substation and its feeders",
            json!({ "substation_id": { "type": "string" } }), &["substation_id"]),
        tool_def("get_feeder", "Show a feeder's ratings",
            json!({ "feeder_id": { "type": "string" } }), &["feeder_id"]),
        tool_def("set_load_threshold", "Set a feeder's alarm threshold in percent of rated current (50-120)",
            json!({ "feeder_id": { "type": "string" }, "max_load_pct": { "type": "number" } }), &["feeder_id", "max_load_pct"]),
        tool_def("feeder_load", "Load on a feeder over a window such as 15m, 1h, 6h, 24h",
            json!({ "feeder_id": { "type": "string" }, "window": { "type": "string" } }), &["feeder_id"]),
        tool_def("query_metric", "Run a raw telemetry range query (RFC 3339 start and end)",
            json!({ "expr": { "type": "string" }, "start": { "type": "string" }, "end": { "type": "string" }, "limit": { "type": "integer" } }), &["expr", "start", "end"]),
        tool_def("grid_summary", "Current total load per region", json!({}), &[]),
        tool_def("forecast_load", "Naive load forecast for a feeder for the next N hours",
            json!({ "feeder_id": { "type": "string" }, "hours": { "type": "integer" } }), &["feeder_id", "hours"]),
        tool_def("open_outage", "Open an outage ticket on a feeder; returns its ticket id",
            json!({ "feeder_id": { "type": "string" }, "severity": { "type": "string", "enum": ["minor", "major", "critical"] }, "description": { "type": "string" } }), &["feeder_id", "severity", "description"]),
        tool_def("get_outage", "Show an outage ticket",
            json!({ "outage_id": { "type": "string" } }), &["outage_id"]),
        tool_def("close_outage", "Close an outage ticket with a resolution note",
            json!({ "outage_id": { "type": "string" }, "resolution": { "type": "string" } }), &["outage_id", "resolution"]),
        tool_def("list_alarms", "Active alarms, newest first",
            json!({ "min_severity": { "type": "integer" } }), &[]),
        tool_def("ack_alarm", "Acknowledge an alarm by id",
            json!({ "alarm_id": { "type": "integer" } }), &["alarm_id"]),
        tool_def("export_report", "Write a CSV load report for a substation into the report directory",
            json!({ "substation_id": { "type": "string" }, "file_name": { "type": "string" } }), &["substation_id", "file_name"]),
    ]
}

fn tool_def(name: &str, description: &str, properties: Value, required: &[&str]) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": { "type": "object", "properties": properties, "required": required }
    })
}

/// Runs the named tool. The `Ok` is the whole `CallToolResult`.
pub async fn call(state: &SharedState, name: &str, args: &Value) -> Result<Value, AppError> {
    match name {
        "list_substations" => assets::list_substations(state, args).await,
        "get_substation" => assets::get_substation(state, args).await,
        "get_feeder" => assets::get_feeder(state, args).await,
        "set_load_threshold" => assets::set_load_threshold(state, args).await,
        "feeder_load" => telemetry::feeder_load(state, args).await,
        "query_metric" => telemetry::query_metric(state, args).await,
        "grid_summary" => telemetry::grid_summary(state).await,
        "forecast_load" => telemetry::forecast_load(state, args).await,
        "open_outage" => outages::open_outage(state, args).await,
        "get_outage" => outages::get_outage(state, args).await,
        "close_outage" => outages::close_outage(state, args).await,
        "list_alarms" => alarms::list_alarms(state, args).await,
        "ack_alarm" => alarms::ack_alarm(state, args).await,
        "export_report" => outages::export_report(state, args).await,
        unknown => Err(AppError::UnknownTool(unknown.to_string())),
    }
}

/// A required string argument (schema: present and a string).
pub(crate) fn req_str<'a>(args: &'a Value, key: &str) -> Result<&'a str, AppError> {
    args.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| AppError::InvalidParams(format!("missing required string argument `{key}`")))
}

/// An optional integer argument (schema: absent or an integer).
pub(crate) fn opt_u64(args: &Value, key: &str) -> Result<Option<u64>, AppError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| AppError::InvalidParams(format!("argument `{key}` must be a non-negative integer"))),
    }
}

/// Loads a feeder the model named; shared by several tools.
pub(crate) async fn require_feeder(state: &SharedState, feeder_id: &str) -> Result<Feeder, AppError> {
    let found = state.db.feeder(feeder_id)?;
    found.ok_or_else(|| AppError::NotFound { kind: "feeder", id: feeder_id.to_string() })
}
