//@ rmcp = "1.8"
// A dispatcher that looks the tool up in a registry by the request's name: the lookup's miss is
// the unknown-tool branch, whether it is a `let .. else`, a `None` arm or an `ok_or_else`. Answered
// with a tool result, it is this lint. A lookup by another key (a session id) is not the
// unknown-tool branch, and neither is the spec's answer.
use std::collections::HashMap;
use std::sync::Arc;

use rmcp::{
    model::{CallToolRequestParams, CallToolResult, Content},
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
        let Some(tool) = self.tools.get(request.name.as_ref()) else {
            return Ok(CallToolResult::error(vec![Content::text(format!("unknown tool {}", request.name))])); //~ unknown_tool_as_tool_error
        };
        Ok(tool.call(request.arguments.as_ref()))
    }
}

#[derive(Clone)]
pub struct MatchedRegistry {
    tools: HashMap<String, Arc<dyn Tool>>,
}

impl ServerHandler for MatchedRegistry {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match self.tools.get(&request.name.to_string()) {
            Some(tool) => Ok(tool.call(request.arguments.as_ref())),
            None => Ok(CallToolResult::error(vec![Content::text("no such tool")])), //~ unknown_tool_as_tool_error
        }
    }
}

#[derive(Clone)]
pub struct SpecRegistry {
    tools: HashMap<String, Arc<dyn Tool>>,
    sessions: HashMap<String, String>,
}

impl ServerHandler for SpecRegistry {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let session = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("session"))
            .and_then(|s| s.as_str())
            .unwrap_or_default();
        let Some(_owner) = self.sessions.get(session) else {
            return Ok(CallToolResult::error(vec![Content::text(format!("session {session} has expired; open a new one"))]));
        };
        let tool = self
            .tools
            .get(request.name.as_ref())
            .ok_or_else(|| McpError::invalid_params(format!("Unknown tool: {}", request.name), None))?;
        Ok(tool.call(request.arguments.as_ref()))
    }
}

pub trait NamedTool: Send + Sync {
    fn name(&self) -> &str;
    fn call(&self, args: Option<&serde_json::Map<String, serde_json::Value>>) -> CallToolResult;
}

/// A list of tools searched by name (`iter().find(..)`) misses the same way; a search of another
/// list by another key (a session) is no unknown-tool branch.
#[derive(Clone)]
pub struct Listed {
    tools: Vec<Arc<dyn NamedTool>>,
    sessions: Vec<String>,
}

impl ServerHandler for Listed {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let session = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("session"))
            .and_then(|s| s.as_str())
            .unwrap_or_default();
        let Some(_open) = self.sessions.iter().find(|s| s.as_str() == session) else {
            return Ok(CallToolResult::error(vec![Content::text(format!("session {session} has expired; open a new one"))]));
        };
        let Some(tool) = self.tools.iter().find(|t| t.name() == request.name.as_ref()) else {
            return Ok(CallToolResult::error(vec![Content::text(format!("no tool {}", request.name))])); //~ unknown_tool_as_tool_error
        };
        Ok(tool.call(request.arguments.as_ref()))
    }
}
