//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
//@ dep: thiserror = "2"
// A method called on a lock's guard (`let mut guard = lock(&self.ledger)?; guard.open(..)?`)
// is the guarded type's method: its `?` passes the variants that method returns into the
// crate's `From<LedgerError> for McpError`, so the `Duplicate` arm is reported, naming the tool
// that can reach it and its call. The `lock` helper fails only when the lock is poisoned: the
// `Poisoned` arm answers a server fault, rightly with -32603.
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("an account named {0:?} already exists")]
    Duplicate(String),
    #[error("the ledger lock was poisoned")]
    Poisoned,
}

impl From<LedgerError> for McpError {
    fn from(err: LedgerError) -> Self {
        match err {
            LedgerError::Duplicate(name) => McpError::invalid_request(format!("account {name:?} exists"), None), //~ tool_failure_as_protocol_error
            LedgerError::Poisoned => McpError::internal_error("ledger lock poisoned", None),
        }
    }
}

#[derive(Default)]
pub struct Ledger {
    accounts: HashMap<String, u64>,
}

impl Ledger {
    pub fn open(&mut self, name: &str) -> Result<u64, LedgerError> {
        if self.accounts.contains_key(name) {
            return Err(LedgerError::Duplicate(name.to_string()));
        }
        let id = self.accounts.len() as u64 + 1;
        self.accounts.insert(name.to_string(), id);
        Ok(id)
    }

    pub fn count(&self) -> usize {
        self.accounts.len()
    }
}

pub fn lock(shared: &Mutex<Ledger>) -> Result<MutexGuard<'_, Ledger>, LedgerError> {
    shared.lock().map_err(|_| LedgerError::Poisoned)
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct OpenArgs {
    pub name: String,
}

pub struct Books {
    ledger: Mutex<Ledger>,
}

#[tool_router]
impl Books {
    #[tool(description = "Open an account")]
    async fn open_account(&self, Parameters(a): Parameters<OpenArgs>) -> Result<CallToolResult, McpError> {
        let mut guard = lock(&self.ledger)?;
        let id = guard.open(&a.name)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(id.to_string())]))
    }

    #[tool(description = "Count the accounts")]
    async fn count_accounts(&self) -> Result<CallToolResult, McpError> {
        let guard = lock(&self.ledger)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(guard.count().to_string())]))
    }
}
