//@ rmcp = "3.11"
//@ dep: anyhow = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// Not reported: the answer adds what failed (`format!("cannot read {id}: {e}")`), prints the
// causes of a `.context` on a `Result` (`{e:#}`), drops the error, or the message never reaches
// an answer (a log line; a fn whose error is mapped to a specific text).
use anyhow::{bail, Context, Result};
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData,
};

pub struct S;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub id: String,
}

fn check(id: &str) -> Result<()> {
    if id.len() > 64 {
        bail!("Invalid documentId");
    }
    Ok(())
}

// The unknown tool's answer is MCP007's and MCP011's to judge.
fn plan(name: &str) -> Result<&'static str, String> {
    match name {
        "detail" | "causes" => Ok("known"),
        _ => return Err("Unknown tool".into()),
    }
}

fn parse(id: &str) -> Result<u64> {
    id.parse::<u64>().context("invalid node id")
}

#[tool_router]
impl S {
    #[tool(description = "with the id")]
    async fn detail(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match check(&p.id) {
            Ok(()) => Ok(CallToolResult::success(vec![ContentBlock::text("ok")])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!("cannot read {}: {e}", p.id))])),
        }
    }

    #[tool(description = "with the causes")]
    async fn causes(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match parse(&p.id) {
            Ok(n) => Ok(CallToolResult::success(vec![ContentBlock::text(n.to_string())])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!("{e:#}"))])),
        }
    }

    #[tool(description = "planned")]
    async fn planned(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match plan(&p.id) {
            Ok(s) => Ok(CallToolResult::success(vec![ContentBlock::text(s)])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(e)])),
        }
    }

    #[tool(description = "dropped")]
    async fn dropped(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match check(&p.id) {
            Ok(()) => Ok(CallToolResult::success(vec![ContentBlock::text("ok")])),
            Err(e) => {
                eprintln!("check failed: {e}");
                Ok(CallToolResult::error(vec![ContentBlock::text(format!("id {} must be 1..64 characters", p.id))]))
            }
        }
    }
}
