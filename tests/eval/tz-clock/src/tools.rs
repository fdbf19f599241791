//! The tool implementations. Each returns a finished `CallToolResult`; argument *values* that
//! are wrong become error results the model can read.

use std::borrow::Cow;
use std::sync::Arc;

use chrono::{Duration, NaiveDateTime, TimeZone, Utc};
use rmcp::model::{CallToolResult, Content, JsonObject, Tool};
use serde_json::{json, Value};

use crate::zones::parse_tz;
use crate::McpError;

fn schema(v: Value) -> Arc<JsonObject> {
    Arc::new(v.as_object().cloned().unwrap_or_default())
}

pub fn definitions() -> Vec<Tool> {
    vec![
        Tool::new(
            "now",
            "Current date and time in a time zone",
            schema(json!({
                "type": "object",
                "properties": { "tz": { "type": "string" } },
                "required": ["tz"]
            })),
        ),
        Tool::new(
            "convert",
            "Convert a local date-time (YYYY-MM-DD HH:MM) from one time zone to another",
            schema(json!({
                "type": "object",
                "properties": {
                    "time": { "type": "string" },
                    "from": { "type": "string" },
                    "to": { "type": "string" }
                },
                "required": ["time", "from", "to"]
            })),
        ),
        Tool::new(
            "overlap",
            "Working hours (09:00-17:00) shared by a list of time zones today",
            schema(json!({
                "type": "object",
                "properties": { "zones": { "type": "array", "items": { "type": "string" } } },
                "required": ["zones"]
            })),
        ),
    ]
}

pub fn str_arg<'a>(args: &'a JsonObject, tool: &str, key: &str) -> Result<&'a str, McpError> {
    args.get(key).and_then(Value::as_str).ok_or_else(|| {
        McpError::invalid_params(
            format!("{tool}: required string argument '{key}' is missing"),
            Some(json!({ "argument": key })),
        )
    })
}

pub fn tool_error(text: impl Into<Cow<'static, str>>) -> CallToolResult {
    CallToolResult::error(vec![Content::text(text.into())])
}

pub fn now(args: &JsonObject) -> Result<CallToolResult, McpError> {
    let name = str_arg(args, "now", "tz")?;
    let tz = match parse_tz(name) {
        Ok(tz) => tz,
        Err(msg) => return Ok(tool_error(msg)),
    };
    let now = Utc::now().with_timezone(&tz);
    Ok(CallToolResult::success(vec![Content::text(
        now.format("%Y-%m-%d %H:%M:%S %Z (UTC%:z)").to_string(),
    )]))
}

pub fn convert(args: &JsonObject) -> Result<CallToolResult, McpError> {
    let time = str_arg(args, "convert", "time")?;
    let from = str_arg(args, "convert", "from")?;
    let to = str_arg(args, "convert", "to")?;
    let naive = match NaiveDateTime::parse_from_str(time, "%Y-%m-%d %H:%M") {
        Ok(t) => t,
        Err(e) => {
            return Ok(CallToolResult::structured_error(json!({
                "error": format!("time {time:?} is not in YYYY-MM-DD HH:MM format: {e}"),
                "example": "2026-03-14 09:30",
            })))
        }
    };
    let (from_tz, to_tz) = match (parse_tz(from), parse_tz(to)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(msg), _) | (_, Err(msg)) => return Ok(tool_error(msg)),
    };
    let Some(local) = from_tz.from_local_datetime(&naive).earliest() else {
        return Ok(tool_error(format!(
            "{time} does not exist in {from} (skipped by a daylight-saving change)"
        )));
    };
    let converted = local.with_timezone(&to_tz);
    Ok(CallToolResult::success(vec![Content::text(format!(
        "{} = {}",
        local.format("%Y-%m-%d %H:%M %Z"),
        converted.format("%Y-%m-%d %H:%M %Z")
    ))]))
}

pub fn overlap(args: &JsonObject) -> Result<CallToolResult, McpError> {
    let Some(Value::Array(items)) = args.get("zones") else {
        return Err(McpError::invalid_params(
            "overlap: required array argument 'zones' is missing",
            None,
        ));
    };
    if items.len() < 2 {
        return Ok(tool_error("pass at least two time zones in 'zones'"));
    }
    let mut zones = Vec::new();
    for item in items {
        let Some(name) = item.as_str() else {
            return Err(McpError::invalid_params(
                "overlap: every entry of 'zones' must be a string",
                None,
            ));
        };
        match parse_tz(name) {
            Ok(tz) => zones.push(tz),
            Err(msg) => return Ok(tool_error(msg)),
        }
    }
    let today = Utc::now().date_naive();
    let mut shared = Vec::new();
    for hour in 0..24 {
        let at = Utc.from_utc_datetime(&today.and_hms_opt(hour, 0, 0).unwrap_or_default());
        let all_working = zones.iter().all(|tz| {
            let local = at.with_timezone(tz).format("%H").to_string();
            let h: u32 = local.parse().unwrap_or(0);
            (9..17).contains(&h)
        });
        if all_working {
            shared.push(at);
        }
    }
    if shared.is_empty() {
        return Ok(CallToolResult::success(vec![Content::text(
            "These zones share no working hour today.",
        )]));
    }
    let first = shared[0];
    let last = shared[shared.len() - 1] + Duration::hours(1);
    Ok(CallToolResult::success(vec![Content::text(format!(
        "Shared working hours today: {} to {} UTC ({} hours)",
        first.format("%H:%M"),
        last.format("%H:%M"),
        shared.len()
    ))]))
}
