//! Reporting tools: trial balance, journal export, reconciliation, snapshot.

use async_trait::async_trait;
use chrono::{Datelike, NaiveDate, Utc};
use pmcp::types::ToolInfo;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde::Serialize;
use serde_json::{json, Value};

use super::{info, ToolCtx};
use crate::args::{self, format_cents};
use crate::config;
use crate::export;

#[derive(Debug, Serialize)]
struct TrialRow {
    code: String,
    name: String,
    debit: String,
    credit: String,
}

pub struct TrialBalance(pub ToolCtx);

#[async_trait]
impl ToolHandler for TrialBalance {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let as_of = match args::optional_str(&args, "as_of") {
            Some(raw) => Some(args::parse_date(raw)?),
            None => None,
        };

        let mut rows = Vec::new();
        let (mut debits, mut credits) = (0i64, 0i64);
        for account in self.0.ledger.accounts()? {
            let cents = self
                .0
                .ledger
                .balance(&account.code, as_of)
                .expect("account was just listed");
            if cents >= 0 {
                debits += cents;
            } else {
                credits -= cents;
            }
            rows.push(TrialRow {
                code: account.code,
                name: account.name,
                debit: if cents > 0 { format_cents(cents) } else { String::new() },
                credit: if cents < 0 { format_cents(-cents) } else { String::new() },
            });
        }

        Ok(json!({
            "as_of": as_of.map(|d| d.to_string()),
            "rows": serde_json::to_value(&rows)?,
            "total_debit": format_cents(debits),
            "total_credit": format_cents(credits),
            "balanced": debits == credits,
        }))
    }

    fn metadata(&self) -> Option<ToolInfo> {
        info(
            "trial_balance",
            "Debit and credit balance of every open account",
            json!({"type": "object", "properties": {"as_of": {"type": "string", "format": "date"}}}),
        )
    }
}

pub struct ExportJournal(pub ToolCtx);

#[async_trait]
impl ToolHandler for ExportJournal {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let cfg = config::get().ok_or_else(|| Error::internal("configuration not loaded"))?;
        let dir = cfg.export_dir.as_ref().ok_or_else(|| {
            Error::capability("journal export is disabled: LEDGER_EXPORT_DIR is not set")
        })?;

        let file = args::required_str(&args, "file")?;
        let today = Utc::now().date_naive();
        let from = match args::optional_str(&args, "from") {
            Some(raw) => args::parse_date(raw)?,
            None => NaiveDate::from_ymd_opt(today.year(), 1, 1).unwrap(),
        };
        let to = match args::optional_str(&args, "to") {
            Some(raw) => args::parse_date(raw)?,
            None => today,
        };
        if from > to {
            return Err(Error::validation(format!(
                "from ({from}) must not be after to ({to})"
            )));
        }

        let target = export::resolve_target(dir, file)?;
        let journal = self.0.ledger.journal(from, to)?;
        match export::write_csv(&target, &journal).await {
            Ok(lines) => Ok(json!({
                "file": target.display().to_string(),
                "lines": lines,
                "transactions": journal.len(),
            })),
            Err(e) => Ok(json!({
                "error": format!("could not write {}: {e}", target.display()),
            })),
        }
    }
}

pub struct Reconcile(pub ToolCtx);

#[async_trait]
impl ToolHandler for Reconcile {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let code = args::required_str(&args, "code")?;
        let statement = args
            .get("statement_balance")
            .ok_or_else(|| Error::validation("statement_balance is required"))?;
        let statement_cents = args::parse_amount(statement)?;
        let as_of = args::parse_date(args::required_str(&args, "as_of")?)?;

        let account = match self.0.ledger.account(code) {
            Ok(account) => account,
            Err(e) => {
                return Ok(json!({
                    "reconciled": false,
                    "message": format!("Error: {e}"),
                }))
            }
        };
        let book_cents = self.0.ledger.balance(&account.code, Some(as_of))?;
        let difference = statement_cents - book_cents;

        Ok(json!({
            "code": account.code,
            "as_of": as_of.to_string(),
            "book_balance": format_cents(book_cents),
            "statement_balance": format_cents(statement_cents),
            "difference": format_cents(difference),
            "reconciled": difference == 0,
        }))
    }
}

pub struct Snapshot(pub ToolCtx);

#[async_trait]
impl ToolHandler for Snapshot {
    async fn handle(&self, _args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let text = self.0.ledger.snapshot_json()?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| Error::internal(format!("snapshot did not round-trip: {e}")))?;
        Ok(value)
    }
}
