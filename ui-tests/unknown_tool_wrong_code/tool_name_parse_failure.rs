//@ rmcp = "1.8"
// A dispatcher that parses the request's tool name before it picks a tool (`<plugin>-<tool>`):
// when the name does not parse, the request names no tool the server has, so that `Err(e)` arm
// is the unknown-tool answer, judged by its code (-32602 is right, -32600 is not). Not: an arm
// for one error variant, which the server handles as a name it knows (its own reserved tools),
// nor a parse of a tool's argument after the tool is picked.
use rmcp::{
    model::{CallToolRequestParams, CallToolResult, Content},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

pub enum NameError {
    Reserved(String),
    Malformed(String),
}

fn parse_namespaced(name: &str) -> Result<(String, String), NameError> {
    match name.split_once('-') {
        Some(("core", tool)) => Err(NameError::Reserved(tool.to_string())),
        Some((plugin, tool)) => Ok((plugin.to_string(), tool.to_string())),
        None => Err(NameError::Malformed(name.to_string())),
    }
}

#[derive(Clone)]
pub struct Plugins;

impl Plugins {
    async fn run(&self, plugin: &str, tool: &str) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![Content::text(format!("{plugin}/{tool}"))]))
    }

    async fn run_core(&self, tool: &str) -> Result<CallToolResult, McpError> {
        if tool == "status" {
            return Ok(CallToolResult::success(vec![Content::text("ok")]));
        }
        Ok(CallToolResult::error(vec![Content::text(format!("core has no tool {tool}"))]))
    }
}

impl ServerHandler for Plugins {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match parse_namespaced(request.name.as_ref()) {
            Ok((plugin, tool)) => {
                let limit = match request.arguments.as_ref().and_then(|a| a.get("limit")) {
                    Some(v) => v.as_u64().unwrap_or(10),
                    None => 10,
                };
                let _ = limit;
                self.run(&plugin, &tool).await
            }
            Err(NameError::Reserved(tool)) => self.run_core(&tool).await,
            Err(e) => Err(McpError::invalid_request( //~ unknown_tool_wrong_code
                format!("cannot parse tool name {}: {}", request.name, describe(&e)),
                None,
            )),
        }
    }
}

fn describe(e: &NameError) -> &str {
    match e {
        NameError::Reserved(t) | NameError::Malformed(t) => t,
    }
}

#[derive(Clone)]
pub struct SpecPlugins;

impl ServerHandler for SpecPlugins {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match parse_namespaced(request.name.as_ref()) {
            Ok((plugin, tool)) => Ok(CallToolResult::success(vec![Content::text(format!("{plugin}/{tool}"))])),
            Err(_) => Err(McpError::invalid_params(format!("Unknown tool: {}", request.name), None)),
        }
    }
}

fn main() {}
