//@ rmcp = "0.14"
// A crate helper that takes the code as a parameter (`mcp_err(code, message)` building
// `ErrorData { code, message, data }`, or `ErrorData::new(code, message, None)`): each call is
// that protocol error with the caller's code. A failed delete sent with INTERNAL_ERROR is
// MCP001; a rejected argument value sent with INVALID_PARAMS is MCP006, also "json is required"
// when neither of two optional fields is given (read through a local that normalises one). Not:
// the same helper answering a resource read.
use rmcp::model::{ErrorCode, ErrorData};
use rmcp::{handler::server::wrapper::Parameters, model::*, service::RequestContext, tool, tool_router, RoleServer, ServerHandler};
use std::borrow::Cow;

pub fn mcp_err(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> ErrorData {
    ErrorData { code, message: message.into(), data: None }
}

pub fn rpc_err(code: ErrorCode, message: String) -> ErrorData {
    ErrorData::new(code, message, None)
}

fn normalize(payload: Option<String>) -> Option<String> {
    payload.filter(|p| !p.trim().is_empty())
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct DeleteParams {
    pub name: String,
    pub confirm: bool,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct IngestParams {
    pub json: Option<String>,
    pub json_path: Option<String>,
}

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "Delete a solution")]
    async fn delete(&self, Parameters(p): Parameters<DeleteParams>) -> Result<CallToolResult, ErrorData> {
        if !p.confirm {
            return Err(mcp_err(ErrorCode::INVALID_PARAMS, "set confirm=true to continue")); //~ tool_input_as_invalid_params
        }
        if let Err(e) = std::fs::remove_dir_all(&p.name) {
            return Err(rpc_err(ErrorCode::INTERNAL_ERROR, format!("cannot delete {}: {e}", p.name))); //~ tool_failure_as_protocol_error
        }
        Ok(CallToolResult::success(vec![Content::text("deleted")]))
    }

    #[tool(description = "Ingest rustdoc JSON")]
    async fn ingest(&self, Parameters(p): Parameters<IngestParams>) -> Result<CallToolResult, ErrorData> {
        let json = normalize(p.json);
        if json.is_none() && p.json_path.is_none() {
            return Err(mcp_err(ErrorCode::INVALID_PARAMS, "json is required (provide json or json_path)")); //~ tool_input_as_invalid_params
        }
        Ok(CallToolResult::success(vec![Content::text("ingested")]))
    }
}

impl ServerHandler for S {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        std::fs::read_to_string(&request.uri)
            .map(|text| ReadResourceResult { contents: vec![ResourceContents::text(text, request.uri.clone())] })
            .map_err(|e| rpc_err(ErrorCode::INTERNAL_ERROR, format!("cannot read {}: {e}", request.uri)))
    }
}
