//@ rmcp = "2.2"
//@ target-protocol: 2025-11-25
// The same server targeting 2025-11-25, where -32042 is the defined URL-elicitation code and the
// -32020..-32099 policy does not exist yet: nothing to report.
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
        Err(McpError::url_elicitation_required(
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
            ErrorCode::URL_ELICITATION_REQUIRED,
            format!("prompt {} needs calendar access", request.name),
            None,
        ))
    }
}
