//! Domain types of the vessel log.

use std::{fmt, str::FromStr};

use rmcp::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Berth {
    pub code: String,
    pub quay: String,
    pub length_m: f64,
    pub max_draft_m: f64,
    pub closed: bool,
    pub closed_reason: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CallStatus {
    Expected,
    Alongside,
    Departed,
    Cancelled,
}

impl CallStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            CallStatus::Expected => "expected",
            CallStatus::Alongside => "alongside",
            CallStatus::Departed => "departed",
            CallStatus::Cancelled => "cancelled",
        }
    }

    pub fn is_final(self) -> bool {
        matches!(self, CallStatus::Departed | CallStatus::Cancelled)
    }
}

impl fmt::Display for CallStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CallStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "expected" => Ok(CallStatus::Expected),
            "alongside" => Ok(CallStatus::Alongside),
            "departed" => Ok(CallStatus::Departed),
            "cancelled" | "canceled" => Ok(CallStatus::Cancelled),
            other => Err(format!(
                "unknown call status {other:?}; expected one of expected, alongside, departed, cancelled"
            )),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct VesselCall {
    pub id: String,
    pub imo: String,
    pub vessel_name: String,
    pub berth: String,
    pub eta: String,
    pub etd: String,
    pub draft_m: f64,
    pub status: CallStatus,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ManifestLine {
    pub call_id: String,
    pub hs_code: String,
    pub description: String,
    pub tonnes: f64,
    pub dangerous: bool,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ManifestSummary {
    pub call_id: String,
    pub lines: usize,
    pub total_tonnes: f64,
    pub dangerous_lines: usize,
}
