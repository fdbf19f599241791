//! Argument validation shared by the tools.

use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::TideError;

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Datum {
    Mllw,
    Mlw,
    Msl,
    Mhw,
    Mhhw,
    Navd,
    Stnd,
}

impl Datum {
    pub fn as_str(self) -> &'static str {
        match self {
            Datum::Mllw => "MLLW",
            Datum::Mlw => "MLW",
            Datum::Msl => "MSL",
            Datum::Mhw => "MHW",
            Datum::Mhhw => "MHHW",
            Datum::Navd => "NAVD",
            Datum::Stnd => "STND",
        }
    }

    pub fn parse(raw: &str) -> Result<Self, TideError> {
        match raw.trim().to_ascii_uppercase().as_str() {
            "MLLW" => Ok(Datum::Mllw),
            "MLW" => Ok(Datum::Mlw),
            "MSL" => Ok(Datum::Msl),
            "MHW" => Ok(Datum::Mhw),
            "MHHW" => Ok(Datum::Mhhw),
            "NAVD" | "NAVD88" => Ok(Datum::Navd),
            "STND" => Ok(Datum::Stnd),
            _ => Err(TideError::InvalidArgument("Unsupported datum".to_string())),
        }
    }
}

#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    #[default]
    Metric,
    English,
}

impl Units {
    pub fn as_str(self) -> &'static str {
        match self {
            Units::Metric => "metric",
            Units::English => "english",
        }
    }
}

/// Tide-gauge ids are seven digits (e.g. 9414290, San Francisco).
pub fn station_id(raw: &str) -> Result<String, TideError> {
    let id = raw.trim();
    if id.len() != 7 || !id.chars().all(|c| c.is_ascii_digit()) {
        return Err(TideError::InvalidArgument(format!(
            "station id '{raw}' must be seven digits, e.g. 9414290"
        )));
    }
    Ok(id.to_string())
}

/// Buoy ids are five characters, digits and upper-case letters (e.g. 46026).
pub fn buoy_id(raw: &str) -> Result<String, TideError> {
    let id = raw.trim().to_ascii_uppercase();
    if id.len() != 5 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(TideError::InvalidArgument(format!(
            "buoy id '{raw}' must be five letters or digits, e.g. 46026"
        )));
    }
    Ok(id)
}

pub fn date(raw: &str, field: &str) -> Result<NaiveDate, TideError> {
    NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d").map_err(|e| {
        TideError::InvalidArgument(format!("{field} '{raw}' is not a YYYY-MM-DD date: {e}"))
    })
}

pub fn range(begin: NaiveDate, end: NaiveDate, max_days: i64) -> Result<(), TideError> {
    if end < begin {
        return Err(TideError::InvalidArgument(format!(
            "end_date {end} is before begin_date {begin}"
        )));
    }
    let days = (end - begin).num_days() + 1;
    if days > max_days {
        return Err(TideError::InvalidArgument(format!(
            "range of {days} days is longer than the {max_days}-day limit; split the query"
        )));
    }
    Ok(())
}
