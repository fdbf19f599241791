//@ rmcp = "1.8"
// A registry lookup by the request's tool name: its miss is the unknown-tool answer, judged by its
// code and message like a fallback arm's. -32603 is the wrong code; -32602 must name the tool.
use std::collections::HashMap;
use std::sync::Arc;

use rmcp::{
    model::{CallToolRequestParams, CallToolResult},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

pub trait Tool: Send + Sync {
    fn call(&self, args: Option<&serde_json::Map<String, serde_json::Value>>) -> CallToolResult;
}

#[derive(Clone)]
pub struct Registry {
    tools: HashMap<String, Arc<dyn Tool>>,
}

impl ServerHandler for Registry {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let tool = self
            .tools
            .get(request.name.as_ref())
            .ok_or_else(|| McpError::internal_error(format!("tool {} is not registered", request.name), None))?; //~ unknown_tool_wrong_code
        Ok(tool.call(request.arguments.as_ref()))
    }
}

#[derive(Clone)]
pub struct Quiet {
    tools: HashMap<String, Arc<dyn Tool>>,
}

impl ServerHandler for Quiet {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match self.tools.get(&request.name.to_string()) {
            Some(tool) => Ok(tool.call(request.arguments.as_ref())),
            None => Err(McpError::invalid_params("tool not found", None)), //~ unknown_tool_wrong_code
        }
    }
}

/// The registry's `get_key_value` (the key is the tool's own name) misses the same way.
#[derive(Clone)]
pub struct Keyed {
    tools: HashMap<&'static str, Arc<dyn Tool>>,
}

impl ServerHandler for Keyed {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let (&name, tool) = self
            .tools
            .get_key_value(request.name.as_ref())
            .ok_or_else(|| McpError::invalid_request(format!("Tool '{}' not found", request.name), None))?; //~ unknown_tool_wrong_code
        let _ = name;
        Ok(tool.call(request.arguments.as_ref()))
    }
}
