//! The MCP request handler: tool dispatch, the workspace README as a resource, and a review prompt.

use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{
    CallToolRequestParams, GetPromptRequestParams, GetPromptResult, ListPromptsResult,
    ListPromptsResultCacheScope, ListResourcesResult, ListResourcesResultCacheScope,
    ListToolsResult, ListToolsResultCacheScope, PaginatedRequestParams, Prompt, PromptArgument,
    PromptMessage, ReadResourceRequestParams, ReadResourceResult, ReadResourceResultCacheScope,
    Resource, Role, RpcError, ServerResult, TextContent, TextResourceContents,
};
use rust_mcp_sdk::{McpServer, RequestContext};

use crate::sandbox::Sandbox;
use crate::tools::WorkspaceTools;

const README_URI: &str = "workspace://README.md";

pub struct WorkspaceHandler {
    sandbox: Arc<Sandbox>,
}

impl WorkspaceHandler {
    pub fn new(sandbox: Arc<Sandbox>) -> Self {
        Self { sandbox }
    }

    async fn git_diff(&self, rev: &str) -> std::io::Result<String> {
        let root = &self.sandbox.roots()[0];
        let out = tokio::process::Command::new("git")
            .arg("-C")
            .arg(root)
            .args(["diff", "--stat", rev])
            .output()
            .await?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
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
        tracing::debug!(tool = %params.name, "tools/call");
        let tool = WorkspaceTools::try_from(params)?;
        let sandbox = &self.sandbox;
        let result = match tool {
            WorkspaceTools::ReadFileTool(t) => t.run_tool(sandbox).await,
            WorkspaceTools::WriteFileTool(t) => t.run_tool(sandbox).await,
            WorkspaceTools::SearchFilesTool(t) => t.run_tool(sandbox).await,
            WorkspaceTools::ListDirectoryTool(t) => t.run_tool(sandbox).await,
            WorkspaceTools::MoveFileTool(t) => t.run_tool(sandbox).await,
            WorkspaceTools::FileInfoTool(t) => t.run_tool(sandbox).await,
        }?;
        Ok(result.into())
    }

    async fn handle_list_resources_request(
        &self,
        _params: Option<PaginatedRequestParams>,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ListResourcesResult, RpcError> {
        Ok(ListResourcesResult {
            cache_scope: ListResourcesResultCacheScope::Private,
            result_type: "complete".to_string(),
            ttl_ms: 0,
            meta: None,
            next_cursor: None,
            resources: vec![Resource {
                annotations: None,
                description: Some("The README of the first workspace root".into()),
                icons: vec![],
                meta: None,
                mime_type: Some("text/markdown".into()),
                name: "readme".into(),
                size: None,
                title: Some("Workspace README".into()),
                uri: README_URI.into(),
            }],
        })
    }

    async fn handle_read_resource_request(
        &self,
        params: ReadResourceRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        if params.uri != README_URI {
            return Err(RpcError::invalid_params()
                .with_message(format!("Resource not found: {}", params.uri))
                .with_data(Some(serde_json::json!({ "uri": params.uri }))));
        }
        let path = self.sandbox.roots()[0].join("README.md");
        let text = match tokio::fs::read_to_string(&path).await {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(RpcError {
                    code: -32002,
                    message: format!("{} has no README.md", path.display()),
                    data: None,
                });
            }
            Err(e) => {
                return Err(RpcError::internal_error()
                    .with_message(format!("cannot read {}: {e}", path.display())))
            }
        };
        Ok(ReadResourceResult {
            cache_scope: ReadResourceResultCacheScope::Private,
            contents: vec![TextResourceContents {
                meta: None,
                mime_type: Some("text/markdown".into()),
                text,
                uri: params.uri,
            }
            .into()],
            meta: None,
            result_type: "complete".to_string(),
            ttl_ms: 0,
        }
        .into())
    }

    async fn handle_list_prompts_request(
        &self,
        _params: Option<PaginatedRequestParams>,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ListPromptsResult, RpcError> {
        Ok(ListPromptsResult {
            cache_scope: ListPromptsResultCacheScope::Private,
            result_type: "complete".to_string(),
            ttl_ms: 0,
            meta: None,
            next_cursor: None,
            prompts: vec![Prompt {
                arguments: vec![PromptArgument {
                    description: Some("Revision to diff against, default HEAD".into()),
                    name: "rev".into(),
                    required: Some(false),
                    title: None,
                }],
                description: Some("Review the uncommitted changes of the workspace".into()),
                icons: vec![],
                meta: None,
                name: "review_changes".into(),
                title: None,
            }],
        })
    }

    async fn handle_get_prompt_request(
        &self,
        params: GetPromptRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        if params.name != "review_changes" {
            return Err(RpcError::invalid_params()
                .with_message(format!("Unknown prompt: {}", params.name)));
        }
        let rev = params
            .arguments
            .as_ref()
            .and_then(|a| a.get("rev").cloned())
            .unwrap_or_else(|| "HEAD".to_string());
        let diff = match self.git_diff(&rev).await {
            Ok(diff) => diff,
            Err(e) => {
                tracing::warn!("git diff {rev} failed: {e}");
                return Err(RpcError::internal_error());
            }
        };
        Ok(GetPromptResult {
            description: Some(format!("Review of the changes since {rev}")),
            messages: vec![PromptMessage {
                content: TextContent::new(
                    format!("Review these changes for bugs and missing tests:\n\n{diff}"),
                    None,
                    None,
                )
                .into(),
                role: Role::User,
            }],
            meta: None,
            result_type: "complete".to_string(),
        }
        .into())
    }
}
