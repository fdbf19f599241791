//@ rmcp = "3.6"
//@ dep: serde_json = "1"
// A failure `json!` held in a local and answered as a success result's JSON block, whether the
// block is built in place (`ContentBlock::json(payload)?`, `ContentBlock::text(payload
// .to_string())`) or held in a local too (`let content = ContentBlock::json(payload)?`): reported
// at the `json!` that says it failed. A payload that only ever says it succeeded is not.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler};
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Req { code: String }

pub struct Outcome { success: bool, result: String, error: String }

async fn run(code: &str) -> Result<Outcome, String> {
    Ok(Outcome { success: !code.is_empty(), result: code.to_string(), error: String::new() })
}

#[derive(Clone)]
pub struct S { tool_router: ToolRouter<S> }

#[tool_handler]
impl ServerHandler for S {}

#[tool_router]
impl S {
    #[tool(description = "run3")]
    async fn go3(&self, Parameters(req): Parameters<Req>) -> Result<CallToolResult, McpError> {
        match run(&req.code).await {
            Ok(r) => {
                let payload = if r.success { json!({"result": r.result, "success": true}) }
                              else { json!({"success": false, "error": r.error}) }; //~ failure_as_success
                let content = ContentBlock::json(payload)?;
                Ok(CallToolResult::success(vec![content]))
            }
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())])),
        }
    }

    #[tool(description = "echo")]
    async fn echo(&self, Parameters(req): Parameters<Req>) -> Result<CallToolResult, McpError> {
        let payload = json!({"code": req.code, "success": true});
        let content = ContentBlock::json(payload)?;
        Ok(CallToolResult::success(vec![content]))
    }

    #[tool(description = "run")]
    async fn go(&self, Parameters(req): Parameters<Req>) -> Result<CallToolResult, McpError> {
        match run(&req.code).await {
            Ok(r) => {
                let payload = if r.success { json!({"result": r.result, "success": true}) }
                              else { json!({"success": false, "error": r.error}) }; //~ failure_as_success
                Ok(CallToolResult::success(vec![ContentBlock::json(payload)?]))
            }
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())])),
        }
    }
    #[tool(description = "run2")]
    async fn go2(&self, Parameters(req): Parameters<Req>) -> Result<CallToolResult, McpError> {
        match run(&req.code).await {
            Ok(r) => {
                let payload = if r.success { json!({"result": r.result, "success": true}) }
                              else { json!({"success": false, "error": r.error}) }; //~ failure_as_success
                Ok(CallToolResult::success(vec![ContentBlock::text(payload.to_string())]))
            }
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())])),
        }
    }
}
