//! Example server shipped with the SDK: users copy it, so it is linted as a server.

use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, Server, ToolHandler};
use serde_json::{json, Value};

struct Divide;

#[async_trait]
impl ToolHandler for Divide {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let a = args["a"].as_f64().unwrap_or_default();
        let b = args["b"].as_f64().unwrap_or_default();
        if b == 0.0 {
            return Err(Error::internal("cannot divide by zero: `b` must not be 0"));
        }
        Ok(json!({ "quotient": a / b }))
    }
}

struct Reject;

#[async_trait]
impl ToolHandler for Reject {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        match args["word"].as_str() {
            Some(word) => Ok(json!({ "echo": word })),
            None => Err(Error::tool_rejected("`word` must be a string, e.g. \"hello\"", None)),
        }
    }
}

#[tokio::main]
async fn main() {
    let _server = Server::builder().tool("divide", Divide).tool("echo", Reject);
}
