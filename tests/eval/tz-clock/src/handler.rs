use std::sync::{Arc, Mutex};

use chrono_tz::Tz;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};

use crate::zones::parse_tz;
use crate::{prompts, tools, McpError};

#[derive(Clone)]
pub struct Clock {
    home: Tz,
    calls: Arc<Mutex<u64>>,
}

impl Clock {
    pub fn new(home: &str) -> Result<Self, String> {
        Ok(Self {
            home: parse_tz(home)?,
            calls: Arc::new(Mutex::new(0)),
        })
    }

    fn count_call(&self) -> Result<u64, McpError> {
        let mut calls = self.calls.lock().map_err(|e| {
            McpError::internal_error(format!("call counter lock poisoned: {e}"), None)
        })?;
        *calls += 1;
        Ok(*calls)
    }
}

impl ServerHandler for Clock {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            capabilities: ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .build(),
            server_info: Implementation::from_build_env(),
            instructions: Some(format!(
                "Time-zone tools. The server's home zone is {}.",
                self.home
            )),
            ..Default::default()
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParam>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult {
            tools: tools::definitions(),
            ..Default::default()
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let n = self.count_call()?;
        tracing::debug!(call = n, tool = %request.name, "tools/call");
        let Some(args) = request.arguments.as_ref() else {
            return Err(McpError::invalid_params(
                format!("tool {} requires an arguments object", request.name),
                None,
            ));
        };
        match request.name.as_ref() {
            "now" => tools::now(args),
            "convert" => tools::convert(args),
            "overlap" => {
                let args = args.clone();
                tokio::task::spawn_blocking(move || tools::overlap(&args))
                    .await
                    .map_err(|e| {
                        McpError::internal_error(format!("overlap worker failed: {e}"), None)
                    })?
            }
            other => Err(McpError::invalid_params(
                format!("Unknown tool: {other}"),
                Some(serde_json::json!({ "tool": other })),
            )),
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParam>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(ListPromptsResult {
            prompts: prompts::list(),
            ..Default::default()
        })
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, McpError> {
        prompts::get(&request.name, request.arguments)
    }

    async fn set_level(
        &self,
        _request: SetLevelRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        Err(McpError::method_not_found::<SetLevelRequestMethod>())
    }
}
