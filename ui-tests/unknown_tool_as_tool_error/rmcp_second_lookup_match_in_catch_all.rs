//@ rmcp = "1.8"
// A dispatcher whose catch-all matches on a second lookup by the name (`other => match
// self.presets.get(other) { Some(p) => run(p), None => .. }`): what the lookup finds is a tool
// (a preset the server has configured), so the `Some` arm's isError answers are that tool's; only
// the `None` arm answers an unknown tool.
use std::collections::HashMap;

use rmcp::{
    model::*, service::RequestContext, ErrorData as McpError, RoleServer, ServerHandler,
};

pub struct Preset {
    pub url: String,
}

pub struct Server {
    presets: HashMap<String, Preset>,
}

fn run(p: &Preset) -> CallToolResult {
    match std::fs::read_to_string(&p.url) {
        Ok(text) => CallToolResult::success(vec![Content::text(text)]),
        Err(e) => CallToolResult::error(vec![Content::text(format!("could not read {}: {e}", p.url))]),
    }
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "ping" => Ok(CallToolResult::success(vec![Content::text("pong")])),
            other => match self.presets.get(other) {
                Some(preset) => Ok(run(preset)),
                None => Ok(CallToolResult::error(vec![Content::text(format!("unknown tool: {other}"))])), //~ unknown_tool_as_tool_error
            },
        }
    }
}
