//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
//@ dep: reqwest = "0.12"
// pmcp 2.x: a tool's success is any `Ok(Value)` (pmcp wraps it in a text result). Answering a
// failure with `Ok(json!({ "error": .. }))` or `Ok(json!(format!("Error: {e}")))` in an `Err` arm
// tells the model the call worked. `Err(Error::tool_rejected(..))` is the isError answer, and an
// `Ok(None)` lookup answered with an empty list is an answer, not a failure.
use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

pub struct Fetch {
    client: reqwest::Client,
}

#[async_trait]
impl ToolHandler for Fetch {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let url = args.get("url").and_then(Value::as_str).unwrap_or_default();
        let response = match self.client.get(url).send().await {
            Ok(response) => response,
            Err(e) => return Ok(json!({ "error": e.to_string(), "url": url })), //~ failure_as_success
        };
        match response.text().await {
            Ok(body) => Ok(json!({ "body": body })),
            Err(e) => Ok(json!(format!("Error: could not read the body of {url}: {e}"))), //~ failure_as_success
        }
    }
}

pub struct Head {
    client: reqwest::Client,
}

#[async_trait]
impl ToolHandler for Head {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let url = args.get("url").and_then(Value::as_str).unwrap_or_default();
        match self.client.head(url).send().await {
            Ok(response) => Ok(json!({ "status": response.status().as_u16(), "length": response.content_length() })),
            Err(e) => Err(Error::tool_rejected(format!("cannot reach {url}: {e}"), None)),
        }
    }
}
