//! Asset registry tools: substations and feeders.

use serde_json::{json, Value};

use super::{req_str, require_feeder};
use crate::content::{structured_result, text_result, tool_error};
use crate::error::AppError;
use crate::SharedState;

const REGIONS: &[&str] = &["north", "south", "east", "west"];

pub async fn list_substations(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let region = args.get("region").and_then(Value::as_str);
    if let Some(r) = region {
        if !REGIONS.contains(&r) {
            return Err(AppError::InvalidParams(format!(
                "unknown region {r:?}; expected one of {}",
                REGIONS.join(", ")
            )));
        }
    }
    let subs = state.db.substations(region)?;
    if subs.is_empty() {
        return Ok(text_result("No substations registered in that region."));
    }
    let value = serde_json::to_value(&subs)?;
    Ok(structured_result(json!({ "substations": value })))
}

pub async fn get_substation(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let id = req_str(args, "substation_id")?;
    let sub = state
        .db
        .substation(id)?
        .ok_or_else(|| AppError::NotFound { kind: "substation", id: id.to_string() })?;
    let feeders = state.db.feeders_of(&sub.id)?;
    Ok(structured_result(json!({
        "substation": sub,
        "feeders": feeders,
    })))
}

pub async fn get_feeder(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let id = req_str(args, "feeder_id")?;
    match state.db.feeder(id) {
        Ok(Some(f)) => Ok(structured_result(json!({ "feeder": f }))),
        Ok(None) => Ok(text_result(format!("feeder {id} not found"))),
        Err(e) => Ok(tool_error(format!("could not read feeder {id} from the asset database: {e}"))),
    }
}

pub async fn set_load_threshold(state: &SharedState, args: &Value) -> Result<Value, AppError> {
    let id = req_str(args, "feeder_id")?;
    let Some(pct) = args.get("max_load_pct").and_then(Value::as_f64) else {
        return Err(AppError::InvalidParams("missing required number argument `max_load_pct`".into()));
    };
    if !(50.0..=120.0).contains(&pct) {
        return Ok(tool_error(format!(
            "max_load_pct must be between 50 and 120 percent of rated current, got {pct}"
        )));
    }
    let feeder = require_feeder(state, id).await?;
    if feeder.locked {
        return Err(AppError::Forbidden(format!(
            "feeder {id} is locked by protection engineering; thresholds cannot be changed"
        )));
    }
    let changed = state.db.set_max_load(id, pct)?;
    if changed == 0 {
        return Err(AppError::Internal("operation failed".into()));
    }
    Ok(text_result(format!(
        "threshold of feeder {id} changed from {:.0}% to {pct:.0}%",
        feeder.max_load_pct
    )))
}
