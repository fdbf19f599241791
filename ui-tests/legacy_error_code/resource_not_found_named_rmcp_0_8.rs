//@ rmcp = "0.8"
// -32002 (resource not found) is retired in 2026-07-28 (SEP-2164). rmcp's *named* forms,
// `resource_not_found(..)` and `ErrorCode::RESOURCE_NOT_FOUND`, are not reported: rmcp >= 1.8
// rewrites them to -32602 for 2026-07-28 peers, and older rmcp (as here) cannot negotiate
// 2026-07-28, so each version sends what its peers expect. A raw `ErrorCode(-32002)` is reported:
// it hides the meaning (write the name, or -32602).
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
            return Err(McpError::new(ErrorCode::RESOURCE_NOT_FOUND, format!("draft {slug} is not published"), None));
        }
        if let Some(slug) = uri.strip_prefix("wiki://deleted/") {
            return Err(McpError::new(ErrorCode(-32002), format!("page {slug} was deleted"), None)); //~ legacy_error_code
        }
        let slug = uri.trim_start_matches("wiki://");
        match self.pages.get(slug) {
            Some(text) => Ok(ReadResourceResult {
                contents: vec![ResourceContents::text(text.clone(), uri.clone())],
            }),
            None => Err(McpError::resource_not_found(format!("no page {slug}"), Some(json!({ "uri": uri })))),
        }
    }
}
