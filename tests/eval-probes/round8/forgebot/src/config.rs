//! Start-up configuration of forgebot, read from the environment once.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

static CONFIG: OnceLock<ForgeConfig> = OnceLock::new();

#[derive(Debug, Clone)]
pub struct ForgeConfig {
    /// Base URL of the forge's REST API, e.g. https://ci.example.internal/api/v4
    pub api_base: String,
    /// Token for write operations; read-only tools work without it.
    pub token: Option<String>,
    /// Checkout that local tools (lint, ref checks) run in.
    pub workspace: PathBuf,
    /// Where downloaded artifacts may be written.
    pub artifact_dir: PathBuf,
    pub http_timeout: Duration,
    pub lint_command: Vec<String>,
}

impl ForgeConfig {
    pub fn from_env() -> Result<Self, String> {
        let api_base = std::env::var("FORGE_API")
            .map_err(|_| "FORGE_API must be set to the forge API base URL".to_string())?;
        let workspace = std::env::var("FORGE_WORKSPACE")
            .map(PathBuf::from)
            .unwrap_or_else(|_| PathBuf::from("."));
        let artifact_dir = std::env::var("FORGE_ARTIFACT_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|_| workspace.join("target/artifacts"));
        let secs: u64 = std::env::var("FORGE_HTTP_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(20);
        let lint_command = std::env::var("FORGE_LINT_CMD")
            .unwrap_or_else(|_| "make lint".to_string())
            .split_whitespace()
            .map(str::to_string)
            .collect();
        Ok(Self {
            api_base: api_base.trim_end_matches('/').to_string(),
            token: std::env::var("FORGE_TOKEN").ok(),
            workspace,
            artifact_dir,
            http_timeout: Duration::from_secs(secs),
            lint_command,
        })
    }
}

pub fn install(cfg: ForgeConfig) {
    let _ = CONFIG.set(cfg);
}

pub fn get() -> Option<&'static ForgeConfig> {
    CONFIG.get()
}
