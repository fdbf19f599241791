//@ rmcp = "3.11"
//@ dep: http = "1"
// rmcp's streamable HTTP transport puts the HTTP request's `Parts` in the request context's
// extensions, and a tool can take them as `Extension(parts): Extension<Parts>` (the SDK's
// documented idioms). A missing `Authorization` header, claims a hook derived from the request
// (`claims_of(&ctx.extensions)`), or a role that is not "admin" are the request's state: the
// model cannot change them by retrying with other arguments, so the protocol error is no tool
// failure. What the tool does with its arguments after the check still is one: reading the
// path the model named, and refusing a document that belongs to another user than the
// request's (a value the model chose).
use std::collections::HashMap;

use http::request::Parts;
use rmcp::{
    handler::server::{tool::Extension, wrapper::Parameters},
    model::*,
    schemars,
    service::RequestContext,
    tool, tool_router, ErrorData as McpError, RoleServer,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ReadArgs {
    pub path: String,
}

#[derive(Clone)]
pub struct Claims {
    pub user: String,
    pub role: String,
}

/// The claims an `on_request` hook stored for this request, if any.
fn claims_of(extensions: &Extensions) -> Option<&HashMap<String, Claims>> {
    extensions.get::<HashMap<String, Claims>>()
}

pub struct Docs {
    owners: HashMap<String, String>,
}

#[tool_router]
impl Docs {
    #[tool(description = "Read a file with the caller's token")]
    async fn read(&self, Parameters(args): Parameters<ReadArgs>, ctx: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        let Some(parts) = ctx.extensions.get::<Parts>() else {
            return Err(McpError::invalid_request("this tool needs the HTTP transport", None));
        };
        let Some(token) = parts.headers.get("authorization").and_then(|v| v.to_str().ok()) else {
            return Err(McpError::invalid_request("no Authorization header on the request", None));
        };
        let text = std::fs::read_to_string(&args.path)
            .map_err(|e| McpError::internal_error(format!("could not read {}: {e}", args.path), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(format!("{token}: {text}"))]))
    }

    #[tool(description = "Who is calling")]
    async fn whoami(&self, Extension(parts): Extension<Parts>) -> Result<CallToolResult, McpError> {
        match parts.headers.get("x-user") {
            Some(user) => Ok(CallToolResult::success(vec![Content::text(format!("{user:?}"))])),
            None => Err(McpError::invalid_request("no X-User header on the request", None)),
        }
    }

    #[tool(description = "An admin-only action")]
    async fn admin_action(&self, context: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        if let Some(claims) = claims_of(&context.extensions).and_then(|m| m.get("claims")) {
            if claims.role == "admin" {
                Ok(CallToolResult::success(vec![Content::text(format!("done by {}", claims.user))]))
            } else {
                Err(McpError::invalid_request(format!("user {} has role {}, not admin", claims.user, claims.role), None))
            }
        } else {
            Err(McpError::invalid_request("authentication required: no claims on the request", None))
        }
    }

    #[tool(description = "Open one of the caller's documents")]
    async fn open(&self, Parameters(args): Parameters<ReadArgs>, context: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        let Some(claims) = claims_of(&context.extensions).and_then(|m| m.get("claims")) else {
            return Err(McpError::invalid_request("authentication required", None));
        };
        if self.owners.get(&args.path) != Some(&claims.user) {
            return Err(McpError::invalid_request(format!("{} belongs to another user; list_documents shows yours", args.path), None)); //~ tool_failure_as_protocol_error
        }
        Ok(CallToolResult::success(vec![Content::text(args.path)]))
    }
}
