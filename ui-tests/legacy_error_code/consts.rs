//@ rmcp = "1.8"
// Codes behind constants. A typed `ErrorCode` const is reported once, at its definition; an
// untyped integer const only where it is used as a code. The same number used for something
// else (a retry count) is not a code.
use rmcp::{
    model::{ErrorCode, ReadResourceRequestParams, ReadResourceResult, ResourceContents},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

pub const UPSTREAM_TIMEOUT: ErrorCode = ErrorCode(-32005); //~ legacy_error_code
pub const RATE_LIMITED: i32 = -32010;
const UNUSED_CODE: i32 = -32011;
const MAX_ATTEMPTS: i32 = 3;

#[derive(Clone)]
pub struct Mirror {
    client: reqwest::Client,
}

impl ServerHandler for Mirror {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        for attempt in 0..MAX_ATTEMPTS {
            match self.client.get(request.uri.as_str()).send().await {
                Ok(r) if r.status() == reqwest::StatusCode::TOO_MANY_REQUESTS => {
                    return Err(McpError::new(ErrorCode(RATE_LIMITED), "the mirror is rate limited; retry later", None)); //~ legacy_error_code
                }
                Ok(r) => {
                    let text = r.text().await.unwrap_or_default();
                    return Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri.clone())]));
                }
                Err(e) if e.is_timeout() && attempt + 1 < MAX_ATTEMPTS => continue,
                Err(e) => return Err(McpError::new(UPSTREAM_TIMEOUT, format!("mirror timed out: {e}"), None)),
            }
        }
        Err(McpError::new(UPSTREAM_TIMEOUT, "mirror timed out", None))
    }
}

pub fn describe(code: i32) -> &'static str {
    if code == UNUSED_CODE {
        "reserved for future use"
    } else {
        "unknown"
    }
}
