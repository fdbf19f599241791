use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::NaiveDate;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{schemars, tool, tool_router, RoleServer, ServerHandler};
use serde::Deserialize;

use crate::api::{ApiError, DailyForecast, OpenMeteo};
use crate::units::ConvertTemperature;
use crate::McpError;

/// Our code for "the upstream weather service failed".
pub const UPSTREAM_UNAVAILABLE: ErrorCode = ErrorCode(-32500);

const CACHE_TTL: Duration = Duration::from_secs(600);

type ForecastCache = HashMap<(String, u8), (Instant, Vec<DailyForecast>)>;

#[derive(Clone)]
pub struct WeatherServer {
    api: OpenMeteo,
    cache: Arc<Mutex<ForecastCache>>,
    tool_router: ToolRouter<Self>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ForecastArgs {
    /// City name, e.g. "Lisbon"
    pub city: String,
    /// Number of days, 1 to 16
    pub days: u8,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CityArg {
    pub city: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AlertArgs {
    /// Two-letter region code, e.g. "PT"
    pub region: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct HistoryArgs {
    pub city: String,
    /// Date as YYYY-MM-DD, in the past
    pub date: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CompareArgs {
    /// Two to five cities
    pub cities: Vec<String>,
}

fn upstream(e: ApiError) -> McpError {
    McpError::new(
        UPSTREAM_UNAVAILABLE,
        format!("weather service error: {e}"),
        None,
    )
}

fn render_days(place: &str, days: &[DailyForecast]) -> String {
    let mut out = format!("Forecast for {place}:\n");
    for d in days {
        out.push_str(&format!(
            "{}: {:.0}..{:.0} °C, {:.1} mm, {}\n",
            d.date, d.min_c, d.max_c, d.precipitation_mm, d.summary
        ));
    }
    out
}

#[tool_router]
impl WeatherServer {
    pub fn new(api: OpenMeteo) -> Self {
        Self {
            api,
            cache: Arc::new(Mutex::new(HashMap::new())),
            tool_router: Self::tool_router().with_sync_tool::<ConvertTemperature>(),
        }
    }

    #[tool(description = "Daily forecast for a city, 1 to 16 days ahead")]
    async fn forecast(
        &self,
        Parameters(ForecastArgs { city, days }): Parameters<ForecastArgs>,
    ) -> Result<CallToolResult, McpError> {
        if !(1..=16).contains(&days) {
            return Err(McpError::invalid_params(
                format!("days must be between 1 and 16, got {days}"),
                None,
            ));
        }
        let key = (city.to_lowercase(), days);
        {
            let cache = self
                .cache
                .lock()
                .map_err(|_| McpError::internal_error("forecast cache lock poisoned", None))?;
            if let Some((at, days)) = cache.get(&key) {
                if at.elapsed() < CACHE_TTL {
                    return Ok(CallToolResult::success(vec![Content::text(render_days(
                        &city, days,
                    ))]));
                }
            }
        }
        let Some(place) = self.api.geocode(&city).await.map_err(upstream)? else {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "no place called {city:?}; check the spelling or try a larger nearby city"
            ))]));
        };
        let forecast = self
            .api
            .forecast(place.location, days)
            .await
            .map_err(upstream)?;
        let text = render_days(&format!("{}, {}", place.name, place.country), &forecast);
        self.cache
            .lock()
            .map_err(|_| McpError::internal_error("forecast cache lock poisoned", None))?
            .insert(key, (Instant::now(), forecast.clone()));
        Ok(CallToolResult::success(vec![
            Content::text(text),
            Content::json(&forecast)?,
        ]))
    }

    #[tool(description = "Current conditions in a city")]
    async fn current(
        &self,
        Parameters(CityArg { city }): Parameters<CityArg>,
    ) -> Result<CallToolResult, McpError> {
        match self.api.current(&city).await {
            Ok(Some(now)) => Ok(CallToolResult::success(vec![Content::text(format!(
                "{city}: {:.1} °C, wind {:.0} km/h, {}",
                now.temperature_c, now.wind_kmh, now.summary
            ))])),
            Ok(None) => Ok(CallToolResult::error(vec![Content::text(format!(
                "no place called {city:?}"
            ))])),
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!(
                "Error: {e}"
            ))])),
        }
    }

    #[tool(description = "Active weather alerts for a two-letter region code")]
    async fn alerts(
        &self,
        Parameters(AlertArgs { region }): Parameters<AlertArgs>,
    ) -> Result<CallToolResult, McpError> {
        if region.len() != 2 || !region.chars().all(|c| c.is_ascii_alphabetic()) {
            return Ok(CallToolResult::error(vec![Content::text("Invalid input")]));
        }
        let region = region.to_ascii_uppercase();
        let alerts = self.api.alerts(&region).await.map_err(upstream)?;
        if alerts.is_empty() {
            return Ok(CallToolResult::success(vec![Content::text(format!(
                "No active alerts for {region}."
            ))]));
        }
        let lines: Vec<String> = alerts
            .iter()
            .map(|a| format!("[{}] {}: {}", a.severity, a.event, a.headline))
            .collect();
        Ok(CallToolResult::success(vec![Content::text(
            lines.join("\n"),
        )]))
    }

    #[tool(description = "Observed weather in a city on a past date")]
    async fn history(
        &self,
        Parameters(HistoryArgs { city, date }): Parameters<HistoryArgs>,
    ) -> Result<CallToolResult, McpError> {
        let day = match NaiveDate::parse_from_str(&date, "%Y-%m-%d") {
            Ok(day) => day,
            Err(e) => {
                let msg = format!("date must be YYYY-MM-DD: {e}");
                // mcp-lint: allow(tool_input_as_invalid_params) our gateway re-prompts on -32602 with the schema
                return Err(McpError::invalid_params(msg, None));
            }
        };
        let today = chrono::Utc::now().date_naive();
        if day >= today {
            let mut result = CallToolResult::success(vec![Content::text(format!(
                "Invalid date {date}: must be in the past. Today is {today}; use forecast for future days."
            ))]);
            result.is_error = Some(true);
            return Ok(result);
        }
        let Some(place) = self.api.geocode(&city).await.map_err(upstream)? else {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "no place called {city:?}"
            ))]));
        };
        let observed = self
            .api
            .history(place.location, day)
            .await
            .map_err(upstream)?;
        Ok(CallToolResult::success(vec![Content::text(render_days(
            &place.name,
            &[observed],
        ))]))
    }

    #[tool(description = "Compare today's forecast for two to five cities")]
    async fn compare(
        &self,
        Parameters(CompareArgs { cities }): Parameters<CompareArgs>,
    ) -> Result<CallToolResult, McpError> {
        if !(2..=5).contains(&cities.len()) {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "pass between 2 and 5 cities, got {}",
                cities.len()
            ))]));
        }
        let mut parts = Vec::new();
        let mut failures = 0;
        for city in &cities {
            let line = match self.api.geocode(city).await {
                Ok(Some(place)) => match self.api.forecast(place.location, 1).await {
                    Ok(days) => render_days(city, &days),
                    Err(e) => {
                        failures += 1;
                        format!("{city}: forecast unavailable ({e})")
                    }
                },
                Ok(None) => {
                    failures += 1;
                    format!("{city}: unknown place")
                }
                Err(e) => {
                    failures += 1;
                    format!("{city}: geocoding failed ({e})")
                }
            };
            parts.push(Content::text(line));
        }
        let mut result = CallToolResult::success(parts);
        if failures == cities.len() {
            result.is_error = Some(true);
        }
        Ok(result)
    }
}

impl ServerHandler for WeatherServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::from_build_env())
            .with_instructions("Weather data from Open-Meteo. Cities are plain names.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tool_router.list_all()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let started = Instant::now();
        let name = request.name.clone();
        let result = self
            .tool_router
            .call(ToolCallContext::new(self, request, context))
            .await;
        tracing::info!(tool = %name, ms = started.elapsed().as_millis() as u64, ok = result.is_ok(), "tool call");
        result
    }
}
