//@ rmcp = "1.8"
// Codes in -32020..-32099 that 2026-07-28 does not define, and non-standard codes in JSON-RPC's
// own reserved -32768..-32100, in any error-building position (outside tool context here, so
// only the code is reported). The span is the code expression; a typed const is reported once,
// at its definition.
use rmcp::{
    model::{
        ErrorCode, GetPromptRequestParams, GetPromptResult, InitializeRequestParams, InitializeResult,
        ReadResourceRequestParams, ReadResourceResult, ServerCapabilities,
    },
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

pub const QUOTA_EXCEEDED: ErrorCode = ErrorCode(-32029); //~ reserved_error_code
const STORAGE_OFFLINE: i32 = -32500;

#[derive(Clone)]
pub struct Vault {
    tenants: std::sync::Arc<dashmap::DashMap<String, u64>>,
}

impl ServerHandler for Vault {
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        let tenant = request.client_info.name.clone();
        if self.tenants.get(&tenant).is_some_and(|used| *used > 1_000) {
            return Err(McpError::new(QUOTA_EXCEEDED, format!("tenant {tenant} is over its monthly quota"), None));
        }
        Ok(InitializeResult::new(ServerCapabilities::builder().enable_resources().enable_prompts().build()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        if request.uri.starts_with("cold://") {
            return Err(McpError::new(ErrorCode(STORAGE_OFFLINE), "cold storage is offline for maintenance", None)); //~ reserved_error_code
        }
        Err(McpError::new(
            ErrorCode(-32099), //~ reserved_error_code
            format!("{} is sealed; unseal the vault first", request.uri),
            None,
        ))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, McpError> {
        Err(McpError {
            code: ErrorCode(-32768), //~ reserved_error_code
            message: format!("prompt {} needs an unsealed vault", request.name).into(),
            data: None,
        })
    }
}
