//@ rmcp = "3.11"
//@ dep: axum = "0.8"
// Caller authentication read from the HTTP request: the `Authorization` header of the request's
// `Parts` (taken from the context's extensions, or handed to a helper as `Option<&Parts>`),
// through `Option` adapters with constant arguments (`headers.get(AUTHORIZATION)`,
// `.map(str::trim)`, `.filter(|t| !t.is_empty())`). Its absence is the request's failure, not
// the tool's: -32600 there is a protocol error by right, so nothing is reported. A token the
// model passes as an argument and the server rejects is the tool's own failure, and is.
use axum::http::{header::AUTHORIZATION, request::Parts};
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, service::RequestContext, tool,
    tool_router, ErrorData as McpError, RoleServer,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct LoginArgs {
    pub token: String,
}

fn bearer(parts: Option<&Parts>) -> Result<String, McpError> {
    let presented = parts
        .and_then(|parts| parts.headers.get(AUTHORIZATION))
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|token| !token.is_empty());
    match presented {
        Some(token) => Ok(token.to_owned()),
        None => Err(McpError::invalid_request(
            "this endpoint requires an Authorization: Bearer credential",
            None,
        )),
    }
}

pub struct Irc {
    tokens: Vec<String>,
}

#[tool_router]
impl Irc {
    #[tool(description = "Who am I")]
    async fn whoami(&self, ctx: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        let owner = bearer(ctx.extensions.get::<Parts>())?;
        Ok(CallToolResult::success(vec![ContentBlock::text(owner)]))
    }

    #[tool(description = "Log in with a token")]
    async fn login(&self, Parameters(args): Parameters<LoginArgs>) -> Result<CallToolResult, McpError> {
        if !self.tokens.contains(&args.token) {
            return Err(McpError::invalid_request("that token is not accepted", None)); //~ tool_failure_as_protocol_error
        }
        Ok(CallToolResult::success(vec![ContentBlock::text("logged in")]))
    }
}
