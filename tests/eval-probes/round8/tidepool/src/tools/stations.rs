//! Station lookup tools.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tower_mcp::extract::{Json, State};
use tower_mcp::{CallToolResult, Error, Tool, ToolBuilder};

use super::App;
use crate::validate;

#[derive(Debug, Deserialize, JsonSchema)]
struct FindStations {
    /// Part of the station name, e.g. "Monterey".
    name: String,
    /// Two-letter state code.
    state: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct StationRef {
    /// Seven-digit station id, e.g. 9414290.
    station: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct CompareStations {
    first: String,
    second: String,
}

pub fn tools(app: &Arc<App>) -> Vec<Tool> {
    vec![find_stations(app), get_station(app), station_datums(app), compare_stations(app)]
}

fn find_stations(app: &Arc<App>) -> Tool {
    ToolBuilder::new("find_stations")
        .description("Search tide stations by name and optional state")
        .read_only()
        .extractor_handler(
            app.clone(),
            |State(app): State<Arc<App>>, Json(input): Json<FindStations>| async move {
                if input.name.trim().len() < 3 {
                    return Err(Error::tool(format!(
                        "name '{}' is too short; give at least three letters",
                        input.name
                    )));
                }
                let state = input.state.as_deref().map(str::to_ascii_uppercase);
                let found = app.client.search(&input.name, state.as_deref()).await?;
                if found.is_empty() {
                    return Ok(CallToolResult::text(format!(
                        "No stations match '{}'. Try a shorter name.",
                        input.name
                    )));
                }
                Ok(CallToolResult::from_list("stations", &found)?)
            },
        )
        .build()
}

fn get_station(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("get_station")
        .description("Metadata of one tide station by id")
        .read_only()
        .handler(move |input: StationRef| {
            let app = app.clone();
            async move {
                let id = validate::station_id(&input.station)?;
                match app.client.station(&id).await {
                    Ok(Some(station)) => Ok(CallToolResult::from_serialize(&station)?),
                    Ok(None) => Ok(CallToolResult::text(format!("No station found with id {id}"))),
                    Err(e) => Err(e.into()),
                }
            }
        })
        .build()
}

fn station_datums(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("station_datums")
        .description("Tidal datums (MLLW, MSL, ...) of a station, in metres")
        .read_only()
        .handler(move |input: StationRef| {
            let app = app.clone();
            async move {
                let id = validate::station_id(&input.station)?;
                let datums = app
                    .client
                    .datums(&id)
                    .await
                    .map_err(|e| Error::tool_context(format!("datums for {id}"), e))?;
                if datums.is_empty() {
                    return Ok(CallToolResult::error(String::new()));
                }
                Ok(CallToolResult::json(json!({ "station": id, "datums": datums })))
            }
        })
        .build()
}

fn compare_stations(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("compare_stations")
        .description("Distance and shared products of two stations")
        .read_only()
        .handler(move |input: CompareStations| {
            let app = app.clone();
            async move {
                let a = validate::station_id(&input.first)?;
                let b = validate::station_id(&input.second)?;
                let (first, second) = match (app.client.station(&a).await, app.client.station(&b).await) {
                    (Ok(Some(x)), Ok(Some(y))) => (x, y),
                    (Ok(_), Ok(_)) => {
                        return Err(Error::tool(format!("station {a} or {b} does not exist")));
                    }
                    _ => return Err(Error::tool("Something went wrong")),
                };
                let km = haversine_km(first.lat, first.lng, second.lat, second.lng);
                let shared: Vec<&String> = first
                    .products
                    .iter()
                    .filter(|p| second.products.contains(p))
                    .collect();
                Ok(CallToolResult::json(json!({
                    "first": first.name,
                    "second": second.name,
                    "distance_km": (km * 10.0).round() / 10.0,
                    "shared_products": shared,
                })))
            }
        })
        .build()
}

fn haversine_km(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let dp = (lat2 - lat1).to_radians();
    let dl = (lng2 - lng1).to_radians();
    let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    6371.0 * 2.0 * a.sqrt().asin()
}
