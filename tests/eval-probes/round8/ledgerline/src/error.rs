//! Error type of the ledger core and its mapping onto pmcp errors.

use pmcp::{Error, ErrorCode};
use thiserror::Error as ThisError;

/// Code we use when a posting touches an account that is closed or locked.
pub const LEDGER_CONFLICT: ErrorCode = ErrorCode::other(-32010);

/// Errors raised by the ledger store and the argument parsers.
#[derive(Debug, ThisError)]
pub enum LedgerError {
    #[error("account {0} does not exist")]
    AccountNotFound(String),

    #[error("transaction {0} does not exist")]
    TransactionNotFound(String),

    #[error("{0}")]
    Validation(String),

    #[error("transaction does not balance: debits {debits} vs credits {credits} (cents)")]
    Unbalanced { debits: i64, credits: i64 },

    #[error("account {0} is closed")]
    AccountClosed(String),

    #[error("ledger {0} lock poisoned")]
    Poisoned(&'static str),

    #[error("could not encode ledger data: {0}")]
    Encode(#[source] serde_json::Error),

    #[error("export I/O failed: {0}")]
    Io(#[from] std::io::Error),
}

impl LedgerError {
    pub fn validation(msg: impl Into<String>) -> Self {
        LedgerError::Validation(msg.into())
    }
}

impl From<LedgerError> for Error {
    fn from(err: LedgerError) -> Self {
        match err {
            LedgerError::AccountNotFound(id) => {
                Error::not_found(format!("account {id} does not exist; call list_accounts for valid codes"))
            }
            LedgerError::TransactionNotFound(id) => {
                Error::not_found(format!("transaction {id} does not exist"))
            }
            LedgerError::Validation(msg) => Error::validation(msg),
            LedgerError::Unbalanced { debits, credits } => Error::invalid_params(format!(
                "postings must balance: debits {debits} != credits {credits} (cents)"
            )),
            LedgerError::AccountClosed(id) => Error::protocol(
                LEDGER_CONFLICT,
                format!("account {id} is closed and cannot take new postings"),
            ),
            LedgerError::Poisoned(what) => Error::internal(format!("ledger {what} lock poisoned")),
            LedgerError::Encode(e) => Error::Serialization(e),
            LedgerError::Io(e) => Error::internal(format!("export failed: {e}")),
        }
    }
}

/// Result alias used by the store.
pub type LedgerResult<T> = std::result::Result<T, LedgerError>;
