//! Start-up configuration, read once from the environment.

use std::path::PathBuf;

use once_cell::sync::OnceCell;

pub static CONFIG: OnceCell<Config> = OnceCell::new();

#[derive(Debug, Clone)]
pub struct Config {
    /// Name reported in `initialize`.
    pub server_name: String,
    /// Directory journal exports are written to; export is off when unset.
    pub export_dir: Option<PathBuf>,
    /// ISO currency codes accounts may be opened in.
    pub currencies: Vec<String>,
    /// Maximum postings accepted per minute.
    pub max_posts_per_minute: u32,
    /// Largest single posting, in cents.
    pub max_posting_cents: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{var} must be a positive integer, got {value:?}")]
    NotANumber { var: &'static str, value: String },
    #[error("LEDGER_EXPORT_DIR {0} is not a directory")]
    NotADirectory(PathBuf),
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        let server_name =
            std::env::var("LEDGER_SERVER_NAME").unwrap_or_else(|_| "ledgerline".to_string());

        let export_dir = match std::env::var_os("LEDGER_EXPORT_DIR") {
            Some(raw) => {
                let dir = PathBuf::from(raw);
                if !dir.is_dir() {
                    return Err(ConfigError::NotADirectory(dir));
                }
                Some(dir)
            }
            None => None,
        };

        let currencies = std::env::var("LEDGER_CURRENCIES")
            .unwrap_or_else(|_| "EUR,USD,GBP".to_string())
            .split(',')
            .map(|c| c.trim().to_ascii_uppercase())
            .filter(|c| !c.is_empty())
            .collect();

        let max_posts_per_minute = read_number("LEDGER_MAX_POSTS_PER_MINUTE", 120)?;
        let max_posting_cents = i64::from(read_number("LEDGER_MAX_POSTING_EUR", 1_000_000)?) * 100;

        Ok(Self {
            server_name,
            export_dir,
            currencies,
            max_posts_per_minute,
            max_posting_cents,
        })
    }
}

fn read_number(var: &'static str, default: u32) -> Result<u32, ConfigError> {
    match std::env::var(var) {
        Ok(value) => value
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or(ConfigError::NotANumber { var, value }),
        Err(_) => Ok(default),
    }
}

/// The configuration, once `main` has stored it.
pub fn get() -> Option<&'static Config> {
    CONFIG.get()
}
