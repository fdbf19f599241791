//! Observation and prediction tools.

use std::sync::Arc;

use chrono::{Duration, Utc};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tower_mcp::protocol::RequestOutcome;
use tower_mcp::{CallToolResult, Error, JsonRpcError, McpErrorCode, RequestContext, Tool, ToolBuilder};

use super::{reading_value, App};
use crate::validate::{self, Datum, Units};

#[derive(Debug, Deserialize, JsonSchema)]
struct WaterLevels {
    station: String,
    /// YYYY-MM-DD
    begin_date: String,
    /// YYYY-MM-DD
    end_date: String,
    /// Vertical datum, default MLLW.
    datum: Option<String>,
    #[serde(default)]
    units: Units,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Predictions {
    station: String,
    /// YYYY-MM-DD; today when absent.
    date: Option<String>,
    /// "hilo" for highs and lows, or minutes: "6", "30", "60".
    interval: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Currents {
    /// Current station id, e.g. "cb1401".
    station: String,
    /// Depth bin, 1 is nearest the surface.
    bin: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct BuoyQuery {
    buoy: String,
    /// Hours of history, 1..=72.
    hours: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct WaterTemperature {
    station: String,
    /// Hours of readings, 1..=168.
    hours: u32,
    datum: Option<Datum>,
}

pub fn tools(app: &Arc<App>) -> Vec<Tool> {
    vec![
        water_levels(app),
        tide_predictions(app),
        currents(app),
        buoy_observations(app),
        water_temperature(app),
    ]
}

fn water_levels(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("water_levels")
        .description("Observed water levels of a station over a date range (max 31 days)")
        .read_only()
        .handler(move |input: WaterLevels| {
            let app = app.clone();
            async move {
                let id = validate::station_id(&input.station)?;
                let begin = validate::date(&input.begin_date, "begin_date")?;
                let end = validate::date(&input.end_date, "end_date")?;
                validate::range(begin, end, app.cfg.max_range_days)?;
                let datum = match input.datum.as_deref() {
                    Some(raw) => Datum::parse(raw)?,
                    None => Datum::Mllw,
                };

                let readings = app
                    .client
                    .water_levels(&id, begin, end, datum, input.units)
                    .await?;
                let values: Vec<f64> = readings.iter().filter_map(|r| reading_value(&r.v)).collect();
                if values.is_empty() {
                    return Ok(CallToolResult::text(format!(
                        "Station {id} reported no water levels between {begin} and {end}."
                    )));
                }
                let max = values.iter().cloned().fold(f64::MIN, f64::max);
                let min = values.iter().cloned().fold(f64::MAX, f64::min);
                Ok(CallToolResult::json(json!({
                    "station": id,
                    "datum": datum.as_str(),
                    "units": input.units.as_str(),
                    "count": values.len(),
                    "min": min,
                    "max": max,
                    "readings": readings,
                })))
            }
        })
        .build()
}

fn tide_predictions(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("tide_predictions")
        .description("Predicted tides for one day: highs/lows or a fixed interval")
        .read_only()
        .handler(move |input: Predictions| {
            let app = app.clone();
            async move {
                let id = validate::station_id(&input.station)?;
                let day = match input.date.as_deref() {
                    Some(raw) => validate::date(raw, "date")?,
                    None => Utc::now().date_naive(),
                };
                let interval = input.interval.unwrap_or_else(|| "hilo".to_string());
                if !["hilo", "1", "6", "15", "30", "60", "h"].contains(&interval.as_str()) {
                    return Err(Error::invalid_params(format!(
                        "interval '{interval}' is not supported; use hilo, 1, 6, 15, 30, 60 or h"
                    )));
                }
                let horizon = Utc::now().date_naive() + Duration::days(730);
                if day > horizon {
                    return Err(Error::JsonRpc(JsonRpcError::mcp_error(
                        McpErrorCode::Forbidden,
                        format!("predictions are published only up to {horizon}"),
                    )));
                }
                let rows = app.client.predictions(&id, day, &interval).await?;
                Ok(CallToolResult::json(json!({ "station": id, "date": day.to_string(), "predictions": rows })))
            }
        })
        .build()
}

fn currents(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("currents")
        .description("Latest current speed and direction at a current station")
        .read_only()
        .handler(move |input: Currents| {
            let app = app.clone();
            async move {
                let bin = input.bin.unwrap_or(1);
                match app.client.currents(input.station.trim(), bin).await {
                    Ok(rows) => match rows.last() {
                        Some(latest) => Ok(CallToolResult::json(json!({
                            "station": input.station,
                            "bin": bin,
                            "time": latest.t,
                            "speed": reading_value(&latest.v),
                        }))),
                        None => Ok(CallToolResult::text(format!(
                            "No current data for {} bin {bin} right now.",
                            input.station
                        ))),
                    },
                    Err(e) => Ok(CallToolResult::text(format!("Error: {e}"))),
                }
            }
        })
        .build()
}

fn buoy_observations(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("buoy_observations")
        .description("Waves, wind and water temperature from an offshore buoy")
        .read_only()
        .handler(move |input: BuoyQuery| {
            let app = app.clone();
            async move {
                if !app.client.has_buoy_feed() {
                    return Err(Error::internal(
                        "buoy feed is not configured on this server (TIDEPOOL_BUOY_KEY)",
                    ));
                }
                let buoy = validate::buoy_id(&input.buoy)?;
                let hours = input.hours.unwrap_or(24);
                if !(1..=72).contains(&hours) {
                    return Err(Error::tool(format!("hours must be between 1 and 72, got {hours}")));
                }
                let obs = match app.client.buoy(&buoy, hours).await {
                    Ok(obs) => obs,
                    Err(e) => return Err(Error::tool_context(format!("buoy {buoy}"), e)),
                };
                let latest = obs.last().cloned();
                let summary = json!({
                    "buoy": buoy,
                    "hours": hours,
                    "observations": obs.len(),
                    "latest": latest,
                });
                Ok(CallToolResult::json(summary))
            }
        })
        .build()
}

/// Long water-temperature series are returned a page at a time; the page
/// cursor rides in the request state of a multi-round-trip call.
fn water_temperature(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("water_temperature")
        .description("Hourly water temperature readings, paged for long ranges")
        .read_only()
        .mrtr_handler(move |ctx: RequestContext, input: WaterTemperature| {
            let app = app.clone();
            async move {
                let page: usize = match ctx.request_state() {
                    Some(state) => state.parse().map_err(|_| {
                        Error::invalid_params("request state is not a page cursor this server issued")
                    })?,
                    None => 0,
                };
                if input.hours == 0 || input.hours > 168 {
                    return Err(Error::invalid_params(format!(
                        "hours must be between 1 and 168, got {}",
                        input.hours
                    )));
                }
                let id = validate::station_id(&input.station)?;
                let begin = Utc::now().date_naive() - Duration::hours(i64::from(input.hours));
                let readings = app.client.water_temperature(&id, begin, input.hours).await?;
                if readings.is_empty() {
                    return Err(Error::internal("operation failed"));
                }
                let chunk: Vec<_> = readings.iter().skip(page * 48).take(48).cloned().collect();
                let body = json!({
                    "station": id,
                    "page": page,
                    "more": readings.len() > (page + 1) * 48,
                    "datum": input.datum.map(Datum::as_str),
                    "readings": chunk,
                });
                Ok(RequestOutcome::Complete(CallToolResult::json(body)))
            }
        })
        .build()
}
