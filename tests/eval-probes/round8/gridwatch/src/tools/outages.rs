//! Outage tickets and CSV reports.

use std::path::Path;

use chrono::Utc;
use serde_json::{json, Value};

use super::{req_str, require_feeder};
use crate::clients::db::Outage;
use crate::content::{structured_result, text_result, tool_error};
use crate::error::AppError;
use crate::{config, SharedState};

const SEVERITIES: &[&str] = &["minor", "major", "critical"];

pub async fn open_outage(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let feeder_id = req_str(args, "feeder_id")?;
    let severity = req_str(args, "severity")?;
    let description = req_str(args, "description")?.trim();
    if !SEVERITIES.contains(&severity) {
        return Ok(tool_error(format!(
            "severity {severity:?} is not one of {}",
            SEVERITIES.join(", ")
        )));
    }
    if description.len() < 10 {
        return Ok(tool_error(
            "description must be at least 10 characters and say what was observed",
        ));
    }
    let feeder = require_feeder(state, feeder_id).await?;
    let outage = Outage {
        id: format!("OUT-{}", uuid::Uuid::new_v4().simple()),
        feeder_id: feeder.id.clone(),
        severity: severity.to_string(),
        description: description.to_string(),
        opened_at: Utc::now(),
        closed_at: None,
        resolution: None,
    };
    state.db.insert_outage(&outage)?;
    Ok(structured_result(json!({ "outage_id": outage.id, "feeder_id": feeder.id })))
}

pub async fn get_outage(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let id = req_str(args, "outage_id")?;
    let outage = state.db.outage(id)?;
    match outage {
        Some(o) => Ok(structured_result(serde_json::to_value(&o)?)),
        None => Ok(text_result(format!("outage ticket {id} not found"))),
    }
}

pub async fn close_outage(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let id = req_str(args, "outage_id")?;
    let resolution = req_str(args, "resolution")?;
    let Some(outage) = state.db.outage(id)? else {
        return Ok(tool_error(format!(
            "outage ticket {id} does not exist; list open tickets with get_outage or open a new one"
        )));
    };
    if outage.closed_at.is_some() {
        return Ok(json!({ "content": [], "isError": true }));
    }
    if resolution.trim().is_empty() {
        return Err(AppError::InvalidParams(format!(
            "resolution for {id} must describe what was done"
        )));
    }
    if let Err(e) = state.db.close_outage(id, resolution, Utc::now()) {
        tracing::error!(%id, error = %e, "closing outage failed");
        return Ok(tool_error("Something went wrong. Please try again."));
    }
    Ok(text_result(format!("outage ticket {id} closed")))
}

pub async fn export_report(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let substation_id = req_str(args, "substation_id")?;
    let file_name = req_str(args, "file_name")?;
    let cfg = config().ok_or(AppError::Internal("configuration not loaded".into()))?;
    let dir = cfg
        .reports
        .export_dir
        .as_ref()
        .ok_or(AppError::NotConfigured("report export directory"))?;
    if file_name.contains('/') || file_name.contains("..") || !file_name.ends_with(".csv") {
        return Ok(tool_error(format!(
            "file_name {file_name:?} must be a plain file name ending in .csv"
        )));
    }
    let feeders = state.db.feeders_of(substation_id)?;
    if feeders.is_empty() {
        return Err(AppError::NotFound { kind: "substation", id: substation_id.to_string() });
    }
    let mut csv = String::from("feeder_id,rated_amps,max_load_pct,locked\n");
    for fid in &feeders {
        let f = require_feeder(state, fid).await?;
        csv.push_str(&format!("{},{},{},{}\n", f.id, f.rated_amps, f.max_load_pct, f.locked));
    }
    let path = Path::new(dir).join(file_name);
    tokio::fs::write(&path, csv.as_bytes()).await?;
    Ok(text_result(format!(
        "wrote {} feeders of {substation_id} to {}",
        feeders.len(),
        path.display()
    )))
}
