//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp 2.x sends a `ToolHandler`'s `Ok(Value)` as the text of a success result (and as its
// `structuredContent` when the tool declares an output schema): a value that carries its own
// `"isError": true` does not set the result's `isError`, so the failure reads as a success.
// `Err(Error::tool_rejected(..))` is pmcp's isError answer; an `"isError": false` member, or
// the same member as a tool's ordinary data, says nothing about failure.
use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

const REQUIRED: [&str; 3] = ["name", "email", "age"];

fn missing(args: &Value) -> Vec<String> {
    REQUIRED
        .iter()
        .filter(|f| args.get(**f).is_none())
        .map(|f| f.to_string())
        .collect()
}

pub struct ValidateRecord;

#[async_trait]
impl ToolHandler for ValidateRecord {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let missing = missing(&args);
        if !missing.is_empty() {
            return Ok(json!({ //~ failure_as_success
                "content": [{
                    "type": "text",
                    "text": format!("missing required fields: {}", missing.join(", "))
                }],
                "isError": true
            }));
        }
        Ok(json!({ "content": [{ "type": "text", "text": "record is valid" }], "isError": false }))
    }
}

pub struct CheckRecord;

#[async_trait]
impl ToolHandler for CheckRecord {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let missing = missing(&args);
        if !missing.is_empty() {
            return Err(Error::tool_rejected(
                format!("missing required fields: {}", missing.join(", ")),
                Some(json!({ "missing": missing })),
            ));
        }
        if args.get("draft").is_some() {
            return Ok(json!({ "status": "draft", "isError": false }));
        }
        Ok(json!({ "status": "complete" }))
    }
}
