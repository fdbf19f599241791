//! Start-up configuration for tidepool.

use std::sync::OnceLock;
use std::time::Duration;

static CONFIG: OnceLock<Config> = OnceLock::new();

#[derive(Debug, Clone)]
pub struct Config {
    /// Base URL of the observations API, without a trailing slash.
    pub api_base: String,
    /// Application name sent with every request, as the API asks.
    pub application: String,
    /// Optional key for the buoy feed; buoy tools are off without it.
    pub buoy_key: Option<String>,
    pub request_timeout: Duration,
    pub cache_ttl: Duration,
    /// Longest range a single water-level query may span, in days.
    pub max_range_days: i64,
}

#[derive(Debug, thiserror::Error)]
#[error("{var}: {reason}")]
pub struct ConfigError {
    var: &'static str,
    reason: String,
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        let api_base = std::env::var("TIDEPOOL_API_BASE")
            .unwrap_or_else(|_| "https://api.tidesandcurrents.example/api/prod".to_string())
            .trim_end_matches('/')
            .to_string();
        if !api_base.starts_with("https://") && !api_base.starts_with("http://127.0.0.1") {
            return Err(ConfigError {
                var: "TIDEPOOL_API_BASE",
                reason: format!("{api_base} must be an https URL"),
            });
        }
        Ok(Self {
            api_base,
            application: std::env::var("TIDEPOOL_APPLICATION").unwrap_or_else(|_| "tidepool".into()),
            buoy_key: std::env::var("TIDEPOOL_BUOY_KEY").ok().filter(|k| !k.is_empty()),
            request_timeout: Duration::from_secs(secs("TIDEPOOL_TIMEOUT_SECS", 20)?),
            cache_ttl: Duration::from_secs(secs("TIDEPOOL_CACHE_TTL_SECS", 300)?),
            max_range_days: secs("TIDEPOOL_MAX_RANGE_DAYS", 31)? as i64,
        })
    }
}

fn secs(var: &'static str, default: u64) -> Result<u64, ConfigError> {
    match std::env::var(var) {
        Ok(raw) => raw.trim().parse().map_err(|e| ConfigError {
            var,
            reason: format!("{raw:?} is not a whole number: {e}"),
        }),
        Err(_) => Ok(default),
    }
}

pub fn install(cfg: Config) -> Result<&'static Config, Config> {
    CONFIG.set(cfg)?;
    Ok(CONFIG.get().expect("just set"))
}

pub fn get() -> Option<&'static Config> {
    CONFIG.get()
}
