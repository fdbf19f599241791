//@ rmcp = "2.2"
// -32042 (URL elicitation required) was defined by 2025-11-25 only and is retired in 2026-07-28
// ("MUST NOT emit"). rmcp 0.17-2.x still offer `url_elicitation_required(..)` and the constant.
use rmcp::{
    model::{ErrorCode, GetPromptRequestParams, GetPromptResult, ReadResourceRequestParams, ReadResourceResult},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};
use serde_json::json;

#[derive(Clone)]
pub struct Calendar {
    tokens: std::sync::Arc<dashmap::DashMap<String, String>>,
}

impl ServerHandler for Calendar {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        Err(McpError::url_elicitation_required( //~ reserved_error_code
            "connect your calendar account first",
            Some(json!({ "url": "https://calendar.example/oauth/start", "resource": request.uri })),
        ))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, McpError> {
        Err(McpError::new(
            ErrorCode::URL_ELICITATION_REQUIRED, //~ reserved_error_code
            format!("prompt {} needs calendar access", request.name),
            None,
        ))
    }
}
