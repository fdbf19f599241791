//! Trip-planning tools built on predictions and observations.

use std::sync::Arc;

use chrono::{NaiveDateTime, Utc};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tower_mcp::extract::{Json, State};
use tower_mcp::{CallToolResult, Error, Tool, ToolBuilder};

use super::{reading_value, App};
use crate::error::TideError;
use crate::validate::{self, Datum, Units};

#[derive(Debug, Deserialize, JsonSchema)]
struct StationSummary {
    station: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct TideWindow {
    station: String,
    /// YYYY-MM-DD
    date: String,
    /// Minimum water height above MLLW, in metres.
    min_height_m: f64,
}

pub fn tools(app: &Arc<App>) -> Vec<Tool> {
    vec![station_summary(app), tide_window(app)]
}

fn unavailable(station: &str, e: &TideError) -> String {
    format!("Cannot load a summary for {station}: {e}")
}

fn station_summary(app: &Arc<App>) -> Tool {
    ToolBuilder::new("station_summary")
        .description("Name, latest water level and next high/low of a station")
        .read_only()
        .extractor_handler(
            app.clone(),
            |State(app): State<Arc<App>>, Json(input): Json<StationSummary>| async move {
                let id = validate::station_id(&input.station)?;
                let station = match app.client.station(&id).await {
                    Ok(Some(station)) => station,
                    Ok(None) => return Err(TideError::StationNotFound(id).into()),
                    Err(e) => return Ok(CallToolResult::text(unavailable(&id, &e))),
                };

                let today = Utc::now().date_naive();
                let levels = app
                    .client
                    .water_levels(&id, today, today, Datum::Mllw, Units::Metric)
                    .await?;
                let latest = levels.iter().rev().find_map(|r| reading_value(&r.v));

                let now = Utc::now().naive_utc();
                let next = app
                    .client
                    .predictions(&id, today, "hilo")
                    .await
                    .map_err(Error::tool_from)?
                    .into_iter()
                    .find(|p| {
                        NaiveDateTime::parse_from_str(&p.t, "%Y-%m-%d %H:%M")
                            .expect("API sends YYYY-MM-DD HH:MM")
                            > now
                    });

                Ok(CallToolResult::json(json!({
                    "station": station.name,
                    "latest_level_m": latest,
                    "next_tide": next,
                })))
            },
        )
        .build()
}

fn tide_window(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("tide_window")
        .description("Times on a day when predicted water is above a given height")
        .read_only()
        .handler(move |input: TideWindow| {
            let app = app.clone();
            async move {
                if !input.min_height_m.is_finite() || input.min_height_m.abs() > 20.0 {
                    return Err(Error::tool("Invalid height"));
                }
                let id = validate::station_id(&input.station)?;
                let day = validate::date(&input.date, "date")?;
                let rows = app.client.predictions(&id, day, "6").await?;

                let mut windows: Vec<(String, String)> = Vec::new();
                let mut open: Option<String> = None;
                for row in &rows {
                    let Some(v) = reading_value(&row.v) else { continue };
                    match (&open, v >= input.min_height_m) {
                        (None, true) => open = Some(row.t.clone()),
                        (Some(start), false) => {
                            windows.push((start.clone(), row.t.clone()));
                            open = None;
                        }
                        _ => {}
                    }
                }
                if let Some(start) = open {
                    windows.push((start, "end of day".to_string()));
                }
                Ok(CallToolResult::json(json!({
                    "station": id,
                    "date": day.to_string(),
                    "min_height_m": input.min_height_m,
                    "windows": windows,
                })))
            }
        })
        .build()
}
