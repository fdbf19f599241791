//@ rmcp = "1.8"
//@ dep: axum = "0.8"
// A crate fn given nothing but the request context and the server's own state
// (`self.callers.identify(&context)?`, reading the HTTP request's bearer token) fails on the
// request, whichever handler asks: its -32600 is the request's answer, not a tool's failure,
// also where it is built in a helper the tool reaches through that call. The same helper
// reached through a call that also passes a tool argument is a tool's failure, still reported.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    schemars,
    service::RequestContext,
    tool, tool_router, ErrorData as McpError, RoleServer,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct JoinInput {
    pub channel: String,
}

pub enum CallerPolicy {
    Local,
    Http { accepted: Vec<String> },
}

impl CallerPolicy {
    pub fn identify(&self, context: &RequestContext<RoleServer>) -> Result<String, McpError> {
        let Self::Http { accepted } = self else {
            return Ok("local".to_string());
        };
        http_owner(accepted, context.extensions.get::<axum::http::request::Parts>())
    }
}

fn http_owner(accepted: &[String], parts: Option<&axum::http::request::Parts>) -> Result<String, McpError> {
    let presented = parts
        .and_then(|parts| parts.headers.get(axum::http::header::AUTHORIZATION))
        .and_then(|value| value.to_str().ok())
        .ok_or_else(|| McpError::invalid_request("missing bearer token", None))?;
    if !accepted.iter().any(|a| a == presented) {
        return Err(McpError::invalid_request("bearer token not accepted", None));
    }
    Ok(presented.to_string())
}

fn channel_owner(channels: &[String], channel: &str) -> Result<String, McpError> {
    if !channels.iter().any(|c| c == channel) {
        return Err(McpError::internal_error(format!("no such channel {channel}"), None)); //~ tool_failure_as_protocol_error
    }
    Ok(channel.to_string())
}

pub struct Irc {
    callers: CallerPolicy,
    channels: Vec<String>,
}

#[tool_router]
impl Irc {
    #[tool(description = "Join a channel")]
    async fn join(&self, Parameters(input): Parameters<JoinInput>, context: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        let owner = self.callers.identify(&context)?;
        let channel = channel_owner(&self.channels, &input.channel)?;
        Ok(CallToolResult::success(vec![Content::text(format!("{owner} joined {channel}"))]))
    }
}
