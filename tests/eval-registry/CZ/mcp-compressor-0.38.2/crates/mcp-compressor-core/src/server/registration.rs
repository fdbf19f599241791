//! Frontend MCP server registration for compressed wrapper tools.

use std::sync::Arc;

use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode,
    GetPromptRequestParams, GetPromptResponse, Implementation, InitializeResult, ListPromptsResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, Prompt, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResultType, ServerCapabilities, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value};

use crate::server::CompressedServer;

/// Dynamic frontend MCP service that exposes compressed wrapper tools and
/// delegates their calls to [`CompressedServer`].
#[derive(Debug)]
pub struct FrontendServer {
    compressed: Arc<CompressedServer>,
}

impl FrontendServer {
    pub fn new(compressed: CompressedServer) -> Self {
        Self {
            compressed: Arc::new(compressed),
        }
    }

    pub fn from_arc(compressed: Arc<CompressedServer>) -> Self {
        Self { compressed }
    }
}

impl ServerHandler for FrontendServer {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(Implementation::new(
            "mcp-compressor",
            crate::product_version(),
        ))
        .with_instructions("Compressed MCP frontend server")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let tools = self
            .compressed
            .list_frontend_tools()
            .await
            .map_err(mcp_error)?
            .into_iter()
            .map(convert_tool)
            .collect();
        let result = ListToolsResult::with_all_items(tools);
        Ok(if modern_request(&context) {
            result.with_ttl_ms(0).with_cache_scope(CacheScope::Private)
        } else {
            result
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let mut result = self.call_tool_result(request, context).await?;
        result.result_type = Some(ResultType::COMPLETE);
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let resources = self
            .compressed
            .list_resources()
            .await
            .map_err(mcp_error)?
            .into_iter()
            .map(convert_resource)
            .collect();
        let result = ListResourcesResult::with_all_items(resources);
        Ok(if modern_request(&context) {
            result.with_ttl_ms(0).with_cache_scope(CacheScope::Private)
        } else {
            result
        })
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let text = self
            .compressed
            .read_resource(&request.uri)
            .await
            .map_err(mcp_error)?;
        let mut result = ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]);
        result.result_type = Some(ResultType::COMPLETE);
        if modern_request(&context) {
            result = result.with_ttl_ms(0).with_cache_scope(CacheScope::Private);
        }
        Ok(result.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let prompts = self
            .compressed
            .list_prompts()
            .await
            .map_err(mcp_error)?
            .into_iter()
            .map(|name| Prompt::new(name, Option::<String>::None, None))
            .collect();
        let result = ListPromptsResult::with_all_items(prompts);
        Ok(if modern_request(&context) {
            result.with_ttl_ms(0).with_cache_scope(CacheScope::Private)
        } else {
            result
        })
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let mut result = self
            .compressed
            .get_prompt(&request.name, request.arguments)
            .await
            .map_err(mcp_error)?;
        result.result_type = Some(ResultType::COMPLETE);
        Ok(result.into())
    }

    fn get_tool(&self, _name: &str) -> Option<Tool> {
        None
    }
}

impl FrontendServer {
    async fn call_tool_result(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let wrapper_name = request.name.to_string();
        let arguments = request.arguments.unwrap_or_default();
        if wrapper_name.ends_with("invoke_tool") {
            let tool_name = required_string(&arguments, "tool_name")?;
            let tool_input = arguments
                .get("tool_input")
                .cloned()
                .unwrap_or_else(|| Value::Object(Map::new()));
            let full = match arguments.get("full") {
                None | Some(Value::Bool(false)) => false,
                Some(Value::Bool(true)) => true,
                _ => {
                    return Err(McpError::new(
                        ErrorCode::INVALID_PARAMS,
                        "full must be a boolean",
                        None,
                    ))
                }
            };
            return self
                .compressed
                .invoke_tool_result(
                    &wrapper_name,
                    &tool_name,
                    tool_input,
                    Some(context.meta),
                    full,
                )
                .await
                .map_err(mcp_error);
        }

        let output = if wrapper_name.ends_with("get_tool_schema") {
            let tool_name = required_string(&arguments, "tool_name")?;
            self.compressed
                .get_tool_schema(&wrapper_name, &tool_name)
                .await
        } else if wrapper_name.ends_with("list_tools") {
            self.compressed.list_backend_tools(&wrapper_name).await
        } else {
            Err(crate::Error::ToolNotFound(wrapper_name))
        }
        .map_err(mcp_error)?;

        Ok(CallToolResult::success(vec![ContentBlock::text(output)]))
    }
}

fn modern_request(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28)
}

fn convert_tool(tool: crate::compression::engine::Tool) -> Tool {
    let input_schema = match tool.input_schema {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    Tool::new(
        tool.name,
        tool.description.unwrap_or_default(),
        Arc::new(input_schema),
    )
}

fn convert_resource(uri: String) -> Resource {
    Resource::new(uri.clone(), uri)
}

fn required_string(arguments: &Map<String, Value>, name: &str) -> Result<String, McpError> {
    arguments
        .get(name)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| McpError::new(ErrorCode::INVALID_PARAMS, format!("missing {name}"), None))
}

fn mcp_error(error: crate::Error) -> McpError {
    let code = match &error {
        crate::Error::Validation(_) => ErrorCode::INVALID_PARAMS,
        _ => ErrorCode::INTERNAL_ERROR,
    };
    McpError::new(code, error.to_string(), None)
}
