//! Start-up configuration, read once from the environment.

use once_cell::sync::OnceCell;
use std::time::Duration;

static CONFIG: OnceCell<ClinicConfig> = OnceCell::new();

#[derive(Debug, Clone)]
pub struct ClinicConfig {
    pub clinic_name: String,
    pub opening_hour: u32,
    pub closing_hour: u32,
    pub slot_minutes: u32,
    pub max_bulk_days: u32,
    pub export_dir: Option<String>,
    pub sync_timeout: Duration,
}

impl ClinicConfig {
    pub fn from_env() -> Result<Self, String> {
        let clinic_name = std::env::var("CLINICQ_NAME").unwrap_or_else(|_| "Riverside Family Practice".into());
        let opening_hour = read_u32("CLINICQ_OPEN_HOUR", 8)?;
        let closing_hour = read_u32("CLINICQ_CLOSE_HOUR", 18)?;
        if closing_hour <= opening_hour {
            return Err(format!(
                "CLINICQ_CLOSE_HOUR ({closing_hour}) must be after CLINICQ_OPEN_HOUR ({opening_hour})"
            ));
        }
        Ok(Self {
            clinic_name,
            opening_hour,
            closing_hour,
            slot_minutes: read_u32("CLINICQ_SLOT_MINUTES", 15)?,
            max_bulk_days: read_u32("CLINICQ_MAX_BULK_DAYS", 14)?,
            export_dir: std::env::var("CLINICQ_EXPORT_DIR").ok(),
            sync_timeout: Duration::from_secs(read_u32("CLINICQ_SYNC_TIMEOUT", 10)? as u64),
        })
    }
}

fn read_u32(key: &str, default: u32) -> Result<u32, String> {
    match std::env::var(key) {
        Ok(raw) => raw
            .parse()
            .map_err(|e| format!("{key}={raw:?} is not a number: {e}")),
        Err(_) => Ok(default),
    }
}

pub fn init(cfg: ClinicConfig) -> Result<(), ClinicConfig> {
    CONFIG.set(cfg)
}

pub fn config() -> Option<&'static ClinicConfig> {
    CONFIG.get()
}
