//@ dep: turbomcp = "3.6"
//@ dep: serde_json = "1"
//@ dep: tokio = "1"
// turbomcp 3.x, hand-written `impl McpHandler { fn call_tool(..) -> impl Future<Output =
// McpResult<ToolResult>> }`: here no macro converts anything, so an `Err(McpError)` is a JSON-RPC
// error with `err.jsonrpc_code()` (the trap next to `#[tool]`, where the same `Err` is an isError
// result). `?` on `std::io::Error` goes through turbomcp's `From<io::Error>`, whose kind (and so
// code) depends on the I/O error at run time: reported as a protocol error, with no code finding.
// `Ok(ToolResult::error(..))` is right, and so is `McpError::tool_not_found(..)` (-32602) for the
// unknown tool. `read_resource` and `get_prompt` are not tool context.
use std::future::Future;
use std::path::PathBuf;

use serde_json::Value;
use turbomcp::prelude::*;

#[derive(Clone)]
struct Files {
    root: PathBuf,
}

impl McpHandler for Files {
    fn server_info(&self) -> ServerInfo {
        ServerInfo::new("files", "1.0.0")
    }

    fn list_tools(&self) -> Vec<Tool> {
        vec![Tool::new("read", "Read a file"), Tool::new("stat", "Size of a file"), Tool::new("touch", "Create an empty file")]
    }

    fn list_resources(&self) -> Vec<Resource> {
        vec![]
    }

    fn list_prompts(&self) -> Vec<Prompt> {
        vec![]
    }

    fn call_tool<'a>(&'a self, name: &'a str, args: Value, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ToolResult>> + 'a {
        let name = name.to_string();
        async move {
            let path = args.get("path").and_then(|v| v.as_str()).unwrap_or_default().to_string();
            match name.as_str() {
                "read" => {
                    if path.is_empty() {
                        return Err(McpError::internal("path is required")); //~ tool_failure_as_protocol_error
                    }
                    let text = tokio::fs::read_to_string(self.root.join(&path)).await?; //~ tool_failure_as_protocol_error
                    Ok(ToolResult::text(text))
                }
                "stat" => {
                    let meta = tokio::fs::metadata(self.root.join(&path))
                        .await
                        .map_err(|e| McpError::tool_execution_failed("stat", format!("cannot stat {path}: {e}")))?; //~ tool_failure_as_protocol_error
                    Ok(ToolResult::text(meta.len().to_string()))
                }
                "touch" => match tokio::fs::File::create(self.root.join(&path)).await {
                    Ok(_) => Ok(ToolResult::text(format!("created {path}"))),
                    // Right: an isError result.
                    Err(e) => Ok(ToolResult::error(format!("cannot create {path}: {e}"))),
                },
                _ => Err(McpError::tool_not_found(&name)),
            }
        }
    }

    fn read_resource<'a>(&'a self, uri: &'a str, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ResourceResult>> + 'a {
        let uri = uri.to_string();
        async move {
            let path = uri.trim_start_matches("file://");
            let text = tokio::fs::read_to_string(self.root.join(path))
                .await
                .map_err(|e| McpError::internal(format!("cannot read {path}: {e}")))?;
            Ok(ResourceResult::text(&uri, text))
        }
    }

    fn get_prompt<'a>(&'a self, name: &'a str, _args: Option<Value>, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<PromptResult>> + 'a {
        let name = name.to_string();
        async move { Err(McpError::prompt_not_found(&name)) }
    }
}
