//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// A pmcp tool failing for the server's own reasons: the request was cancelled
// (`extra.is_cancelled()`), its progress channel failed (`extra.report_count(..).await?`), or
// the metadata the server's middleware injects is missing (`extra.get_metadata(..)`). None of
// these values comes from the tool's arguments or from external I/O, so -32603 is a fair answer
// there. The same tool failing on its argument is still reported.
use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

struct Countdown;

#[async_trait]
impl ToolHandler for Countdown {
    async fn handle(&self, args: Value, extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let start = args.get("from").and_then(Value::as_u64).unwrap_or(10);
        if start > 100 {
            return Err(Error::internal(format!("cannot count down from {start}: at most 100"))); //~ tool_failure_as_protocol_error
        }
        for i in (0..=start).rev() {
            if extra.is_cancelled() {
                return Err(Error::internal("Countdown cancelled by client"));
            }
            extra
                .report_count((start - i) as usize, start as usize, Some(format!("{i}")))
                .await?;
        }
        Ok(json!({ "done": true }))
    }
}

struct Query;

#[async_trait]
impl ToolHandler for Query {
    async fn handle(&self, args: Value, extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let token = extra.get_metadata("oauth_token").ok_or_else(|| {
            Error::protocol(
                pmcp::ErrorCode::INVALID_PARAMS,
                "OAuth token not found - authentication required",
            )
        })?;
        let query = args.get("query").and_then(Value::as_str).unwrap_or("");
        if !extra.is_cancelled() && query.is_empty() {
            return Err(Error::validation("query must not be empty")); //~ tool_failure_as_protocol_error
        }
        Ok(json!({ "token_len": token.len(), "query": query }))
    }
}

fn main() {}
