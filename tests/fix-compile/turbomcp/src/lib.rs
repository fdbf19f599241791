//! A turbomcp 3.6 server with a hand-written `McpHandler::call_tool`, where an `Err(McpError)`
//! is a JSON-RPC error (a `#[server]` `#[tool]`'s would be an isError result), in the forms
//! `mcp-lint check --fix --unsafe-fixes` rewrites, one of them built in a helper only
//! `call_tool` uses; a `#[server]` whose tool answers with its output (`McpResult<Value>`),
//! where the isError answer is an `Err`; and one whose tool's output is no `Result`
//! (`Json<T>`), which the fix declares one.

use std::future::Future;

use serde_json::{json, Value};
use turbomcp::{
    server, McpError, McpHandler, McpResult, Prompt, PromptResult, RequestContext, Resource,
    ResourceResult, ServerInfo, Tool, ToolResult,
};

#[derive(Clone, Default)]
pub struct Files;

/// The argument a tool needs and did not get.
fn missing_arg(name: &str) -> McpError {
    McpError::internal(format!("argument {name} is required"))
}

impl McpHandler for Files {
    fn server_info(&self) -> ServerInfo {
        ServerInfo::new("files", "0.0.0")
    }

    fn list_tools(&self) -> Vec<Tool> {
        vec![
            Tool::new("size", "A file's size in bytes"),
            Tool::new("head", "A file's first line"),
            Tool::new("line", "One line of a file"),
        ]
    }

    fn list_resources(&self) -> Vec<Resource> {
        Vec::new()
    }

    fn list_prompts(&self) -> Vec<Prompt> {
        Vec::new()
    }

    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        args: Value,
        _ctx: &'a RequestContext,
    ) -> impl Future<Output = McpResult<ToolResult>> + 'a {
        let name = name.to_string();
        async move {
            let Some(path) = args.get("path").and_then(Value::as_str) else {
                return Err(McpError::internal("path is required (a file path)"));
            };
            match name.as_str() {
                "size" => {
                    let meta =
                        std::fs::metadata(path).map_err(|e| McpError::internal(e.to_string()))?;
                    Ok(ToolResult::text(meta.len().to_string()))
                }
                "head" => match std::fs::read_to_string(path) {
                    Ok(text) => Ok(ToolResult::text(text.lines().next().unwrap_or_default())),
                    Err(e) => Ok(ToolResult::text(format!("cannot read {path}: {e}"))),
                },
                "line" => {
                    let n = args
                        .get("n")
                        .and_then(Value::as_u64)
                        .ok_or_else(|| missing_arg("n"))?;
                    Ok(ToolResult::text(format!("line {n} of {path}")))
                }
                other => Err(McpError::method_not_found(format!("no tool {other}"))),
            }
        }
    }

    fn read_resource<'a>(
        &'a self,
        uri: &'a str,
        _ctx: &'a RequestContext,
    ) -> impl Future<Output = McpResult<ResourceResult>> + 'a {
        let uri = uri.to_string();
        async move { Err(McpError::resource_not_found(&uri)) }
    }

    fn get_prompt<'a>(
        &'a self,
        name: &'a str,
        _args: Option<Value>,
        _ctx: &'a RequestContext,
    ) -> impl Future<Output = McpResult<PromptResult>> + 'a {
        let name = name.to_string();
        async move { Err(McpError::prompt_not_found(&name)) }
    }
}

/// A `#[server]` whose tool's `Ok` is its output, a JSON value.
#[derive(Clone, Default)]
pub struct Lines;

#[server]
impl Lines {
    #[tool("How many lines a file has")]
    async fn count(&self, path: String) -> McpResult<Value> {
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(json!({ "path": path, "lines": text.lines().count() })),
            Err(e) => Ok(json!({ "path": path, "error": format!("cannot read {path}: {e}") })),
        }
    }
}

/// A `#[server]` whose tool's output is no `Result` (`Json<T>`): the fix declares it one.
#[derive(Clone, Default)]
pub struct Sizes;

/// A file's size, or why there is none.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Size {
    path: String,
    bytes: u64,
    error: Option<String>,
}

#[server]
impl Sizes {
    #[tool("A file's size in bytes")]
    async fn size(&self, path: String) -> turbomcp::Json<Size> {
        match std::fs::metadata(&path) {
            Ok(meta) => turbomcp::Json(Size {
                path,
                bytes: meta.len(),
                error: None,
            }),
            Err(e) => turbomcp::Json(Size {
                path,
                bytes: 0,
                error: Some(e.to_string()),
            }),
        }
    }
}
