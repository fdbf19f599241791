use thiserror::Error;

/// What a tool can fail with; `main` turns it into a JSON-RPC error.
#[derive(Debug, Error)]
pub enum CatalogError {
    #[error("missing or mistyped argument `{0}`")]
    MissingArgument(&'static str),

    #[error("{0}")]
    BadArgument(String),

    #[error("{0} not found in the catalogue")]
    NotFound(String),

    #[error("catalogue is locked: {0}")]
    Locked(String),

    #[error("{0}")]
    Stale(String),

    #[error("file system error: {0}")]
    Io(#[from] std::io::Error),

    #[error("could not encode catalogue: {0}")]
    Encode(serde_json::Error),

    #[error("catalogue lock poisoned")]
    Poisoned,

    #[error("background scan task failed: {0}")]
    Join(String),

    #[error("{0} is not initialised")]
    NotReady(&'static str),
}

pub type CatalogResult<T> = Result<T, CatalogError>;
