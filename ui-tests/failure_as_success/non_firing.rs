//@ rmcp = "1.8"
// Not reported: the `Err` arm answers with an isError result or a protocol error; success in the
// `Ok` arm; `Err` handling outside tool context (startup code, a client of another server, a
// resource handler).
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolRequestParams, CallToolResult, Content, ReadResourceRequestParams, ReadResourceResult, ResourceContents},
    schemars,
    service::{RequestContext, RunningService},
    tool, tool_handler, tool_router, ErrorData as McpError, RoleClient, RoleServer, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PathArgs {
    pub path: String,
}

#[derive(Clone)]
pub struct Files {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    async fn read(&self, Parameters(PathArgs { path }): Parameters<PathArgs>) -> Result<CallToolResult, McpError> {
        match tokio::fs::read_to_string(&path).await {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(e) => Ok(CallToolResult::error(vec![Content::text(format!("cannot read {path}: {e}"))])),
        }
    }

    #[tool(description = "Count the lines of a file")]
    async fn lines(&self, Parameters(PathArgs { path }): Parameters<PathArgs>) -> Result<CallToolResult, McpError> {
        let text = match tokio::fs::read_to_string(&path).await {
            Ok(text) => text,
            Err(e) => {
                let mut result = CallToolResult::success(vec![Content::text(format!("cannot read {path}: {e}"))]);
                result.is_error = Some(true);
                return Ok(result);
            }
        };
        Ok(CallToolResult::success(vec![Content::text(text.lines().count().to_string())]))
    }
}

#[tool_handler]
impl ServerHandler for Files {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let text = match tokio::fs::read_to_string(request.uri.trim_start_matches("file://")).await {
            Ok(text) => text,
            Err(e) => format!("unreadable: {e}"),
        };
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]))
    }
}

/// A client of another server, summarising what it answered.
pub async fn summarize_remote(client: &RunningService<RoleClient, ()>) -> CallToolResult {
    match client.call_tool(CallToolRequestParams::new("status")).await {
        Ok(result) => result,
        Err(e) => CallToolResult::success(vec![Content::text(format!("remote status unavailable: {e}"))]),
    }
}

pub fn load_config(path: &str) -> String {
    match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("no config at {path} ({e}); using defaults");
            String::new()
        }
    }
}
