//@ dep: turbomcp = "3.6"
//@ dep: serde_json = "1"
// turbomcp 3.x, hand-written `McpHandler::call_tool`: answering an unknown tool with
// `Ok(ToolResult::error(..))` (an isError result) or a success result is this lint;
// `Err(McpError::tool_not_found(name))` is the protocol error the spec wants.
use std::future::Future;

use serde_json::Value;
use turbomcp::prelude::*;

#[derive(Clone)]
struct Dice {
    lenient: bool,
}

impl McpHandler for Dice {
    fn server_info(&self) -> ServerInfo {
        ServerInfo::new("dice", "1.0.0")
    }

    fn list_tools(&self) -> Vec<Tool> {
        vec![Tool::new("d6", "Roll a six-sided die")]
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
            let roll = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos() % 6 + 1).unwrap_or(1);
            match name.as_str() {
                "d6" => Ok(ToolResult::text(roll.to_string())),
                other if self.lenient => Ok(ToolResult::text(format!("no tool named {other}; try d6"))), //~ unknown_tool_as_tool_error
                other => Ok(ToolResult::error(format!("Unknown tool: {other}"))), //~ unknown_tool_as_tool_error
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
struct StrictDice;

impl McpHandler for StrictDice {
    fn server_info(&self) -> ServerInfo {
        ServerInfo::new("strict-dice", "1.0.0")
    }

    fn list_tools(&self) -> Vec<Tool> {
        vec![Tool::new("d6", "Roll a six-sided die")]
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
            match name.as_str() {
                "d6" => Ok(ToolResult::text("4")),
                _ => Err(McpError::tool_not_found(&name)),
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
