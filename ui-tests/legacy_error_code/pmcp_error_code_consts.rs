//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
//@ dep: reqwest = "0.12"
//@ dep: tokio = "1"
// pmcp 2.x: `ErrorCode(pub i32)` has legacy-range constants (REQUEST_TIMEOUT -32001,
// AUTHENTICATION_REQUIRED -32003, PERMISSION_DENIED -32004, RATE_LIMITED -32005,
// CIRCUIT_BREAKER_OPEN -32006), and `ErrorCode::other(n)` builds raw codes, written into
// `Error::protocol(code, ..)` / `Error::Protocol { code, .. }`: reported where they are written.
// pmcp's servers answer every handler `Err` with -32603 all the same (`create_response`), so the
// tool findings say -32603. The trap: `Error::timeout(ms)`, `Error::RateLimited` and `Error::authentication(..)` name
// the same conditions, but every non-Protocol variant is sent as -32603, so they carry no legacy
// code (in a tool they are tool_failure_as_protocol_error, nothing more). A client comparing
// `e.error_code()` with a constant reads a code and emits none.
use async_trait::async_trait;
use pmcp::types::{Content, ListResourcesResult, ReadResourceResult};
use pmcp::{Error, ErrorCode, RequestHandlerExtra, ResourceHandler, ToolHandler};
use serde_json::{json, Value};

const UPSTREAM_BUSY: ErrorCode = ErrorCode::other(-32010); //~ legacy_error_code

pub struct Search {
    client: reqwest::Client,
}

#[async_trait]
impl ToolHandler for Search {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let query = args.get("query").and_then(Value::as_str).unwrap_or_default();
        let request = self.client.get("https://search.example.com").query(&[("q", query)]).send();
        // `Error::timeout(..)` is -32603 on the wire: no legacy code here.
        let response = tokio::time::timeout(std::time::Duration::from_secs(5), request).await.map_err(|_| Error::timeout(5_000))?; //~ tool_failure_as_protocol_error
        let response = match response {
            Ok(response) => response,
            Err(e) if e.is_timeout() => {
                return Err(Error::protocol(ErrorCode::REQUEST_TIMEOUT, format!("search timed out for {query:?}"))); //~ tool_failure_as_protocol_error
                //~^ legacy_error_code
            }
            Err(e) => return Err(Error::protocol(ErrorCode::CIRCUIT_BREAKER_OPEN, format!("search backend unreachable: {e}"))), //~ tool_failure_as_protocol_error
            //~^ legacy_error_code
        };
        if response.status().as_u16() == 429 {
            return Err(Error::RateLimited); //~ tool_failure_as_protocol_error
        }
        if response.status().as_u16() == 503 {
            return Err(Error::protocol(UPSTREAM_BUSY, "search backend is overloaded; retry in a minute")); //~ tool_failure_as_protocol_error
        }
        let body: Value = response.json().await.map_err(|e| Error::tool_rejected(format!("search answered with invalid JSON: {e}"), None))?;
        Ok(json!({ "hits": body["hits"] }))
    }
}

pub struct Vault;

#[async_trait]
impl ResourceHandler for Vault {
    async fn read(&self, uri: &str, extra: RequestHandlerExtra) -> pmcp::Result<ReadResourceResult> {
        if extra.auth_info.is_none() {
            return Err(Error::Protocol { code: ErrorCode::AUTHENTICATION_REQUIRED, message: format!("{uri} needs a bearer token"), data: None }); //~ legacy_error_code
        }
        if uri.starts_with("vault://sealed/") {
            return Err(Error::protocol(ErrorCode::other(-32004), format!("{uri} is sealed"))); //~ legacy_error_code
        }
        Ok(ReadResourceResult::new(vec![Content::text(format!("contents of {uri}"))]))
    }

    async fn list(&self, _cursor: Option<String>, _extra: RequestHandlerExtra) -> pmcp::Result<ListResourcesResult> {
        Ok(ListResourcesResult::new(vec![]))
    }
}

/// Client side: reading codes.
pub fn should_retry(e: &Error) -> bool {
    e.error_code() == Some(ErrorCode::REQUEST_TIMEOUT) || e.is_error_code(ErrorCode::RATE_LIMITED)
}
