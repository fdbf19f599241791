//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp's error constructors given as values, point-free (`.map_err(Error::invalid_params)?`, the
// shape of pmcp's own currency_server example): the constructor builds the error from the
// operand's error, and pmcp's servers send every handler `Err` as -32603, so an argument check
// mapped this way is a tool failure sent as a protocol error, as the call form is. The same
// constructor given to a server fault (serialising the server's own value) or used outside a
// tool is not reported.
use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

fn validate_currency(code: &str) -> Result<(), String> {
    if code.len() == 3 {
        Ok(())
    } else {
        Err(format!("unsupported currency {code}; use a three-letter ISO 4217 code"))
    }
}

pub struct GetRates;

#[async_trait]
impl ToolHandler for GetRates {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let base = args.get("base").and_then(Value::as_str).unwrap_or("USD");
        validate_currency(base).map_err(Error::invalid_params)?; //~ tool_failure_as_protocol_error
        let target = args.get("target").and_then(Value::as_str).unwrap_or("EUR");
        validate_currency(target).map_err(pmcp::Error::validation)?; //~ tool_failure_as_protocol_error
        let rates = json!({ "base": base, "target": target, "rate": 1.1 });
        let text = serde_json::to_string(&rates).map_err(Error::internal)?;
        Ok(json!({ "rates": text }))
    }
}

/// Start-up, not a tool: its `Err` reaches no tool answer.
pub fn configured_base(config: &str) -> pmcp::Result<String> {
    validate_currency(config).map_err(Error::invalid_params)?;
    Ok(config.to_string())
}
