//@ rmcp = "3.11"
// A crate error's mapping method picks the code per variant (`to_mcp_error(&self)`: `BadCall` ->
// -32602, the rest -32603), and `call_tool` maps the `Err(e)` of a `match` over a crate fn with
// it (`Err(e) => Err(e.to_mcp_error())`). The codes at that call are the arms of the variants that
// fn can return: `upstream` returns only `Upstream` (-32603, tool_failure_as_protocol_error, not
// tool_input_as_invalid_params), `check_args` returns `BadCall` (-32602 on the model's argument).
// `BadCall` is also built by client-side code no tool reaches; that does not make it
// `upstream`'s.
use rmcp::{model::*, service::RequestContext, ErrorData as McpError, RoleServer, ServerHandler};

#[derive(Debug)]
pub enum AppError {
    Upstream(String),
    BadCall(String),
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl AppError {
    pub fn to_mcp_error(&self) -> McpError {
        match self {
            AppError::BadCall(m) => McpError::invalid_params(m.clone(), None),
            _ => McpError::internal_error(self.to_string(), None),
        }
    }
}

/// Client-side code, never reached from a tool.
pub fn parse_call(s: &str) -> Result<(), AppError> {
    Err(AppError::BadCall(format!("not a call: {s}")))
}

pub struct Server;

impl Server {
    async fn upstream(&self, q: &str) -> Result<CallToolResult, AppError> {
        Err(AppError::Upstream(format!("agent down for {q}")))
    }

    fn check_args(&self, q: &str) -> Result<(), AppError> {
        if q.is_empty() {
            return Err(AppError::BadCall("`query` must not be empty".to_string()));
        }
        Ok(())
    }
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let q = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("query"))
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        match self.check_args(&q) {
            Ok(()) => {}
            Err(e) => return Err(e.to_mcp_error()), //~ tool_input_as_invalid_params
        }
        match self.upstream(&q).await {
            Ok(r) => Ok(r),
            Err(e) => Err(e.to_mcp_error()), //~ tool_failure_as_protocol_error
        }
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, McpError> {
        match self.upstream(&request.name).await {
            Ok(_) => Ok(GetPromptResult::new(vec![])),
            Err(e) => Err(e.to_mcp_error()),
        }
    }
}
