//@ rmcp = "1.8"
// Codes in the legacy -32000..-32019 range, wherever an error is built (here outside tool
// context, so only the code is reported). The span is the code expression: `ErrorCode(..)`, or
// the literal in a struct literal's `code` field.
use std::borrow::Cow;

use rmcp::{
    model::{
        CompleteRequestParams, CompleteResult, ErrorCode, InitializeRequestParams, InitializeResult,
        ReadResourceRequestParams, ReadResourceResult, ResourceContents, ServerCapabilities,
    },
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Archive {
    ready: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl ServerHandler for Archive {
    async fn initialize(
        &self,
        _request: InitializeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        if !self.ready.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(McpError::new(ErrorCode(-32000), "archive index is still loading, retry in a minute", None)); //~ legacy_error_code
        }
        Ok(InitializeResult::new(ServerCapabilities::builder().enable_resources().build()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let text = tokio::fs::read_to_string(request.uri.trim_start_matches("archive://"))
            .await
            .map_err(|e| McpError {
                code: ErrorCode(-32019), //~ legacy_error_code
                message: Cow::from(format!("archive entry unreadable: {e}")),
                data: None,
            })?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]))
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        Err(McpError::new(
            ErrorCode(-32001), //~ legacy_error_code
            "completion is disabled for this archive",
            None,
        ))
    }
}
