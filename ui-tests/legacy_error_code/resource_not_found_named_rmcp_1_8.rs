//@ rmcp = "1.8"
// The same server on rmcp 1.8, which rewrites -32002 to -32602 for peers on 2026-07-28 or later
// (#899): the named forms are not reported, the raw `ErrorCode(-32002)` still is.
use rmcp::{
    model::{ErrorCode, ReadResourceRequestParams, ReadResourceResult, ResourceContents},
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
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let uri = request.uri;
        if let Some(slug) = uri.strip_prefix("wiki://draft/") {
            return Err(McpError::new(ErrorCode::RESOURCE_NOT_FOUND, format!("draft {slug} is not published"), None));
        }
        if let Some(slug) = uri.strip_prefix("wiki://deleted/") {
            return Err(McpError::new(ErrorCode(-32002), format!("page {slug} was deleted"), None)); //~ legacy_error_code
        }
        let slug = uri.trim_start_matches("wiki://");
        match self.pages.get(slug) {
            Some(text) => Ok(ReadResourceResult::new(vec![ResourceContents::text(text.clone(), uri.clone())])),
            None => Err(McpError::resource_not_found(format!("no page {slug}"), Some(json!({ "uri": uri })))),
        }
    }
}
