//@ dep: tower-mcp = { version = "0.25", features = ["stateless"] }
//@ dep: serde = "1"
//@ dep: schemars = "1"
// tower-mcp 0.25: a tool registered with `.mrtr_handler(..)` and built without a layer has no
// `ToolCatchError` around it (`Tool::from_mrtr_handler`, tool.rs ~934; `call_outcome_with_context`
// ~704 "preserve .. protocol-level handler error"). Its `Err` reaches the router, which sends
// `Error::into_json_rpc_error`: an `Error::JsonRpc` keeps its code, anything else is -32603.
// With `.layer(..)` or `.guard(..)` on the chain, `MrtrToolCatchError` makes it an isError
// result (tool/service.rs ~135), as `.handler(..)` always does.
use std::sync::Mutex;

use schemars::JsonSchema;
use serde::Deserialize;
use tower_mcp::{
    CallToolResult, Error, GuardLayer, JsonRpcError, RequestContext, RequestOutcome, Tool,
    ToolBuilder,
};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FetchInput {
    url: String,
}

pub struct Audit {
    entries: Mutex<Vec<String>>,
}

pub fn fetch_tool(audit: &'static Audit) -> Tool {
    ToolBuilder::new("fetch")
        .description("Fetch a page")
        .mrtr_handler(move |_ctx: RequestContext, input: FetchInput| async move {
            let body = match download(&input.url) {
                Ok(body) => body,
                Err(e) => {
                    return Err(Error::tool(format!("cannot fetch {}: {e}", input.url))); //~ tool_failure_as_protocol_error
                }
            };
            if body.is_empty() {
                //~v tool_failure_as_protocol_error
                return Err(JsonRpcError::request_timeout(format!("{} sent nothing", input.url)).into());
                //~^ legacy_error_code
            }
            // The server's own lock: -32603 is right.
            let mut entries = audit.entries.lock().map_err(|_| Error::internal("audit lock poisoned"))?;
            entries.push(input.url.clone());
            Ok(RequestOutcome::Complete(CallToolResult::text(body)))
        })
        .build()
}

/// The same tool behind a guard: `MrtrToolCatchError` makes every `Err` an isError result.
pub fn guarded_fetch_tool() -> Tool {
    ToolBuilder::new("guarded_fetch")
        .description("Fetch a page")
        .mrtr_handler(|_ctx: RequestContext, input: FetchInput| async move {
            let body = download(&input.url).map_err(|e| Error::tool(format!("cannot fetch: {e}")))?;
            if body.is_empty() {
                return Err(JsonRpcError::request_timeout("nothing came back").into());
            }
            Ok(RequestOutcome::Complete(CallToolResult::text(body)))
        })
        .layer(GuardLayer::new(|_req: &tower_mcp::ToolRequest| Ok(())))
        .build()
}

/// `.handler(..)` is always caught.
pub fn plain_fetch_tool() -> Tool {
    ToolBuilder::new("plain_fetch")
        .description("Fetch a page")
        .handler(|input: FetchInput| async move {
            let body = download(&input.url).map_err(|e| Error::tool(format!("cannot fetch: {e}")))?;
            Ok(CallToolResult::text(body))
        })
        .build()
}

/// The crate's conversion decides the code a `?` sends: each variant its own. The `.handler(..)`
/// tool below converts through it too, harmlessly: its arms are right for that one, so the
/// MRTR tool's `?`s are where the fix goes.
#[derive(Debug)]
pub enum FetchError {
    BadUrl(String),
    Upstream(String),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl From<FetchError> for Error {
    fn from(err: FetchError) -> Self {
        match err {
            FetchError::BadUrl(_) => Error::invalid_params(err.to_string()),
            other => Error::tool(other.to_string()),
        }
    }
}

fn check_url(url: &str) -> Result<&str, FetchError> {
    if url.starts_with("http") {
        Ok(url)
    } else {
        Err(FetchError::BadUrl(url.to_string()))
    }
}

fn get(url: &str) -> Result<String, FetchError> {
    download(url).map_err(|e| FetchError::Upstream(e.to_string()))
}

pub fn converting_tool() -> Tool {
    ToolBuilder::new("converting_fetch")
        .description("Fetch a page")
        .mrtr_handler(|_ctx: RequestContext, input: FetchInput| async move {
            let url = check_url(&input.url)?; //~ tool_input_as_invalid_params
            let body = get(url)?; //~ tool_failure_as_protocol_error
            Ok(RequestOutcome::Complete(CallToolResult::text(body)))
        })
        .build()
}

/// `.handler(..)` tools reach the same conversion: an isError result all the same.
pub fn plain_converting_tool() -> Tool {
    ToolBuilder::new("plain_converting_fetch")
        .description("Fetch a page")
        .handler(|input: FetchInput| async move {
            let url = check_url(&input.url)?;
            Ok(CallToolResult::text(get(url)?))
        })
        .build()
}

fn download(url: &str) -> Result<String, std::io::Error> {
    std::fs::read_to_string(url)
}
