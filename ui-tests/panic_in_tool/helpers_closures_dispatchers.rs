//@ rmcp = "1.8"
// Tool context reaches helpers called from tools, `ToolRoute::new_dyn` closures and hand-written
// dispatchers; a helper's panic is reported once, where it is written.
use std::sync::Arc;

use rmcp::{
    handler::server::{
        router::tool::{ToolRoute, ToolRouter},
        tool::ToolCallContext,
    },
    model::{CallToolRequestParams, CallToolResult, Content, Tool},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

fn parse_port(text: &str) -> u16 {
    text.parse().expect("port is a number") //~ panic_in_tool
}

#[derive(Clone)]
pub struct Ports;

impl Ports {
    pub fn router() -> ToolRouter<Self> {
        ToolRouter::new().with_route(ToolRoute::new_dyn(
            Tool::new("is_privileged", "Whether a port needs root", Arc::new(Default::default())),
            |ctx: ToolCallContext<'_, Self>| {
                Box::pin(async move {
                    let args = ctx.arguments.unwrap(); //~ panic_in_tool
                    let port = parse_port(args["port"].as_str().unwrap_or("0"));
                    Ok(CallToolResult::success(vec![Content::text((port < 1024).to_string())]))
                })
            },
        ))
    }
}

impl ServerHandler for Ports {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "service_name" => {
                let port = parse_port(request.arguments.as_ref().and_then(|a| a["port"].as_str()).unwrap_or("0"));
                let name = match port {
                    22 => "ssh",
                    80 => "http",
                    443 => "https",
                    _ => unreachable!("only well-known ports are listed"), //~ panic_in_tool
                };
                Ok(CallToolResult::success(vec![Content::text(name)]))
            }
            _ => Err(McpError::invalid_params(format!("Unknown tool: {}", request.name), None)),
        }
    }
}
