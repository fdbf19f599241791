//@ rmcp = "3.3"
//@ dep: anyhow = "1"
//@ dep: serde_json = "1"
// An unknown-tool guard written as anyhow's `ensure!` over a membership test, in the fn the
// handler hands the name to: the error it fails with there is the unknown tool's answer, an
// isError result here (MCP007, reported at the guard). The dispatch's catch-all after it is
// unreachable for unknown names and is not reported.
use anyhow::Result;
use rmcp::{ServerHandler, model::*, service::{RequestContext, RoleServer}};
use serde_json::{Value, json};

const NAMES: &[&str] = &["search", "read"];
pub struct S;

impl S {
    async fn execute(&self, name: &str, args: Value) -> Result<Value> {
        anyhow::ensure!(NAMES.iter().any(|t| *t == name), "unknown or disabled tool; use tools/list"); //~ unknown_tool_as_tool_error
        match name {
            "search" => Ok(json!({"hits": args})),
            "read" => Ok(json!({"lines": []})),
            _ => anyhow::bail!("unknown or disabled tool: {name}; use tools/list"),
        }
    }
}

impl ServerHandler for S {
    async fn call_tool(&self, request: CallToolRequestParams, _context: RequestContext<RoleServer>)
        -> Result<CallToolResponse, ErrorData> {
        let args = Value::Object(request.arguments.unwrap_or_default());
        let outcome = self.execute(&request.name, args).await;
        match outcome {
            Ok(v) => Ok(CallToolResult::structured(v).into()),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())]).into()),
        }
    }
}
