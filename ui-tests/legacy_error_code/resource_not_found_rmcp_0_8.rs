//@ rmcp = "0.8"
// -32002 (resource not found) is retired in 2026-07-28 (SEP-2164: answer -32602). rmcp before 1.8
// sends it as written, so `resource_not_found(..)` and `ErrorCode::RESOURCE_NOT_FOUND` are
// reported (the span is the constructor call, whose name carries the code, or the constant).
use rmcp::{
    model::{ErrorCode, ReadResourceRequestParam, ReadResourceResult, ResourceContents},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};
use serde_json::json;

#[derive(Clone)]
pub struct Wiki {
    pages: std::sync::Arc<std::collections::HashMap<String, String>>,
}

impl ServerHandler for Wiki {
    async fn read_resource(
        &self,
        ReadResourceRequestParam { uri }: ReadResourceRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        if let Some(slug) = uri.strip_prefix("wiki://draft/") {
            return Err(McpError::new(ErrorCode::RESOURCE_NOT_FOUND, format!("draft {slug} is not published"), None)); //~ legacy_error_code
        }
        let slug = uri.trim_start_matches("wiki://");
        match self.pages.get(slug) {
            Some(text) => Ok(ReadResourceResult {
                contents: vec![ResourceContents::text(text.clone(), uri.clone())],
            }),
            None => Err(McpError::resource_not_found(format!("no page {slug}"), Some(json!({ "uri": uri })))), //~ legacy_error_code
        }
    }
}
