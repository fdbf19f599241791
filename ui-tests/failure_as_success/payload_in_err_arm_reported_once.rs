//@ rmcp = "1.8"
// rmcp: an `Err` arm that builds its failure payload in a local (`let body = Rejection { ok:
// false, .. }`) and answers it with `CallToolResult::success(..)`. One failure, one finding: at
// the success result on the failure path, not again at the payload that reaches it (a payload
// that reaches a success answer off any failure path is reported where it is built:
// rust_mcp_sdk_answer_through_local).
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
struct Rejection {
    ok: bool,
    kind: &'static str,
    message: String,
}

#[derive(Debug)]
enum EngineError {
    Denied(String),
}

fn run(command: &str) -> Result<String, EngineError> {
    if command.contains(';') {
        return Err(EngineError::Denied(format!("`;` is not allowed in {command}")));
    }
    Ok(String::new())
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Exec {
    pub command: String,
}

#[derive(Clone)]
pub struct Shell {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Shell {
    #[tool(description = "Run a command")]
    async fn exec(&self, Parameters(req): Parameters<Exec>) -> Result<CallToolResult, McpError> {
        match run(&req.command) {
            Ok(out) => Ok(CallToolResult::success(vec![Content::text(out)])),
            Err(EngineError::Denied(message)) => {
                let body = Rejection { ok: false, kind: "denied", message };
                Ok(CallToolResult::success(vec![Content::text( //~ failure_as_success
                    serde_json::to_string(&body).unwrap_or_default(),
                )]))
            }
        }
    }
}
