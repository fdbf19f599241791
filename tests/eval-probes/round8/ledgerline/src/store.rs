//! In-memory double-entry ledger.

use std::collections::BTreeMap;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{LedgerError, LedgerResult};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccountKind {
    Asset,
    Liability,
    Equity,
    Income,
    Expense,
}

impl AccountKind {
    pub fn parse(raw: &str) -> LedgerResult<Self> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "asset" => Ok(Self::Asset),
            "liability" => Ok(Self::Liability),
            "equity" => Ok(Self::Equity),
            "income" => Ok(Self::Income),
            "expense" => Ok(Self::Expense),
            other => Err(LedgerError::validation(format!(
                "unknown account kind '{other}'; expected asset, liability, equity, income or expense"
            ))),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Account {
    pub code: String,
    pub name: String,
    pub kind: AccountKind,
    pub currency: String,
    pub opened: NaiveDate,
    pub closed: Option<NaiveDate>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Posting {
    pub account: String,
    /// Positive for a debit, negative for a credit.
    pub amount_cents: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Transaction {
    pub id: Uuid,
    pub date: NaiveDate,
    pub memo: String,
    pub postings: Vec<Posting>,
    pub voided: Option<String>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Default, Serialize)]
struct LedgerState {
    accounts: BTreeMap<String, Account>,
    transactions: BTreeMap<Uuid, Transaction>,
}

/// The ledger: accounts and their transactions, behind one lock.
#[derive(Debug, Default)]
pub struct Ledger {
    state: RwLock<LedgerState>,
}

impl Ledger {
    pub fn new() -> Self {
        Self::default()
    }

    fn read(&self) -> LedgerResult<RwLockReadGuard<'_, LedgerState>> {
        self.state.read().map_err(|_| LedgerError::Poisoned("state"))
    }

    fn write(&self) -> LedgerResult<RwLockWriteGuard<'_, LedgerState>> {
        self.state.write().map_err(|_| LedgerError::Poisoned("state"))
    }

    pub fn open_account(&self, account: Account) -> LedgerResult<()> {
        let mut state = self.write()?;
        if state.accounts.contains_key(&account.code) {
            return Err(LedgerError::validation(format!(
                "account code {} is already in use",
                account.code
            )));
        }
        state.accounts.insert(account.code.clone(), account);
        Ok(())
    }

    pub fn account(&self, code: &str) -> LedgerResult<Account> {
        let state = self.read()?;
        state
            .accounts
            .get(code)
            .cloned()
            .ok_or_else(|| LedgerError::AccountNotFound(code.to_string()))
    }

    pub fn find_account(&self, code: &str) -> LedgerResult<Option<Account>> {
        Ok(self.read()?.accounts.get(code).cloned())
    }

    pub fn accounts(&self) -> LedgerResult<Vec<Account>> {
        Ok(self.read()?.accounts.values().cloned().collect())
    }

    pub fn close_account(&self, code: &str, on: NaiveDate) -> LedgerResult<Account> {
        let balance = self.balance(code, None)?;
        let mut state = self.write()?;
        let account = state
            .accounts
            .get_mut(code)
            .ok_or_else(|| LedgerError::AccountNotFound(code.to_string()))?;
        if account.closed.is_some() {
            return Err(LedgerError::AccountClosed(code.to_string()));
        }
        if balance != 0 {
            return Err(LedgerError::validation(format!(
                "account {code} still has a balance of {balance} cents; move it before closing"
            )));
        }
        account.closed = Some(on);
        Ok(account.clone())
    }

    pub fn post(&self, date: NaiveDate, memo: &str, postings: Vec<Posting>) -> LedgerResult<Uuid> {
        if postings.len() < 2 {
            return Err(LedgerError::validation("a transaction needs at least two postings"));
        }
        let debits: i64 = postings.iter().filter(|p| p.amount_cents > 0).map(|p| p.amount_cents).sum();
        let credits: i64 = -postings.iter().filter(|p| p.amount_cents < 0).map(|p| p.amount_cents).sum::<i64>();
        if debits != credits {
            return Err(LedgerError::Unbalanced { debits, credits });
        }

        let mut state = self.write()?;
        for posting in &postings {
            let account = state
                .accounts
                .get(&posting.account)
                .ok_or_else(|| LedgerError::AccountNotFound(posting.account.clone()))?;
            if account.closed.is_some_and(|closed| closed <= date) {
                return Err(LedgerError::AccountClosed(posting.account.clone()));
            }
        }

        let id = Uuid::new_v4();
        state.transactions.insert(
            id,
            Transaction {
                id,
                date,
                memo: memo.to_string(),
                postings,
                voided: None,
                created_at: Utc::now(),
            },
        );
        Ok(id)
    }

    pub fn transaction(&self, id: Uuid) -> LedgerResult<Transaction> {
        self.read()?
            .transactions
            .get(&id)
            .cloned()
            .ok_or_else(|| LedgerError::TransactionNotFound(id.to_string()))
    }

    pub fn void(&self, id: Uuid, reason: &str) -> LedgerResult<Transaction> {
        let mut state = self.write()?;
        let txn = state
            .transactions
            .get_mut(&id)
            .ok_or_else(|| LedgerError::TransactionNotFound(id.to_string()))?;
        if let Some(previous) = &txn.voided {
            return Err(LedgerError::validation(format!(
                "transaction {id} was already voided ({previous})"
            )));
        }
        txn.voided = Some(reason.to_string());
        Ok(txn.clone())
    }

    pub fn balance(&self, code: &str, as_of: Option<NaiveDate>) -> LedgerResult<i64> {
        let state = self.read()?;
        if !state.accounts.contains_key(code) {
            return Err(LedgerError::AccountNotFound(code.to_string()));
        }
        Ok(state
            .transactions
            .values()
            .filter(|t| t.voided.is_none())
            .filter(|t| as_of.map_or(true, |d| t.date <= d))
            .flat_map(|t| t.postings.iter())
            .filter(|p| p.account == code)
            .map(|p| p.amount_cents)
            .sum())
    }

    pub fn journal(&self, from: NaiveDate, to: NaiveDate) -> LedgerResult<Vec<Transaction>> {
        let mut rows: Vec<Transaction> = self
            .read()?
            .transactions
            .values()
            .filter(|t| t.date >= from && t.date <= to)
            .cloned()
            .collect();
        rows.sort_by_key(|t| (t.date, t.created_at));
        Ok(rows)
    }

    /// The whole ledger as pretty JSON, for the snapshot tool and resource.
    pub fn snapshot_json(&self) -> LedgerResult<String> {
        let state = self.read()?;
        serde_json::to_string_pretty(&*state).map_err(LedgerError::Encode)
    }
}
