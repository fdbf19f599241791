//@ rmcp = "1.8"
// The `.map_err(..)?` fix turns the value into a `match` with `Ok`/`Err` arms only when the source
// shows it is a `Result`: the receiver calls a crate fn declared to return one, resolved by its
// path as any call. Two modules each have a `fetch`: the one the tool calls (`remote::fetch`)
// returns a `Result`, the other (`cache::fetch`) an `Option`. By name alone the two disagree and
// the fix would not be offered as MachineApplicable; resolved, it is. `lookup` calls a
// `cache::load` returning `Option<Result<..>>` through `.transpose()`, a value no crate fn's
// signature states: the fix stays MaybeIncorrect.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

mod remote {
    pub fn fetch(url: &str) -> Result<String, std::io::Error> {
        std::fs::read_to_string(url.trim_start_matches("file://"))
    }
}

mod cache {
    pub fn fetch(key: &str) -> Option<String> {
        (!key.is_empty()).then(|| key.to_string())
    }

    pub fn load(key: &str) -> Option<Result<String, std::io::Error>> {
        (!key.is_empty()).then(|| std::fs::read_to_string(key))
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct UrlArgs {
    pub url: String,
}

pub struct Fetcher {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Fetcher {
    #[tool(description = "Fetch a URL")]
    async fn get(&self, Parameters(UrlArgs { url }): Parameters<UrlArgs>) -> Result<CallToolResult, McpError> {
        let cached = cache::fetch(&url);
        let body = remote::fetch(&url)
            .map_err(|e| McpError::internal_error(format!("cannot fetch {url}: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(cached.unwrap_or(body))]))
    }

    #[tool(description = "Look a URL up in the cache")]
    async fn lookup(&self, Parameters(UrlArgs { url }): Parameters<UrlArgs>) -> Result<CallToolResult, McpError> {
        let body = cache::load(&url)
            .transpose()
            .map_err(|e| McpError::internal_error(format!("cannot read the cache entry of {url}: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(body.unwrap_or_default())]))
    }
}
