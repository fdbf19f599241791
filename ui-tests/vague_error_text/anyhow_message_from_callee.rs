//@ rmcp = "3.11"
//@ dep: anyhow = "1"
//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// The text of an isError result is the Display of an error a crate fn returned (`{e}`,
// `{e:#}`, `e.to_string()`): an anyhow message made from a literal with no cause (`bail!`,
// `ensure!`, `anyhow!`, `.context` / `ok_or_else` on an `Option`), or a `String` error, is that
// text, and is reported where the literal is written.
use anyhow::{anyhow, bail, ensure, Context, Result};
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData,
};
use serde_json::{json, Value};

pub struct S;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub id: String,
}

fn check(id: &str) -> Result<Value> {
    ensure!(id.bytes().all(|b| b.is_ascii_alphanumeric()), "Invalid documentId"); //~ vague_error_text
    if id.len() > 64 {
        bail!("Something went wrong"); //~ vague_error_text
    }
    // Names the value: specific.
    ensure!(!id.is_empty(), "documentId must not be empty, got {id:?}");
    Ok(json!({ "id": id }))
}

fn lookup(id: &str) -> Result<Value> {
    let v = check(id)?;
    let tag = v.get("tag").ok_or_else(|| anyhow!("Unknown tag"))?; //~ vague_error_text
    Ok(tag.clone())
}

fn parse(id: &str) -> Result<u64> {
    // On a `Result`, `{e}` prints only the context: the whole text under `{e}`.
    id.parse::<u64>().context("invalid node id") //~ vague_error_text
}

fn by_text(id: &str) -> Result<String, String> {
    if id.is_empty() {
        return Err("Invalid input".to_string()); //~ vague_error_text
    }
    Ok(id.to_string())
}

#[tool_router]
impl S {
    #[tool(description = "read")]
    async fn read(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match lookup(&p.id) {
            Ok(v) => Ok(CallToolResult::structured(v)),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!("{e:#}"))])),
        }
    }

    #[tool(description = "read2")]
    async fn read2(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match check(&p.id) {
            Ok(v) => Ok(CallToolResult::structured(v)),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())])),
        }
    }

    #[tool(description = "node")]
    async fn node(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        let outcome = parse(&p.id);
        match outcome {
            Ok(n) => Ok(CallToolResult::success(vec![ContentBlock::text(n.to_string())])),
            Err(e) => {
                let text = format!("tool error: {e}");
                Ok(CallToolResult::error(vec![ContentBlock::text(text)]))
            }
        }
    }

    #[tool(description = "text")]
    async fn text(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match by_text(&p.id) {
            Ok(s) => Ok(CallToolResult::success(vec![ContentBlock::text(s)])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(e)])),
        }
    }
}
