//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
//@ dep: tokio = "1"
// rust-mcp-sdk 2.x, `ServerHandler::handle_call_tool_request`: its error type is `CallToolError`,
// and the runtime turns every `Err(CallToolError)` into a `CallToolResult` with `isError: true`
// (`From<CallToolError> for CallToolResult`). So nothing here is a protocol error: `Err(..)`,
// `.map_err(CallToolError::new)?` on I/O, and the `#[mcp_tool]` structs' `call_tool` errors all
// reach the model (only the unknown-tool answer is wrong, see below). The trap is the MRTR
// variant of the same handler, `handle_call_tool_request_mrtr`, whose error type is `RpcError`:
// there the same failure is a JSON-RPC error (-32603).
use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    macros::{mcp_tool, JsonSchema},
    mcp_server::ServerHandler,
    schema::{
        schema_utils::CallToolError, CallToolRequestParams, CallToolResult, ListToolsResult, ListToolsResultCacheScope,
        PaginatedRequestParams, RpcError, ServerResult, TextContent,
    },
    tool_box, McpServer, RequestContext,
};

#[mcp_tool(name = "read_file", description = "Read a UTF-8 text file under the workspace")]
#[derive(Debug, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct ReadFileTool {
    /// Path relative to the workspace root.
    path: String,
}

impl ReadFileTool {
    pub async fn call_tool(&self, root: &PathBuf) -> Result<CallToolResult, CallToolError> {
        if self.path.contains("..") {
            return Err(CallToolError::invalid_arguments("read_file", Some(format!("path {} leaves the workspace", self.path))));
        }
        let text = tokio::fs::read_to_string(root.join(&self.path)).await.map_err(CallToolError::new)?;
        Ok(CallToolResult::text_content(vec![TextContent::from(text)]))
    }
}

#[mcp_tool(name = "word_count", description = "Count the words of a text file")]
#[derive(Debug, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct WordCountTool {
    path: String,
}

impl WordCountTool {
    pub async fn call_tool(&self, root: &PathBuf) -> Result<CallToolResult, CallToolError> {
        match tokio::fs::read_to_string(root.join(&self.path)).await {
            Ok(text) => Ok(CallToolResult::text_content(vec![TextContent::from(text.split_whitespace().count().to_string())])),
            Err(e) => Err(CallToolError::from_message(format!("cannot read {}: {e}", self.path))),
        }
    }
}

tool_box!(WorkspaceTools, [ReadFileTool, WordCountTool]);

pub struct WorkspaceHandler {
    root: PathBuf,
}

#[async_trait]
impl ServerHandler for WorkspaceHandler {
    async fn handle_list_tools_request(
        &self,
        _params: Option<PaginatedRequestParams>,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ListToolsResult, RpcError> {
        Ok(ListToolsResult {
            cache_scope: ListToolsResultCacheScope::Private,
            result_type: "complete".to_string(),
            ttl_ms: 0,
            meta: None,
            next_cursor: None,
            tools: WorkspaceTools::tools(),
        })
    }

    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, CallToolError> {
        if params.name == "workspace_root" {
            let meta = tokio::fs::metadata(&self.root).await.map_err(CallToolError::new)?;
            return Ok(CallToolResult::text_content(vec![TextContent::from(format!("{} ({} bytes)", self.root.display(), meta.len()))]).into());
        }
        // `tool_box!`'s `TryFrom` answers an unknown name with `CallToolError::unknown_tool(..)`, which
        // this handler can only send as an isError result (unknown_tool_as_tool_error, reported at
        // the user's call, not inside the macro); bad arguments as isError are right.
        let tool = WorkspaceTools::try_from(params).map_err(CallToolError::new)?; //~ unknown_tool_as_tool_error
        match tool {
            WorkspaceTools::ReadFileTool(t) => t.call_tool(&self.root).await.map(|r| r.into()),
            WorkspaceTools::WordCountTool(t) => t.call_tool(&self.root).await.map(|r| r.into()),
        }
    }
}

/// The same read, written against the MRTR variant: its `RpcError` is sent as a JSON-RPC error.
pub struct MrtrWorkspaceHandler {
    root: PathBuf,
}

#[async_trait]
impl ServerHandler for MrtrWorkspaceHandler {
    async fn handle_call_tool_request_mrtr(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        let path = params.arguments.as_ref().and_then(|a| a.get("path")).and_then(|v| v.as_str()).unwrap_or_default().to_string();
        let text = tokio::fs::read_to_string(self.root.join(&path))
            .await
            .map_err(|e| RpcError::internal_error().with_message(format!("cannot read {path}: {e}")))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::text_content(vec![TextContent::from(text)]).into())
    }
}
