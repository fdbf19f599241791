//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp 1.x and 2.x: not this lint. `Error::invalid_params(..)` and
// `Error::protocol(ErrorCode::INVALID_PARAMS, ..)` name -32602, but pmcp's servers answer every
// handler `Err` with -32603 (`Server::create_response`, `ServerCore`'s dispatch), so rejecting
// argument values with them is tool_failure_as_protocol_error, as `Error::validation(..)` is. `Error::tool_rejected(..)`
// is the isError answer pmcp recommends for input the caller must fix.
use async_trait::async_trait;
use pmcp::{Error, ErrorCode, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

const CABINS: [&str; 3] = ["economy", "business", "first"];

pub struct BookFlight;

#[async_trait]
impl ToolHandler for BookFlight {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let passengers = args.get("passengers").and_then(Value::as_u64).unwrap_or(1);
        if !(1..=9).contains(&passengers) {
            return Err(Error::invalid_params(format!("passengers must be 1-9, got {passengers}"))); //~ tool_failure_as_protocol_error
        }
        let cabin = args.get("cabin").and_then(Value::as_str).unwrap_or("economy");
        if !CABINS.contains(&cabin) {
            return Err(Error::protocol( //~ tool_failure_as_protocol_error
                ErrorCode::INVALID_PARAMS,
                format!("unknown cabin {cabin}; use economy, business or first"),
            ));
        }
        let date = args.get("date").and_then(Value::as_str).unwrap_or_default();
        if date.len() != 10 {
            // Named like a -32602, sent as -32603.
            return Err(Error::validation(format!("date must be YYYY-MM-DD, got {date:?}"))); //~ tool_failure_as_protocol_error
        }
        if date < "2025-01-01" {
            return Err(Error::tool_rejected(format!("date {date} is in the past"), Some(json!({ "date": date }))));
        }
        Ok(json!({ "booked": passengers, "cabin": cabin, "date": date }))
    }
}
