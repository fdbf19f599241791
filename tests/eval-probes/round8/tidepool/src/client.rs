//! HTTP client for the tide-gauge / buoy observations API.

use chrono::NaiveDate;
use reqwest::StatusCode;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::cache::TtlCache;
use crate::config::Config;
use crate::error::TideError;
use crate::validate::{Datum, Units};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Station {
    pub id: String,
    pub name: String,
    pub state: Option<String>,
    pub lat: f64,
    pub lng: f64,
    #[serde(default)]
    pub products: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Reading {
    /// "YYYY-MM-DD HH:MM" in the station's local standard time.
    pub t: String,
    /// Value as a string, as the API sends it ("" when missing).
    pub v: String,
    #[serde(default)]
    pub q: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HighLow {
    pub t: String,
    pub v: String,
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuoyObs {
    pub time: String,
    pub wave_height_m: Option<f64>,
    pub dominant_period_s: Option<f64>,
    pub water_temp_c: Option<f64>,
    pub wind_speed_ms: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DatumValue {
    pub name: String,
    pub value: f64,
}

#[derive(Debug, Deserialize)]
struct ApiError {
    message: String,
}

#[derive(Debug, Deserialize)]
struct DataEnvelope<T> {
    #[serde(default)]
    data: Option<Vec<T>>,
    #[serde(default)]
    predictions: Option<Vec<T>>,
    #[serde(default)]
    error: Option<ApiError>,
}

pub struct TidesClient {
    http: reqwest::Client,
    base: String,
    application: String,
    buoy_key: Option<String>,
    stations: TtlCache<Station>,
}

impl TidesClient {
    pub fn new(cfg: &Config) -> Result<Self, TideError> {
        let http = reqwest::Client::builder()
            .timeout(cfg.request_timeout)
            .user_agent(format!("tidepool/{}", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Self {
            http,
            base: cfg.api_base.clone(),
            application: cfg.application.clone(),
            buoy_key: cfg.buoy_key.clone(),
            stations: TtlCache::new(cfg.cache_ttl),
        })
    }

    pub fn station_cache(&self) -> &TtlCache<Station> {
        &self.stations
    }

    pub fn has_buoy_feed(&self) -> bool {
        self.buoy_key.is_some()
    }

    async fn get_json<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<T, TideError> {
        let response = self
            .http
            .get(format!("{}{}", self.base, path))
            .query(&[("application", self.application.as_str()), ("format", "json")])
            .query(query)
            .send()
            .await?;
        let status = response.status();
        if status == StatusCode::NOT_FOUND {
            return Err(TideError::StationNotFound(path.rsplit('/').next().unwrap_or(path).to_string()));
        }
        let body = response.text().await?;
        if !status.is_success() {
            return Err(TideError::Upstream {
                status: status.as_u16(),
                message: body.chars().take(200).collect(),
            });
        }
        serde_json::from_str(&body).map_err(TideError::Decode)
    }

    /// Product data for one station; the API reports errors inside a 200 body.
    async fn product<T: DeserializeOwned>(
        &self,
        station: &str,
        query: Vec<(&str, String)>,
    ) -> Result<Vec<T>, TideError> {
        let mut query = query;
        query.push(("station", station.to_string()));
        let envelope: DataEnvelope<T> = self.get_json("/datagetter", &query).await?;
        if let Some(err) = envelope.error {
            return Err(TideError::Upstream {
                status: 200,
                message: err.message,
            });
        }
        Ok(envelope.data.or(envelope.predictions).unwrap_or_default())
    }

    /// Station metadata, `None` when the API does not know the id.
    pub async fn station(&self, id: &str) -> Result<Option<Station>, TideError> {
        if let Some(hit) = self.stations.get(id)? {
            return Ok(Some(hit));
        }
        #[derive(Deserialize)]
        struct Wrapper {
            stations: Vec<Station>,
        }
        let found = match self.get_json::<Wrapper>(&format!("/mdapi/stations/{id}"), &[]).await {
            Ok(w) => w.stations.into_iter().next(),
            Err(TideError::StationNotFound(_)) => None,
            Err(e) => return Err(e),
        };
        if let Some(station) = &found {
            self.stations.put(id, station.clone())?;
        }
        Ok(found)
    }

    pub async fn search(&self, name: &str, state: Option<&str>) -> Result<Vec<Station>, TideError> {
        #[derive(Deserialize)]
        struct Wrapper {
            stations: Vec<Station>,
        }
        let all: Wrapper = self
            .get_json("/mdapi/stations", &[("type", "waterlevels".to_string())])
            .await?;
        let needle = name.to_lowercase();
        Ok(all
            .stations
            .into_iter()
            .filter(|s| s.name.to_lowercase().contains(&needle))
            .filter(|s| state.map_or(true, |st| s.state.as_deref() == Some(st)))
            .take(25)
            .collect())
    }

    pub async fn water_levels(
        &self,
        station: &str,
        begin: NaiveDate,
        end: NaiveDate,
        datum: Datum,
        units: Units,
    ) -> Result<Vec<Reading>, TideError> {
        self.product(
            station,
            vec![
                ("product", "water_level".to_string()),
                ("begin_date", begin.format("%Y%m%d").to_string()),
                ("end_date", end.format("%Y%m%d").to_string()),
                ("datum", datum.as_str().to_string()),
                ("units", units.as_str().to_string()),
                ("time_zone", "lst_ldt".to_string()),
            ],
        )
        .await
    }

    pub async fn predictions(&self, station: &str, day: NaiveDate, interval: &str) -> Result<Vec<HighLow>, TideError> {
        self.product(
            station,
            vec![
                ("product", "predictions".to_string()),
                ("begin_date", day.format("%Y%m%d").to_string()),
                ("range", "24".to_string()),
                ("datum", "MLLW".to_string()),
                ("interval", interval.to_string()),
            ],
        )
        .await
    }

    pub async fn currents(&self, station: &str, bin: u32) -> Result<Vec<Reading>, TideError> {
        self.product(
            station,
            vec![
                ("product", "currents".to_string()),
                ("date", "latest".to_string()),
                ("bin", bin.to_string()),
            ],
        )
        .await
    }

    pub async fn water_temperature(&self, station: &str, begin: NaiveDate, hours: u32) -> Result<Vec<Reading>, TideError> {
        self.product(
            station,
            vec![
                ("product", "water_temperature".to_string()),
                ("begin_date", begin.format("%Y%m%d").to_string()),
                ("range", hours.to_string()),
            ],
        )
        .await
    }

    pub async fn datums(&self, station: &str) -> Result<Vec<DatumValue>, TideError> {
        #[derive(Deserialize)]
        struct Wrapper {
            datums: Vec<DatumValue>,
        }
        let w: Wrapper = self.get_json(&format!("/mdapi/stations/{station}/datums"), &[]).await?;
        Ok(w.datums)
    }

    pub async fn buoy(&self, buoy: &str, hours: u32) -> Result<Vec<BuoyObs>, TideError> {
        let key = self.buoy_key.clone().unwrap_or_default();
        self.get_json(
            &format!("/buoys/{buoy}/observations"),
            &[("hours", hours.to_string()), ("key", key)],
        )
        .await
    }
}
