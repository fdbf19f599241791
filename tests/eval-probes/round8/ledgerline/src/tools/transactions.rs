//! Transaction tools: post, look up, void, batch.

use async_trait::async_trait;
use chrono::Utc;
use pmcp::types::ToolInfo;
use pmcp::{Error, ErrorCode, RequestHandlerExtra, ToolHandler};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use super::{info, ToolCtx};
use crate::args::{self, format_cents};
use crate::config;
use crate::error::{LedgerError, LedgerResult};
use crate::store::Posting;

#[derive(Debug, Deserialize)]
struct PostingArgs {
    account: String,
    /// Euros; positive debit, negative credit.
    amount: Value,
}

#[derive(Debug, Deserialize)]
struct PostTransactionArgs {
    date: Option<String>,
    memo: String,
    postings: Vec<PostingArgs>,
}

fn to_posting(p: &PostingArgs, max_cents: i64) -> LedgerResult<Posting> {
    let amount_cents = args::parse_amount(&p.amount)?;
    if amount_cents == 0 {
        return Err(LedgerError::validation(format!(
            "posting to {} has a zero amount",
            p.account
        )));
    }
    if amount_cents.abs() > max_cents {
        return Err(LedgerError::validation(format!(
            "posting to {} of {} exceeds the single-posting limit of {}",
            p.account,
            format_cents(amount_cents),
            format_cents(max_cents)
        )));
    }
    Ok(Posting {
        account: p.account.trim().to_string(),
        amount_cents,
    })
}

pub struct PostTransaction(pub ToolCtx);

#[async_trait]
impl ToolHandler for PostTransaction {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        if !self.0.limiter.try_acquire() {
            return Err(Error::protocol(
                ErrorCode::RATE_LIMITED,
                format!(
                    "posting limit reached; retry in {} s",
                    self.0.limiter.seconds_left()
                ),
            ));
        }

        let a: PostTransactionArgs = serde_json::from_value(args)?;
        let cfg = config::get().expect("config is set before the server starts");
        let date = match a.date.as_deref() {
            Some(raw) => args::parse_date(raw)?,
            None => Utc::now().date_naive(),
        };
        let postings = a
            .postings
            .iter()
            .map(|p| to_posting(p, cfg.max_posting_cents))
            .collect::<LedgerResult<Vec<_>>>()?;

        let id = self.0.ledger.post(date, &a.memo, postings)?;
        Ok(json!({ "id": id, "date": date.to_string() }))
    }

    fn metadata(&self) -> Option<ToolInfo> {
        info(
            "post_transaction",
            "Post a balanced transaction (debits positive, credits negative)",
            json!({
                "type": "object",
                "properties": {
                    "date": {"type": "string", "format": "date"},
                    "memo": {"type": "string"},
                    "postings": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "account": {"type": "string"},
                                "amount": {"type": ["number", "string"]}
                            },
                            "required": ["account", "amount"]
                        }
                    }
                },
                "required": ["memo", "postings"]
            }),
        )
    }
}

pub struct GetTransaction(pub ToolCtx);

#[async_trait]
impl ToolHandler for GetTransaction {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let raw = args::required_str(&args, "id")?;
        let id = args::parse_txn_id(raw)?;
        let txn = self.0.ledger.transaction(id)?;
        Ok(serde_json::to_value(txn)?)
    }
}

pub struct VoidTransaction(pub ToolCtx);

#[async_trait]
impl ToolHandler for VoidTransaction {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let id = args::parse_txn_id(args::required_str(&args, "id")?)?;
        let reason = args.get("reason").and_then(Value::as_str).unwrap_or_default();
        if reason.trim().is_empty() {
            return Err(Error::validation(
                "reason must say why the transaction is voided (e.g. \"duplicate of INV-1042\")",
            ));
        }

        match self.0.ledger.void(id, reason) {
            Ok(txn) => Ok(json!({ "voided": txn.id, "reason": reason })),
            Err(LedgerError::Validation(msg)) => Ok(json!({
                "voided": null,
                "error": msg,
            })),
            Err(other) => Err(other.into()),
        }
    }
}

/// Runs several posts and voids in order; stops at the first failure.
pub struct BatchPost(pub ToolCtx);

impl BatchPost {
    fn run_op(&self, index: usize, op: &Value, max_cents: i64) -> pmcp::Result<Value> {
        let kind = op.get("op").and_then(Value::as_str).unwrap_or("");
        match kind {
            "post" => {
                let a: PostTransactionArgs = args::decode("batch_post", op.clone())?;
                let date = a
                    .date
                    .as_deref()
                    .map(args::parse_date)
                    .transpose()?
                    .unwrap_or_else(|| Utc::now().date_naive());
                let postings = a
                    .postings
                    .iter()
                    .map(|p| to_posting(p, max_cents))
                    .collect::<LedgerResult<Vec<_>>>()?;
                let id = self
                    .0
                    .ledger
                    .post(date, &a.memo, postings)
                    .map_err(|_| Error::internal("operation failed"))?;
                Ok(json!({ "index": index, "posted": id }))
            }
            "void" => {
                let raw = args::required_str(op, "id")?;
                let id = Uuid::parse_str(raw).map_err(|e| {
                    Error::validation(format!("batch entry {index}: id '{raw}' is not a UUID: {e}"))
                })?;
                self.0.ledger.void(id, "voided by batch")?;
                Ok(json!({ "index": index, "voided": id }))
            }
            other => Err(Error::validation(format!(
                "batch entry {index}: unknown op '{other}'; expected \"post\" or \"void\""
            ))),
        }
    }
}

#[async_trait]
impl ToolHandler for BatchPost {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let entries = args
            .get("entries")
            .and_then(Value::as_array)
            .ok_or_else(|| Error::validation("entries must be an array of {op, ...} objects"))?;
        let cfg = config::get().ok_or_else(|| Error::internal("configuration not loaded"))?;

        let mut done = Vec::with_capacity(entries.len());
        for (index, op) in entries.iter().enumerate() {
            if !self.0.limiter.try_acquire() {
                return Err(Error::protocol(
                    ErrorCode::other(-32005),
                    format!("rate limited after {index} entries"),
                ));
            }
            done.push(self.run_op(index, op, cfg.max_posting_cents)?);
        }
        Ok(json!({ "applied": done.len(), "results": done }))
    }
}
