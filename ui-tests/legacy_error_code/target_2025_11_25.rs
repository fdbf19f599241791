//@ rmcp = "0.8"
//@ target-protocol: 2025-11-25
// The legacy range exists only from 2026-07-28 on: before it, -32000..-32099 were
// "implementation-specific" and -32002 was the documented resource-not-found code.
use rmcp::{
    model::{ErrorCode, ReadResourceRequestParam, ReadResourceResult, ResourceContents},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

pub const BACKEND_DOWN: ErrorCode = ErrorCode(-32003);

#[derive(Clone)]
pub struct Cms {
    client: reqwest::Client,
}

impl ServerHandler for Cms {
    async fn read_resource(
        &self,
        ReadResourceRequestParam { uri }: ReadResourceRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let response = self
            .client
            .get(&uri)
            .send()
            .await
            .map_err(|e| McpError::new(BACKEND_DOWN, format!("CMS backend unreachable: {e}"), None))?;
        if response.status() == reqwest::StatusCode::NOT_FOUND {
            return Err(McpError::resource_not_found(format!("no CMS entry at {uri}"), None));
        }
        if response.status().is_server_error() {
            return Err(McpError::new(ErrorCode(-32001), "CMS backend answered with a server error", None));
        }
        let text = response.text().await.unwrap_or_default();
        Ok(ReadResourceResult { contents: vec![ResourceContents::text(text, uri)] })
    }
}
