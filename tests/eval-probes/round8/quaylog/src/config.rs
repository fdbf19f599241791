//! Start-up configuration, read once from the environment.

use std::{path::PathBuf, sync::OnceLock};

use anyhow::{Context, bail};

static CONFIG: OnceLock<Config> = OnceLock::new();

#[derive(Debug, Clone)]
pub struct Config {
    /// SQLite file holding berths, calls and manifests.
    pub db_path: PathBuf,
    /// UN/LOCODE of the harbour, e.g. "NLRTM".
    pub harbour: String,
    /// Deepest draft (metres) any berth of this harbour accepts.
    pub max_draft_m: f64,
    /// Where `export_berth_plan` writes CSV files; exporting is off when unset.
    pub export_dir: Option<PathBuf>,
    /// Maximum number of rows a search returns.
    pub search_limit: usize,
}

impl Config {
    pub fn from_env() -> anyhow::Result<Self> {
        let db_path = std::env::var("QUAYLOG_DB")
            .map(PathBuf::from)
            .unwrap_or_else(|_| PathBuf::from("quaylog.sqlite3"));
        let harbour = std::env::var("QUAYLOG_HARBOUR").unwrap_or_else(|_| "NLRTM".to_string());
        if harbour.len() != 5 {
            bail!("QUAYLOG_HARBOUR must be a 5-letter UN/LOCODE, got {harbour:?}");
        }
        let max_draft_m = match std::env::var("QUAYLOG_MAX_DRAFT") {
            Ok(v) => v.parse::<f64>().context("QUAYLOG_MAX_DRAFT is not a number")?,
            Err(_) => 16.5,
        };
        let export_dir = std::env::var("QUAYLOG_EXPORT_DIR").ok().map(PathBuf::from);
        let search_limit = std::env::var("QUAYLOG_SEARCH_LIMIT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(50);
        Ok(Self {
            db_path,
            harbour,
            max_draft_m,
            export_dir,
            search_limit,
        })
    }
}

pub fn install(cfg: Config) -> anyhow::Result<()> {
    CONFIG
        .set(cfg)
        .map_err(|_| anyhow::anyhow!("configuration installed twice"))
}

/// The configuration `main` installed before serving.
pub fn get() -> Option<&'static Config> {
    CONFIG.get()
}
