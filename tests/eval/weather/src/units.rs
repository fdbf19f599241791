//! A trait-based tool (rmcp's `SyncTool`): temperature conversion.

use std::borrow::Cow;

use rmcp::handler::server::router::tool::{SyncTool, ToolBase};
use rmcp::schemars;
use serde::{Deserialize, Serialize};

use crate::server::WeatherServer;
use crate::McpError;

const ABSOLUTE_ZERO_C: f64 = -273.15;

#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct ConvertArgs {
    /// The temperature to convert
    pub value: f64,
    /// Unit of `value`: C, F or K
    pub from: String,
    /// Target unit: C, F or K
    pub to: String,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Converted {
    pub value: f64,
    pub unit: String,
}

pub struct ConvertTemperature;

impl ToolBase for ConvertTemperature {
    type Parameter = ConvertArgs;
    type Output = Converted;
    type Error = McpError;

    fn name() -> Cow<'static, str> {
        "convert_temperature".into()
    }

    fn description() -> Option<Cow<'static, str>> {
        Some("Convert a temperature between Celsius (C), Fahrenheit (F) and Kelvin (K)".into())
    }
}

fn to_celsius(value: f64, unit: &str) -> Option<f64> {
    match unit {
        "C" => Some(value),
        "F" => Some((value - 32.0) * 5.0 / 9.0),
        "K" => Some(value + ABSOLUTE_ZERO_C),
        _ => None,
    }
}

fn from_celsius(c: f64, unit: &str) -> Option<f64> {
    match unit {
        "C" => Some(c),
        "F" => Some(c * 9.0 / 5.0 + 32.0),
        "K" => Some(c - ABSOLUTE_ZERO_C),
        _ => None,
    }
}

impl SyncTool<WeatherServer> for ConvertTemperature {
    fn invoke(_server: &WeatherServer, args: ConvertArgs) -> Result<Converted, McpError> {
        let from = args.from.to_ascii_uppercase();
        let to = args.to.to_ascii_uppercase();
        let (Some(celsius), true) = (
            to_celsius(args.value, &from),
            from_celsius(0.0, &to).is_some(),
        ) else {
            return Err(McpError::invalid_params(
                format!("cannot convert {from} to {to}; units are C, F and K"),
                None,
            ));
        };
        if celsius < ABSOLUTE_ZERO_C {
            return Err(McpError::internal_error(
                format!("{} {from} is below absolute zero", args.value),
                None,
            ));
        }
        let value = from_celsius(celsius, &to).unwrap_or(celsius);
        Ok(Converted {
            value: (value * 100.0).round() / 100.0,
            unit: to,
        })
    }
}
