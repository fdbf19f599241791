//! Open-Meteo client: geocoding, forecast, current weather, alerts.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("HTTP request failed: {0}")]
    Http(#[from] reqwest::Error),
    #[error("weather service answered {status}: {message}")]
    Status { status: u16, message: String },
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Location {
    pub latitude: f64,
    pub longitude: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Place {
    pub name: String,
    pub country: String,
    #[serde(flatten)]
    pub location: Location,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DailyForecast {
    pub date: NaiveDate,
    pub min_c: f64,
    pub max_c: f64,
    pub precipitation_mm: f64,
    pub summary: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Current {
    pub temperature_c: f64,
    pub wind_kmh: f64,
    pub summary: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Alert {
    pub event: String,
    pub severity: String,
    pub headline: String,
}

#[derive(Clone)]
pub struct OpenMeteo {
    http: reqwest::Client,
    base: String,
}

impl OpenMeteo {
    pub fn new(base: Option<String>) -> Self {
        Self {
            http: reqwest::Client::new(),
            base: base.unwrap_or_else(|| "https://api.open-meteo.com".to_string()),
        }
    }

    async fn get<T: for<'de> Deserialize<'de>>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<T, ApiError> {
        let resp = self
            .http
            .get(format!("{}{path}", self.base))
            .query(query)
            .send()
            .await?;
        if !resp.status().is_success() {
            return Err(ApiError::Status {
                status: resp.status().as_u16(),
                message: resp.text().await.unwrap_or_default(),
            });
        }
        Ok(resp.json().await?)
    }

    pub async fn geocode(&self, city: &str) -> Result<Option<Place>, ApiError> {
        #[derive(Deserialize)]
        struct Found {
            #[serde(default)]
            results: Vec<Place>,
        }
        let found: Found = self
            .get(
                "/v1/search",
                &[("name", city.to_string()), ("count", "1".into())],
            )
            .await?;
        Ok(found.results.into_iter().next())
    }

    pub async fn forecast(&self, at: Location, days: u8) -> Result<Vec<DailyForecast>, ApiError> {
        self.get(
            "/v1/forecast",
            &[
                ("latitude", at.latitude.to_string()),
                ("longitude", at.longitude.to_string()),
                ("forecast_days", days.to_string()),
            ],
        )
        .await
    }

    pub async fn history(&self, at: Location, date: NaiveDate) -> Result<DailyForecast, ApiError> {
        self.get(
            "/v1/archive",
            &[
                ("latitude", at.latitude.to_string()),
                ("longitude", at.longitude.to_string()),
                ("date", date.to_string()),
            ],
        )
        .await
    }

    pub async fn current(&self, city: &str) -> Result<Option<Current>, ApiError> {
        let Some(place) = self.geocode(city).await? else {
            return Ok(None);
        };
        let at = place.location;
        self.get(
            "/v1/current",
            &[
                ("latitude", at.latitude.to_string()),
                ("longitude", at.longitude.to_string()),
            ],
        )
        .await
        .map(Some)
    }

    pub async fn alerts(&self, region: &str) -> Result<Vec<Alert>, ApiError> {
        self.get("/v1/alerts", &[("region", region.to_string())])
            .await
    }

    pub async fn ping(&self) -> bool {
        self.http
            .get(format!("{}/v1/ping", self.base))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
    }
}
