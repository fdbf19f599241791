//@ rmcp = "3.11"
// Codes the target spec defines are fine in the reserved range: -32020 HeaderMismatch, -32021
// MissingRequiredClientCapability, -32022 UnsupportedProtocolVersion (as literals, constants or
// rmcp 3.x constructors), the standard JSON-RPC codes, and application codes outside -32768..-32000.
use rmcp::{
    model::{
        ClientCapabilities, ErrorCode, InitializeRequestParams, InitializeResult, ProtocolVersion,
        ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    },
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

pub const TENANT_SUSPENDED: ErrorCode = ErrorCode(-1001);

#[derive(Clone)]
pub struct Edge;

impl ServerHandler for Edge {
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        if !ProtocolVersion::KNOWN_VERSIONS.contains(&request.protocol_version) {
            return Err(McpError::unsupported_protocol_version(
                request.protocol_version,
                &[ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28],
            ));
        }
        if request.capabilities.roots.is_none() {
            return Err(McpError::missing_required_client_capability(ClientCapabilities::builder().enable_roots().build()));
        }
        Ok(InitializeResult::new(ServerCapabilities::builder().enable_resources().build()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        if request.uri.starts_with("legacy://") {
            return Err(McpError::header_mismatch("Mcp-Name header does not match params.uri", None));
        }
        if request.uri.starts_with("strict://") {
            return Err(McpError::new(ErrorCode(-32020), "Mcp-Method header is missing", None));
        }
        if request.uri.starts_with("tenant://") {
            return Err(McpError::new(TENANT_SUSPENDED, "this tenant is suspended", None));
        }
        if request.uri.starts_with("cap://") {
            return Err(McpError::new(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, "roots capability required", None));
        }
        if request.uri.starts_with("v1://") {
            return Err(McpError::new(ErrorCode(-32022), "protocol version 2024-11-05 is not supported", None));
        }
        Err(McpError::new(ErrorCode::INVALID_PARAMS, format!("no resource {}", request.uri), None))
    }
}
