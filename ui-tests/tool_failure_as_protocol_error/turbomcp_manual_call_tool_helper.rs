//@ dep: turbomcp = "3.6"
//@ dep: serde_json = "1"
// turbomcp 3.x, the hand-written `McpHandler` of turbomcp-core's docs (`handler.rs`, "Manual
// Implementation"), with the error built in helpers that return `McpError` itself. What such a
// value becomes depends on who returns it: from a `#[server]` `#[tool]` an isError result
// (`turbomcp3_same_server_tool_err_is_iserror.rs`), from `call_tool` a JSON-RPC error. Here only
// `call_tool` returns them: `missing_arg` (MCP001) and `not_a_number` (MCP006, an argument
// rejected with -32602) are reported where they build it, with the tool calls that reach them,
// and fixed there. `not_found` is returned by `read_resource` too, where a protocol error
// belongs: reported at the tool's call instead, with no fix.
use core::future::Future;

use serde_json::Value;
use turbomcp::prelude::*;

#[derive(Clone)]
struct MyHandler;

/// The argument the tool needs and did not get.
fn missing_arg(name: &str) -> McpError {
    McpError::internal(format!("argument {name} is required")) //~ tool_failure_as_protocol_error
}

fn not_a_number(name: &str, got: &Value) -> McpError {
    McpError::invalid_params(format!("argument {name} must be a number, got {got}")) //~ tool_input_as_invalid_params
}

fn not_found(what: &str) -> McpError {
    McpError::internal(format!("no {what} here"))
}

impl McpHandler for MyHandler {
    fn server_info(&self) -> ServerInfo {
        ServerInfo::new("my-handler", "1.0.0")
    }

    fn list_tools(&self) -> Vec<Tool> {
        vec![Tool::new("hello", "Say hello"), Tool::new("double", "Double a number")]
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
            match name.as_str() {
                "hello" => {
                    let who = args.get("name").and_then(|v| v.as_str()).ok_or_else(|| missing_arg("name"))?;
                    Ok(ToolResult::text(format!("Hello, {}!", who)))
                }
                "double" => {
                    let Some(n) = args.get("n") else {
                        return Err(missing_arg("n"));
                    };
                    match n.as_i64() {
                        Some(n) => Ok(ToolResult::text((2 * n).to_string())),
                        None => Err(not_a_number("n", n)),
                    }
                }
                "lookup" => Err(not_found("entry")), //~ tool_failure_as_protocol_error
                _ => Err(McpError::tool_not_found(&name)),
            }
        }
    }

    fn read_resource<'a>(&'a self, uri: &'a str, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ResourceResult>> + 'a {
        let uri = uri.to_string();
        async move { Err(not_found(&uri)) }
    }

    fn get_prompt<'a>(&'a self, name: &'a str, _args: Option<Value>, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<PromptResult>> + 'a {
        let name = name.to_string();
        async move { Err(McpError::prompt_not_found(&name)) }
    }
}
