//! Telemetry tools: load series, raw queries, summaries and a naive forecast.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use serde_json::{json, Value};

use super::{opt_u64, req_str, require_feeder};
use crate::clients::metrics::{MetricsClient, Sample};
use crate::content::{structured_result, text_result, tool_error};
use crate::error::AppError;
use crate::{config, SharedState};

fn metrics(state: &SharedState) -> Result<&MetricsClient, AppError> {
    state
        .metrics
        .as_ref()
        .ok_or(AppError::NotConfigured("telemetry backend"))
}

fn parse_window(window: &str) -> Option<Duration> {
    let (num, unit) = window.split_at(window.len().checked_sub(1)?);
    let n: i64 = num.parse().ok()?;
    match unit {
        "m" if (1..=1440).contains(&n) => Some(Duration::minutes(n)),
        "h" if (1..=72).contains(&n) => Some(Duration::hours(n)),
        _ => None,
    }
}

#[derive(Serialize)]
struct LoadStats {
    feeder_id: String,
    window: String,
    samples: usize,
    peak_amps: f64,
    mean_amps: f64,
    peak_pct_of_rating: f64,
}

pub async fn feeder_load(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let id = req_str(args, "feeder_id")?;
    let window = args.get("window").and_then(Value::as_str).unwrap_or("1h");
    let span = parse_window(window)
        .ok_or_else(|| AppError::InvalidParams("Invalid window".into()))?;
    let feeder = require_feeder(state, id).await?;
    let client = metrics(state)?;

    let end = Utc::now();
    let expr = format!("feeder_current_amps{{feeder=\"{id}\"}}");
    let samples = client.range(&expr, end - span, end, 60).await?;
    if samples.is_empty() {
        return Ok(tool_error(format!(
            "no current samples for feeder {id} in the last {window}; the feeder may be de-energised"
        )));
    }
    let peak = samples.iter().map(|s| s.value).fold(f64::MIN, f64::max);
    let mean = samples.iter().map(|s| s.value).sum::<f64>() / samples.len() as f64;
    let stats = LoadStats {
        feeder_id: id.to_string(),
        window: window.to_string(),
        samples: samples.len(),
        peak_amps: peak,
        mean_amps: mean,
        peak_pct_of_rating: 100.0 * peak / feeder.rated_amps,
    };
    let value = serde_json::to_value(&stats)?;
    Ok(structured_result(value))
}

pub async fn query_metric(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let expr = req_str(args, "expr")?;
    let start: DateTime<Utc> = req_str(args, "start")?
        .parse()
        .map_err(|e| AppError::InvalidParams(format!("start must be an RFC 3339 timestamp: {e}")))?;
    let end: DateTime<Utc> = req_str(args, "end")?
        .parse()
        .map_err(|e| AppError::InvalidParams(format!("end must be an RFC 3339 timestamp: {e}")))?;
    if end <= start {
        return Ok(tool_error(format!("end ({end}) must be after start ({start})")));
    }
    let cap = config().map(|c| c.limits.max_series_points).unwrap_or(2_000) as u64;
    let limit = opt_u64(args, "limit")?.unwrap_or(cap);
    if limit == 0 || limit > cap {
        return Err(AppError::InvalidParams(format!("limit must be between 1 and {cap}, got {limit}")));
    }
    let client = metrics(state)?;
    let step = ((end - start).num_seconds() as u64 / limit).max(15);
    match client.range(expr, start, end, step).await {
        Ok(samples) => {
            let body = serde_json::to_value(&samples)?;
            Ok(structured_result(json!({ "expr": expr, "step": step, "samples": body })))
        }
        Err(e) => Ok(tool_error(format!("telemetry query {expr:?} failed: {e}"))),
    }
}

pub async fn grid_summary(state: &SharedState) -> Result<Value, AppError> {
    let client = metrics(state)?;
    let mut regions = serde_json::Map::new();
    for region in ["north", "south", "east", "west"] {
        let expr = format!("sum(feeder_current_amps{{region=\"{region}\"}})");
        match client.latest(&expr).await {
            Ok(v) => {
                regions.insert(region.to_string(), json!(v));
            }
            Err(e) => {
                return Ok(text_result(format!("Error: telemetry backend unavailable ({e})")));
            }
        }
    }
    let text = serde_json::to_string_pretty(&regions)?;
    Ok(text_result(text))
}

pub async fn forecast_load(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let id = req_str(args, "feeder_id")?;
    let Some(hours) = opt_u64(args, "hours")? else {
        return Err(AppError::InvalidParams("missing required integer argument `hours`".into()));
    };
    let max_hours = config()
        .expect("configuration is loaded before the server starts")
        .limits
        .max_forecast_hours;
    if hours == 0 || hours > u64::from(max_hours) {
        return Ok(tool_error("Invalid input"));
    }
    let feeder = require_feeder(state, id).await?;
    let client = metrics(state)?;

    // Same hour-of-day profile over the last 7 days, averaged.
    let end = Utc::now();
    let expr = format!("feeder_current_amps{{feeder=\"{id}\"}}");
    let history = client.range(&expr, end - Duration::days(7), end, 3600).await;
    let history: Vec<Sample> = match history {
        Ok(h) => h,
        Err(e) => {
            return Ok(json!({
                "content": [{ "type": "text", "text": json!({ "error": e.to_string(), "feeder": id }).to_string() }]
            }));
        }
    };
    let mut by_hour = [(0.0_f64, 0_u32); 24];
    for s in &history {
        let hour = DateTime::from_timestamp(s.ts, 0).unwrap().format("%H").to_string();
        let h: usize = hour.parse().unwrap();
        by_hour[h].0 += s.value;
        by_hour[h].1 += 1;
    }
    let forecast: Vec<Value> = (1..=hours as i64)
        .map(|k| {
            let at = end + Duration::hours(k);
            let h: usize = at.format("%H").to_string().parse().unwrap_or(0);
            let (sum, n) = by_hour[h];
            let amps = if n == 0 { 0.0 } else { sum / f64::from(n) };
            json!({ "at": at.to_rfc3339(), "amps": amps, "pct_of_rating": 100.0 * amps / feeder.rated_amps })
        })
        .collect();
    Ok(structured_result(json!({ "feeder_id": id, "forecast": forecast })))
}
