//! Account tools: open, look up, list, close, balance.

use async_trait::async_trait;
use chrono::Utc;
use pmcp::types::ToolInfo;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{info, ToolCtx};
use crate::args::{self, format_cents};
use crate::config;
use crate::store::{Account, AccountKind};

#[derive(Debug, Deserialize)]
struct OpenAccountArgs {
    code: String,
    name: String,
    kind: String,
    #[serde(default = "default_currency")]
    currency: String,
}

fn default_currency() -> String {
    "EUR".to_string()
}

pub struct OpenAccount(pub ToolCtx);

#[async_trait]
impl ToolHandler for OpenAccount {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let a: OpenAccountArgs = args::decode("open_account", args)?;
        let kind = AccountKind::parse(&a.kind)?;

        let cfg = config::get().ok_or_else(|| Error::internal("configuration not loaded"))?;
        let currency = a.currency.to_ascii_uppercase();
        if !cfg.currencies.contains(&currency) {
            return Err(Error::validation(format!(
                "currency {currency} is not enabled; use one of {}",
                cfg.currencies.join(", ")
            )));
        }
        if a.code.len() != 4 || !a.code.chars().all(|c| c.is_ascii_digit()) {
            return Err(Error::validation("Invalid account code"));
        }

        let account = Account {
            code: a.code.clone(),
            name: a.name,
            kind,
            currency,
            opened: Utc::now().date_naive(),
            closed: None,
        };
        self.0.ledger.open_account(account.clone())?;
        Ok(serde_json::to_value(&account)?)
    }

    fn metadata(&self) -> Option<ToolInfo> {
        info(
            "open_account",
            "Open a new account in the chart of accounts",
            json!({
                "type": "object",
                "properties": {
                    "code": {"type": "string", "description": "four-digit account code"},
                    "name": {"type": "string"},
                    "kind": {"type": "string", "enum": ["asset", "liability", "equity", "income", "expense"]},
                    "currency": {"type": "string"}
                },
                "required": ["code", "name", "kind"]
            }),
        )
    }
}

pub struct GetAccount(pub ToolCtx);

#[async_trait]
impl ToolHandler for GetAccount {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let code = args::required_str(&args, "code")?;
        match self.0.ledger.find_account(code)? {
            Some(account) => {
                let balance = self.0.ledger.balance(code, None)?;
                Ok(json!({
                    "account": account,
                    "balance": format_cents(balance),
                }))
            }
            None => Ok(json!({
                "account": null,
                "message": format!("account {code} not found"),
            })),
        }
    }

    fn metadata(&self) -> Option<ToolInfo> {
        info(
            "get_account",
            "Look up one account by its code",
            json!({"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]}),
        )
    }
}

pub struct ListAccounts(pub ToolCtx);

#[async_trait]
impl ToolHandler for ListAccounts {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let kind = match args::optional_str(&args, "kind") {
            Some(raw) => Some(AccountKind::parse(raw)?),
            None => None,
        };
        let include_closed = args.get("include_closed").and_then(Value::as_bool).unwrap_or(false);

        let accounts: Vec<_> = self
            .0
            .ledger
            .accounts()?
            .into_iter()
            .filter(|a| kind.map_or(true, |k| a.kind == k))
            .filter(|a| include_closed || a.closed.is_none())
            .collect();

        let body = serde_json::to_value(&accounts)
            .map_err(|e| Error::internal(format!("could not encode account list: {e}")))?;
        Ok(json!({ "count": accounts.len(), "accounts": body }))
    }
}

pub struct CloseAccount(pub ToolCtx);

#[async_trait]
impl ToolHandler for CloseAccount {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let code = args::required_str(&args, "code")?;
        let on = match args::optional_str(&args, "date") {
            Some(raw) => args::parse_date(raw)?,
            None => Utc::now().date_naive(),
        };
        let closed = self.0.ledger.close_account(code, on)?;
        Ok(json!({ "closed": closed.code, "on": on.to_string() }))
    }
}

pub struct AccountBalance(pub ToolCtx);

#[async_trait]
impl ToolHandler for AccountBalance {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let code = args::required_str(&args, "code")?;
        let as_of = args::optional_str(&args, "as_of")
            .map(args::parse_date)
            .transpose()?;

        let cents = self
            .0
            .ledger
            .balance(code, as_of)
            .map_err(|e| Error::internal(format!("Something went wrong: {e}")))?;

        Ok(json!({
            "code": code,
            "as_of": as_of.map(|d| d.to_string()),
            "balance": format_cents(cents),
            "balance_cents": cents,
        }))
    }
}
