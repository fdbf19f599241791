//@ dep: ultrafast-mcp = "202506018.1.0"
//@ dep: async-trait = "0.1"
//@ dep: serde = "1"
//@ dep: serde_json = "1"
// ultrafast-mcp 202506018.1.0, `impl ToolHandler { async fn handle_tool_call(&self, call:
// ToolCall) -> MCPResult<ToolResult> }`: the server sends every `Err` as a JSON-RPC error,
// -32602 for `MCPError::Protocol(InvalidParams | NotFound)` and -32603 for everything else. So
// `MCPError::internal_error(..)`, `?` on `serde_json` errors (the README's own argument parsing),
// `?` on `std::io` or anyhow errors, and `MCPError::ToolExecution(ToolError::ExecutionFailed(..))`
// (named after tools, sent as -32603) are all tool failures as protocol errors. The only isError
// form is the literal `ToolResult { content, is_error: Some(true) }`. Resource handlers are not
// tool context.
use async_trait::async_trait;
use serde::Deserialize;
use ultrafast_mcp::types::resources::{ListResourceTemplatesRequest, ListResourceTemplatesResponse};
use ultrafast_mcp::types::roots::RootOperation;
use ultrafast_mcp::McpCoreError::ToolError;
use ultrafast_mcp::{
    ListResourcesRequest, ListResourcesResponse, ListToolsRequest, ListToolsResponse, MCPError, MCPResult,
    ReadResourceRequest, ReadResourceResponse, ResourceContent, ResourceHandler, Root, Tool, ToolCall, ToolContent, ToolHandler,
    ToolResult,
};

#[derive(Deserialize)]
struct PathArgs {
    path: String,
}

struct FileTools;

#[async_trait]
impl ToolHandler for FileTools {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        match call.name.as_str() {
            "read_file" => {
                let args: PathArgs = serde_json::from_value(call.arguments.unwrap_or_default())?; //~ tool_failure_as_protocol_error
                let text = std::fs::read_to_string(&args.path)?; //~ tool_failure_as_protocol_error
                Ok(ToolResult { content: vec![ToolContent::text(text)], is_error: Some(false) })
            }
            "file_size" => {
                let args: PathArgs = serde_json::from_value(call.arguments.unwrap_or_default())
                    .map_err(|e| MCPError::internal_error(format!("bad arguments: {e}")))?; //~ tool_failure_as_protocol_error
                let meta = std::fs::metadata(&args.path)
                    .map_err(|e| MCPError::ToolExecution(ToolError::ExecutionFailed(format!("cannot stat {}: {e}", args.path))))?; //~ tool_failure_as_protocol_error
                Ok(ToolResult { content: vec![ToolContent::text(meta.len().to_string())], is_error: Some(false) })
            }
            "delete_file" => {
                let Some(path) = call.arguments.as_ref().and_then(|a| a.get("path")).and_then(|v| v.as_str()) else {
                    return Err(MCPError::internal_error("failed".to_string())); //~ tool_failure_as_protocol_error
                    //~^ vague_error_text
                };
                match std::fs::remove_file(path) {
                    Ok(()) => Ok(ToolResult { content: vec![ToolContent::text(format!("deleted {path}"))], is_error: Some(false) }),
                    // Right: an isError result the model reads.
                    Err(e) => Ok(ToolResult { content: vec![ToolContent::text(format!("cannot delete {path}: {e}"))], is_error: Some(true) }),
                }
            }
            name => Err(MCPError::invalid_params(format!("Unknown tool: {name}"))),
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        let schema = serde_json::json!({ "type": "object", "properties": { "path": { "type": "string" } }, "required": ["path"] });
        Ok(ListToolsResponse {
            tools: ["read_file", "file_size", "delete_file"]
                .iter()
                .map(|name| Tool {
                    name: name.to_string(),
                    description: format!("{name} on a local path"),
                    input_schema: schema.clone(),
                    output_schema: None,
                    annotations: None,
                })
                .collect(),
            next_cursor: None,
        })
    }
}

struct FileResources;

#[async_trait]
impl ResourceHandler for FileResources {
    async fn read_resource(&self, request: ReadResourceRequest) -> MCPResult<ReadResourceResponse> {
        let path = request.uri.strip_prefix("file://").ok_or_else(|| MCPError::not_found(format!("not a file uri: {}", request.uri)))?;
        let text = std::fs::read_to_string(path).map_err(|e| MCPError::internal_error(format!("cannot read {path}: {e}")))?;
        Ok(ReadResourceResponse { contents: vec![ResourceContent::text(request.uri.clone(), text)] })
    }

    async fn list_resources(&self, _request: ListResourcesRequest) -> MCPResult<ListResourcesResponse> {
        Ok(ListResourcesResponse { resources: vec![], next_cursor: None })
    }

    async fn list_resource_templates(&self, _request: ListResourceTemplatesRequest) -> MCPResult<ListResourceTemplatesResponse> {
        Ok(ListResourceTemplatesResponse { resource_templates: vec![], next_cursor: None })
    }

    async fn validate_resource_access(&self, _uri: &str, _operation: RootOperation, _roots: &[Root]) -> MCPResult<()> {
        Ok(())
    }
}
