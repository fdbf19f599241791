//! Alarm cache: filled by the telemetry poller, read and acknowledged by tools.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{json, Value};

use super::opt_u64;
use crate::content::{structured_result, text_result};
use crate::error::AppError;
use crate::SharedState;

#[derive(Debug, Clone, Serialize)]
pub struct Alarm {
    pub id: u64,
    pub feeder_id: String,
    pub severity: u8,
    pub message: String,
    pub raised_at: DateTime<Utc>,
    pub acknowledged: bool,
}

#[derive(Debug, Default)]
pub struct AlarmCache {
    pub alarms: BTreeMap<u64, Alarm>,
}

pub async fn list_alarms(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let min = opt_u64(args, "min_severity")?.unwrap_or(0);
    if min > 5 {
        return Err(AppError::InvalidParams(format!(
            "min_severity must be between 0 and 5, got {min}"
        )));
    }
    let cache = state
        .alarms
        .read()
        .map_err(|_| AppError::LockPoisoned("alarm cache"))?;
    let mut active: Vec<&Alarm> = cache
        .alarms
        .values()
        .filter(|a| !a.acknowledged && u64::from(a.severity) >= min)
        .collect();
    active.sort_by(|a, b| b.raised_at.cmp(&a.raised_at));
    let value = serde_json::to_value(&active)?;
    Ok(structured_result(json!({ "alarms": value })))
}

pub async fn ack_alarm(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let Some(alarm_id) = opt_u64(args, "alarm_id")? else {
        return Err(AppError::InvalidParams("missing required integer argument `alarm_id`".into()));
    };
    let mut cache = state.alarms.write().unwrap();
    let alarm = cache
        .alarms
        .get_mut(&alarm_id)
        .ok_or_else(|| AppError::NotFound { kind: "alarm", id: alarm_id.to_string() })?;
    if alarm.acknowledged {
        return Ok(text_result(format!("alarm {alarm_id} was already acknowledged")));
    }
    alarm.acknowledged = true;
    Ok(text_result(format!("alarm {alarm_id} on feeder {} acknowledged", alarm.feeder_id)))
}
