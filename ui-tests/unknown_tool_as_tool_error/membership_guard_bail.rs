//@ rmcp = "3.3"
//@ dep: anyhow = "1"
//@ dep: serde_json = "1"
// An unknown-tool guard as an `if` over a membership test whose branch `bail!`s, before the
// dispatch: the error is the unknown tool's answer, an isError result here (MCP007, at the
// `bail!`), and the dispatch's catch-all after it is unreachable. A membership test of another
// name (`servers.contains(&server_name)`) is not a tool guard: its failure is a tool's.
use anyhow::Result;
use rmcp::{ServerHandler, model::*, service::{RequestContext, RoleServer}};
use serde_json::{Value, json};

const KNOWN: &[&str] = &["search", "read"];
const SERVERS: &[&str] = &["local", "remote"];

pub struct S;

impl S {
    async fn execute(&self, name: &str, args: Value) -> Result<Value> {
        if !KNOWN.contains(&name) {
            anyhow::bail!("unknown tool {name}; call tools/list for the tools"); //~ unknown_tool_as_tool_error
        }
        let server_name = args["server"].as_str().unwrap_or("local").to_string();
        if !SERVERS.contains(&server_name.as_str()) {
            anyhow::bail!("server {server_name} is not configured; use one of {SERVERS:?}");
        }
        match name {
            "search" => Ok(json!({"hits": args, "server": server_name})),
            "read" => Ok(json!({"lines": []})),
            _ => anyhow::bail!("unknown tool: {name}"),
        }
    }
}

impl ServerHandler for S {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = Value::Object(request.arguments.unwrap_or_default());
        match self.execute(&request.name, args).await {
            Ok(v) => Ok(CallToolResult::structured(v).into()),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())]).into()),
        }
    }
}
