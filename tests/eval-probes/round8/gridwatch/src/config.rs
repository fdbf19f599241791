use std::path::PathBuf;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct Config {
    pub server: ServerConfig,
    pub database: DatabaseConfig,
    pub metrics: Option<MetricsConfig>,
    #[serde(default)]
    pub reports: ReportConfig,
    #[serde(default)]
    pub limits: Limits,
}

#[derive(Debug, Deserialize)]
pub struct ServerConfig {
    pub bind: String,
}

#[derive(Debug, Deserialize)]
pub struct DatabaseConfig {
    pub path: PathBuf,
}

#[derive(Debug, Deserialize)]
pub struct MetricsConfig {
    pub base_url: String,
    pub token: Option<String>,
    #[serde(default = "default_timeout")]
    pub timeout_secs: u64,
}

#[derive(Debug, Default, Deserialize)]
pub struct ReportConfig {
    /// Directory reports are written into; exporting is disabled when unset.
    pub export_dir: Option<PathBuf>,
}

#[derive(Debug, Deserialize)]
pub struct Limits {
    pub max_series_points: usize,
    pub max_forecast_hours: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_series_points: 2_000,
            max_forecast_hours: 168,
        }
    }
}

fn default_timeout() -> u64 {
    10
}

impl Config {
    pub fn load(path: &str) -> Result<Config, Box<dyn std::error::Error>> {
        let text = std::fs::read_to_string(path)?;
        let cfg: Config = toml::from_str(&text)?;
        Ok(cfg)
    }
}
