//@ rmcp = "1.8"
// A helper also used outside tool context is reported at each tool's call, with the help
// written there: the helper's text only when every local it names is in scope at the call
// (`path` below is the tool's too), else the error value the call's own scope holds (`Err(err)
// =>`), else the placeholder. Never `e` or `msg` where the call has none.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, Content, ReadResourceRequestParams, ReadResourceResult, ResourceContents,
        ServerCapabilities, ServerInfo,
    },
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;

fn not_found(path: &str) -> McpError {
    McpError::internal_error(format!("no note at {path}"), None)
}

fn unreadable(e: std::io::Error) -> McpError {
    McpError::internal_error(format!("cannot read the note: {e}"), None)
}

fn offline() -> McpError {
    McpError::internal_error("the note store is offline", None)
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NoteArgs {
    pub path: String,
}

#[derive(Clone)]
pub struct Notes {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Notes {
    #[tool(description = "Read a note")]
    async fn read(&self, Parameters(NoteArgs { path }): Parameters<NoteArgs>) -> Result<CallToolResult, McpError> {
        if path.is_empty() {
            return Err(offline()); //~ tool_failure_as_protocol_error
        }
        if !std::path::Path::new(&path).exists() {
            return Err(not_found(&path)); //~ tool_failure_as_protocol_error
        }
        let text = std::fs::read_to_string(&path).map_err(unreadable)?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Size of a note")]
    async fn size(&self, Parameters(args): Parameters<NoteArgs>) -> Result<CallToolResult, McpError> {
        match std::fs::metadata(&args.path) {
            Ok(meta) => Ok(CallToolResult::success(vec![Content::text(meta.len().to_string())])),
            Err(err) => Err(unreadable(err)), //~ tool_failure_as_protocol_error
        }
    }
}

#[tool_handler]
impl ServerHandler for Notes {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        if request.uri.is_empty() {
            return Err(offline());
        }
        let path = request.uri.trim_start_matches("note://").to_string();
        if !std::path::Path::new(&path).exists() {
            return Err(not_found(&path));
        }
        let text = std::fs::read_to_string(&path).map_err(unreadable)?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]))
    }
}
