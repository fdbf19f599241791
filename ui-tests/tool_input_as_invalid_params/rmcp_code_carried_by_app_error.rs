//@ rmcp = "1.8"
// rmcp: the crate's own error type carries the wire code in a field
// (`AppError { rpc_code: ErrorCode, .. }`), its constructors choose it
// (`fn validation(..) -> Self { Self::new(ErrorCode::INVALID_PARAMS, ..) }`) and one conversion
// puts it on the wire (`fn to_mcp(self) -> ErrorData { ErrorData::new(self.rpc_code, ..) }`).
// Each constructor tool code reaches is where a code is chosen and the fix goes: reported there
// once (this lint for -32602 on the model's values, tool_failure_as_protocol_error for -32603),
// with the tool calls attached, whoever else calls it. Not: a constructor no tool reaches
// (`startup`), and the same-shaped type whose code field never reaches a protocol error (it is
// answered as an isError result).
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content, ErrorCode},
    schemars, tool, tool_router, ErrorData,
};
use serde::Deserialize;

#[derive(Debug)]
pub struct AppError {
    rpc_code: ErrorCode,
    detail: String,
}

impl AppError {
    pub fn validation(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::INVALID_PARAMS, detail) //~ tool_input_as_invalid_params
    }

    pub fn upstream(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::INTERNAL_ERROR, detail) //~ tool_failure_as_protocol_error
    }

    pub fn startup(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::INTERNAL_ERROR, detail)
    }

    fn new(rpc_code: ErrorCode, detail: impl Into<String>) -> Self {
        Self { rpc_code, detail: detail.into() }
    }

    pub fn to_mcp(self) -> ErrorData {
        ErrorData::new(self.rpc_code, self.detail, None)
    }
}

/// Same shape, but its code only labels an isError result.
#[derive(Debug)]
pub struct Rejection {
    code: ErrorCode,
    detail: String,
}

impl Rejection {
    pub fn bad_value(detail: impl Into<String>) -> Self {
        Self { code: ErrorCode::INVALID_PARAMS, detail: detail.into() }
    }

    pub fn to_result(self) -> CallToolResult {
        CallToolResult::error(vec![Content::text(format!("{}: {}", self.code.0, self.detail))])
    }
}

fn fetch_issue(key: &str) -> Result<String, AppError> {
    if key.is_empty() {
        return Err(AppError::validation("`key` must not be empty"));
    }
    Err(AppError::upstream(format!("the issue tracker did not answer for {key}")))
}

pub fn load_config(path: &str) -> Result<String, AppError> {
    std::fs::read_to_string(path).map_err(|e| AppError::startup(format!("cannot read {path}: {e}")))
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct IssueArgs {
    pub key: String,
}

#[derive(Clone)]
pub struct Tracker {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Tracker {
    #[tool(description = "Get an issue")]
    async fn get_issue(&self, Parameters(args): Parameters<IssueArgs>) -> Result<CallToolResult, ErrorData> {
        let text = fetch_issue(&args.key).map_err(|e| e.to_mcp())?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Check an issue key")]
    async fn check_key(&self, Parameters(args): Parameters<IssueArgs>) -> Result<CallToolResult, ErrorData> {
        if args.key.contains(' ') {
            return Ok(Rejection::bad_value("`key` has a space").to_result());
        }
        Ok(CallToolResult::success(vec![Content::text("ok")]))
    }
}
