//@ dep: pmcp = "1.20"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// A value set once at start-up in a static (`static RATES: OnceLock<RateTable>`): `RATES.get()`
// is a `RateTable`, so `table.rate(..)?` reaches `RateTable::rate` (not the other `rate`) and
// its `AppError` goes through the crate's `From<AppError>`, judged in its arm once, not again
// at this `?` as an error of unknown type. A static that is not set is the server's own state:
// -32603 is right there.
use std::collections::HashMap;
use std::sync::OnceLock;

use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

static RATES: OnceLock<RateTable> = OnceLock::new();

pub struct RateTable {
    rates: HashMap<String, f64>,
}

#[derive(Debug)]
pub enum AppError {
    Unknown(String),
}

impl RateTable {
    pub fn rate(&self, currency: &str) -> Result<f64, AppError> {
        self.rates
            .get(currency)
            .copied()
            .ok_or_else(|| AppError::Unknown(currency.to_string()))
    }
}

/// Another `rate`: a name alone does not say which one a call reaches.
pub struct Limiter;

impl Limiter {
    pub fn rate(&self, key: &str) -> Result<f64, std::io::Error> {
        std::fs::read_to_string(key).map(|s| s.len() as f64)
    }
}

impl From<AppError> for Error {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Unknown(c) => Error::validation(format!("no rate for {c}")), //~ tool_failure_as_protocol_error
        }
    }
}

pub struct QuoteTool;

#[async_trait]
impl ToolHandler for QuoteTool {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let currency = args["currency"].as_str().unwrap_or("EUR");
        let table = RATES
            .get()
            .ok_or_else(|| Error::internal("the rate table was not loaded at start-up"))?;
        let rate = table.rate(currency)?;
        Ok(json!({ "rate": rate }))
    }
}

fn main() {}
