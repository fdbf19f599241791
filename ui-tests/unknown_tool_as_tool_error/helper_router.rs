//@ rmcp = "1.8"
// A hand-written `call_tool` that hands the request to a helper before any tool is picked
// (`self.call_tool_impl(request)`): the helper picks the tool, so its `if name == ..` chain is
// the dispatch and its last `else` the unknown-tool branch, and a tool's failure in it is that
// tool's. Not: a helper that the dispatcher calls with the request *after* it picked a tool
// (inside a tool's branch), nor one that other code calls as well.
use rmcp::{
    model::{CallToolRequestParams, CallToolResult, Content},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

#[derive(Clone)]
pub struct Router;

impl Router {
    async fn call_tool_impl(
        &self,
        request: CallToolRequestParams,
    ) -> Result<CallToolResult, McpError> {
        let name = request.name.to_string();
        if name == "echo" {
            Ok(CallToolResult::success(vec![Content::text("echo")]))
        } else if name == "fetch" {
            Err(McpError::internal_error("upstream answered 502", None)) //~ tool_failure_as_protocol_error
        } else {
            Ok(CallToolResult::error(vec![Content::text(format!("Unknown tool: {name}"))])) //~ unknown_tool_as_tool_error
        }
    }
}

impl ServerHandler for Router {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        self.call_tool_impl(request).await
    }
}

#[derive(Clone)]
pub struct Picked;

impl Picked {
    /// Runs the `search` tool: called once the dispatcher picked it.
    async fn search(&self, request: CallToolRequestParams) -> Result<CallToolResult, McpError> {
        let query = request.arguments.unwrap_or_default();
        if query.is_empty() {
            return Ok(CallToolResult::error(vec![Content::text("search needs a query")]));
        }
        Ok(CallToolResult::success(vec![Content::text("found")]))
    }
}

impl ServerHandler for Picked {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "search" => self.search(request).await,
            other => Err(McpError::invalid_params(format!("Unknown tool: {other}"), None)),
        }
    }
}

fn main() {}
