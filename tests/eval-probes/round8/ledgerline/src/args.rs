//! Helpers that read tool arguments out of the raw JSON pmcp hands us.

use chrono::NaiveDate;
use pmcp::Error;
use serde::de::DeserializeOwned;
use serde_json::Value;
use uuid::Uuid;

use crate::error::{LedgerError, LedgerResult};

/// Decode the whole argument object into a typed struct.
pub fn decode<T: DeserializeOwned>(tool: &str, args: Value) -> pmcp::Result<T> {
    serde_json::from_value(args).map_err(|e| {
        Error::validation(format!("arguments for {tool} do not match its schema: {e}"))
    })
}

/// A required string argument.
pub fn required_str<'a>(args: &'a Value, key: &str) -> pmcp::Result<&'a str> {
    args.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| missing(key))
}

fn missing(key: &str) -> Error {
    Error::validation(format!("missing required string argument '{key}'"))
}

/// An optional string argument; `null` counts as absent.
pub fn optional_str<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str).filter(|s| !s.trim().is_empty())
}

pub fn parse_date(raw: &str) -> LedgerResult<NaiveDate> {
    NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d").map_err(|e| {
        LedgerError::validation(format!("date '{raw}' is not in YYYY-MM-DD form: {e}"))
    })
}

/// Amounts arrive either as a JSON number of euros or as a decimal string.
pub fn parse_amount(raw: &Value) -> LedgerResult<i64> {
    let text = match raw {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().replace('_', ""),
        _ => return Err(LedgerError::validation("Invalid amount")),
    };
    let (whole, frac) = text.split_once('.').unwrap_or((text.as_str(), "0"));
    let frac = format!("{frac:0<2}");
    if frac.len() > 2 {
        return Err(LedgerError::validation(format!(
            "amount {text} has more than two decimal places"
        )));
    }
    let whole: i64 = whole
        .parse()
        .map_err(|_| LedgerError::validation(format!("amount {text} is not a decimal number")))?;
    let frac: i64 = frac
        .parse()
        .map_err(|_| LedgerError::validation(format!("amount {text} is not a decimal number")))?;
    Ok(whole * 100 + whole.signum() * frac)
}

pub fn parse_txn_id(raw: &str) -> pmcp::Result<Uuid> {
    Uuid::parse_str(raw.trim()).map_err(|_| {
        Error::invalid_params(format!("transaction id '{raw}' is not a UUID"))
    })
}

pub fn format_cents(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", cents.abs() / 100, cents.abs() % 100)
}
