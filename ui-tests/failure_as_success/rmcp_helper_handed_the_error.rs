//@ rmcp = "3.11"
//@ dep: anyhow = "1"
//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A helper handed a tool's error itself (`Err(e) => tool_err(e)`) answers it its own way: its
// success answer is reported there, once, with each call attached. Handed text made of the error
// (`tool_err(format!(".. {e}"))`), the call is the answer and is reported where it is.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

pub struct S;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Id {
    pub id: String,
}

async fn may_fail(id: &str) -> anyhow::Result<String> {
    if id.is_empty() {
        anyhow::bail!("terminal id must not be empty");
    }
    Ok(id.to_string())
}

fn ok(v: impl std::fmt::Display) -> Result<CallToolResult, McpError> {
    Ok(CallToolResult::success(vec![ContentBlock::text(v.to_string())]))
}

fn tool_err(msg: impl std::fmt::Display) -> Result<CallToolResult, McpError> {
    Ok(CallToolResult::success(vec![ContentBlock::text( //~ failure_as_success
        serde_json::json!({ "error": msg.to_string() }).to_string(),
    )]))
}

fn text_err(msg: String) -> Result<CallToolResult, McpError> {
    Ok(CallToolResult::success(vec![ContentBlock::text(
        serde_json::json!({ "error": msg }).to_string(),
    )]))
}

#[tool_router]
impl S {
    #[tool(description = "a")]
    async fn a(&self, Parameters(p): Parameters<Id>) -> Result<CallToolResult, McpError> {
        match may_fail(&p.id).await {
            Ok(v) => ok(v),
            Err(e) => tool_err(e),
        }
    }

    #[tool(description = "b")]
    async fn b(&self, Parameters(p): Parameters<Id>) -> Result<CallToolResult, McpError> {
        match may_fail(&p.id).await {
            Ok(v) => ok(v),
            Err(e) => tool_err(e),
        }
    }

    #[tool(description = "c")]
    async fn c(&self, Parameters(p): Parameters<Id>) -> Result<CallToolResult, McpError> {
        match may_fail(&p.id).await {
            Ok(v) => ok(v),
            Err(e) => text_err(format!("may_fail failed for {}: {e}", p.id)), //~ failure_as_success
        }
    }
}
