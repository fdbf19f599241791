//@ rmcp = "1.3"
// A deadline around the answer of a worker the tool started itself (`tokio::time::timeout(WAIT,
// rx)` on a oneshot channel the tool made): the elapsed deadline and the closed channel are the
// server's own failures, as a bare `rx.await` is, so -32603 is right and nothing is reported.
// The same deadline around reading the file the model named is the tool's failure: its elapsed
// deadline and the read's own error are reported.
use std::time::Duration;

use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData};
use serde::Deserialize;
use tokio::sync::oneshot;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CountArgs {
    pub n: u64,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ReadArgs {
    pub path: String,
}

pub struct Jobs;

fn count_primes(n: u64) -> u64 {
    (2..n).filter(|k| (2..*k).all(|d| k % d != 0)).count() as u64
}

#[tool_router]
impl Jobs {
    #[tool(description = "Count the primes below n on a worker")]
    async fn count(&self, Parameters(args): Parameters<CountArgs>) -> Result<CallToolResult, ErrorData> {
        let (tx, rx) = oneshot::channel::<u64>();
        tokio::task::spawn_blocking(move || {
            let _ = tx.send(count_primes(args.n));
        });
        let primes = tokio::time::timeout(Duration::from_secs(5), rx)
            .await
            .map_err(|_| ErrorData::internal_error("the worker did not answer within 5s", None))?
            .map_err(|_| ErrorData::internal_error("the worker stopped before answering", None))?;
        Ok(CallToolResult::success(vec![Content::text(primes.to_string())]))
    }

    #[tool(description = "Read a text file")]
    async fn read(&self, Parameters(args): Parameters<ReadArgs>) -> Result<CallToolResult, ErrorData> {
        let text = tokio::time::timeout(Duration::from_secs(5), tokio::fs::read_to_string(&args.path))
            .await
            .map_err(|_| ErrorData::internal_error(format!("reading {} took over 5s", args.path), None))? //~ tool_failure_as_protocol_error
            .map_err(|e| ErrorData::internal_error(format!("cannot read {}: {e}", args.path), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
