//! Start-up configuration from the environment.

use std::time::Duration;

use anyhow::Context;
use url::Url;

#[derive(Debug, Clone)]
pub struct Config {
    pub api_base: Url,
    pub token: Option<String>,
    pub default_queue: String,
    pub timeout: Duration,
}

impl Config {
    pub fn from_env() -> anyhow::Result<Self> {
        let base = std::env::var("RELAY_API_BASE")
            .unwrap_or_else(|_| "https://relay.example.com/api/v2/".to_string());
        let api_base = Url::parse(&base).with_context(|| format!("RELAY_API_BASE {base:?}"))?;
        let timeout = std::env::var("RELAY_TIMEOUT_SECS")
            .ok()
            .and_then(|s| s.parse().ok())
            .map(Duration::from_secs)
            .unwrap_or(Duration::from_secs(20));
        Ok(Self {
            api_base,
            token: std::env::var("RELAY_TOKEN").ok().filter(|t| !t.is_empty()),
            default_queue: std::env::var("RELAY_DEFAULT_QUEUE").unwrap_or_else(|_| "support".into()),
            timeout,
        })
    }
}
