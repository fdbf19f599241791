//@ dep: rust-mcp-sdk = { version = "2.0.0", default-features = false, features = ["server", "macros", "stdio"] }
//@ dep: async-trait = "0.1"
//@ dep: serde = { version = "1", features = ["derive"] }
// rust-mcp-sdk 2.0, a core handler that decodes the request into `tool_box!`'s enum (`let tool =
// Tools::try_from(params).map_err(..)?;`) and matches it: the conversion answered an unknown
// tool, so each arm is the tool its variant holds, and a check of that tool's decoded argument
// there is a value check: -32602 for it is MCP006, an isError result is right.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::mcp_server::ServerHandlerCore;
use rust_mcp_sdk::schema::{
    schema_utils::{CallToolError, NotificationFromClient, RequestFromClient},
    CallToolResult, RpcError, ServerResult, TextContent,
};
use rust_mcp_sdk::{tool_box, McpServer, RequestContext};

#[mcp_tool(name = "git_show", description = "Show one commit")]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct GitShow {
    rev: String,
}

#[mcp_tool(name = "git_log", description = "Show the last commits")]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct GitLog {
    limit: u32,
}

tool_box!(GitTools, [GitShow, GitLog]);

pub struct Git;

#[async_trait]
impl ServerHandlerCore for Git {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => {
                let name = params.name.clone();
                let tool = GitTools::try_from(params).map_err(|_| {
                    RpcError::invalid_params().with_message(format!("Unknown tool: {name}"))
                })?;
                match tool {
                    GitTools::GitShow(t) => {
                        if t.rev.starts_with('-') {
                            return Err(RpcError::invalid_params() //~ tool_input_as_invalid_params
                                .with_message(format!("rev {:?} must not start with '-'", t.rev)));
                        }
                        Ok(CallToolResult::text_content(vec![TextContent::from(t.rev)]).into())
                    }
                    GitTools::GitLog(t) => {
                        if t.limit > 100 {
                            let err = CallToolError::from_message(format!(
                                "limit {} is over 100; ask for at most 100 commits",
                                t.limit
                            ));
                            return Ok(CallToolResult::from(err).into());
                        }
                        Ok(CallToolResult::text_content(vec![TextContent::from(t.limit.to_string())]).into())
                    }
                }
            }
            _ => Err(RpcError::method_not_found()
                .with_message(format!("{} is not supported", request.method()))),
        }
    }

    async fn handle_notification(
        &self,
        _notification: NotificationFromClient,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(
        &self,
        _error: &RpcError,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<(), RpcError> {
        Ok(())
    }
}
