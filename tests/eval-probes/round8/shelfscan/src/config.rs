use std::path::PathBuf;
use std::sync::OnceLock;

/// Start-up configuration, from the environment.
#[derive(Debug)]
pub struct Config {
    pub library_root: PathBuf,
    pub index_path: PathBuf,
    pub isbn_cache: Option<PathBuf>,
    pub max_loan_days: i64,
    pub export_formats: Vec<&'static str>,
}

static CONFIG: OnceLock<Config> = OnceLock::new();

pub fn init() -> std::io::Result<&'static Config> {
    let root = match std::env::var_os("SHELFSCAN_ROOT") {
        Some(r) => PathBuf::from(r),
        None => dirs::home_dir()
            .map(|h| h.join("Books"))
            .ok_or_else(|| std::io::Error::other("no SHELFSCAN_ROOT and no home directory"))?,
    };
    let index_path = std::env::var_os("SHELFSCAN_INDEX")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".shelfscan-index.json"));
    let cfg = Config {
        library_root: root,
        index_path,
        isbn_cache: std::env::var_os("SHELFSCAN_ISBN_CACHE").map(PathBuf::from),
        max_loan_days: std::env::var("SHELFSCAN_LOAN_DAYS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(21),
        export_formats: vec!["json", "csv"],
    };
    Ok(CONFIG.get_or_init(|| cfg))
}

pub fn get() -> Option<&'static Config> {
    CONFIG.get()
}
