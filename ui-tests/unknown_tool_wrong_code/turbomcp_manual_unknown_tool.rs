//@ dep: turbomcp = "3.6"
//@ dep: serde_json = "1"
// turbomcp 3.x, hand-written `McpHandler::call_tool`: the fallback arm of the match over `name` is
// the unknown-tool answer. `McpError::tool_not_found(name)` is ToolNotFound, -32602 "Tool not
// found: <name>" since 3.5: right. `McpError::method_not_found(name)` is -32601 and
// `McpError::internal(..)` -32603: the wrong code (and no tool_failure_as_protocol_error, the
// unknown-tool branch is not a tool's own failure). The `#[server]` macro's generated fallback is
// `tool_not_found` and lives in the macro expansion: never reported.
use std::future::Future;

use serde_json::Value;
use turbomcp::prelude::*;

#[derive(Clone)]
struct Clock {
    strict: bool,
    legacy: bool,
}

impl McpHandler for Clock {
    fn server_info(&self) -> ServerInfo {
        ServerInfo::new("clock", "1.0.0")
    }

    fn list_tools(&self) -> Vec<Tool> {
        vec![Tool::new("now", "Current UTC time"), Tool::new("unix", "Current Unix timestamp")]
    }

    fn list_resources(&self) -> Vec<Resource> {
        vec![]
    }

    fn list_prompts(&self) -> Vec<Prompt> {
        vec![]
    }

    fn call_tool<'a>(&'a self, name: &'a str, _args: Value, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ToolResult>> + 'a {
        let name = name.to_string();
        async move {
            let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default();
            if self.strict {
                return match name.as_str() {
                    "now" | "unix" => Ok(ToolResult::text(secs.to_string())),
                    _ => Err(McpError::tool_not_found(&name)),
                };
            }
            if self.legacy {
                return match name.as_str() {
                    "unix" => Ok(ToolResult::text(secs.to_string())),
                    other => Err(McpError::internal(format!("unknown tool {other}"))), //~ unknown_tool_wrong_code
                };
            }
            match name.as_str() {
                "now" => Ok(ToolResult::text(format!("{secs}s since the epoch"))),
                "unix" => Ok(ToolResult::text(secs.to_string())),
                _ => Err(McpError::method_not_found(&name)), //~ unknown_tool_wrong_code
            }
        }
    }

    fn read_resource<'a>(&'a self, uri: &'a str, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ResourceResult>> + 'a {
        let uri = uri.to_string();
        async move { Err(McpError::resource_not_found(&uri)) }
    }

    fn get_prompt<'a>(&'a self, name: &'a str, _args: Option<Value>, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<PromptResult>> + 'a {
        let name = name.to_string();
        async move { Err(McpError::prompt_not_found(&name)) }
    }
}

#[derive(Clone)]
struct MacroClock;

#[server(name = "macro-clock", version = "1.0.0")]
impl MacroClock {
    /// Current Unix timestamp.
    #[tool(read_only = true)]
    async fn unix(&self) -> McpResult<u64> {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .map_err(|e| McpError::internal(format!("system clock is before 1970: {e}")))
    }
}
