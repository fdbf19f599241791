//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// rust-mcp-sdk: the handler copies the tool's name into a local (`let tool_name =
// params.name.clone()`) and hands it to a registry helper, here inside an instrumented `async`
// block; the helper's lookup miss answers the name no tool has with
// `CallToolError::unknown_tool(..)`, an isError result (MCP007). A local that does not come from
// the request (`let motd = ..`) hands no tool name on: the helper it reaches picks no tool.
use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::ServerHandler,
    schema::{schema_utils::CallToolError, CallToolRequestParams, CallToolResult, TextContent},
    McpServer,
};

pub trait Tool: Send + Sync {
    fn run(&self, arguments: serde_json::Value) -> Result<CallToolResult, CallToolError>;
}

pub struct Registry {
    tools: HashMap<String, Box<dyn Tool>>,
    notes: HashMap<String, String>,
}

impl Registry {
    pub async fn execute_tool(
        &self,
        name: &str,
        arguments: serde_json::Value,
    ) -> Result<CallToolResult, CallToolError> {
        match self.tools.get(name) {
            Some(tool) => tool.run(arguments),
            None => Err(CallToolError::unknown_tool(name.to_string())), //~ unknown_tool_as_tool_error
        }
    }

    pub fn note(&self, key: &str) -> Result<String, CallToolError> {
        match self.notes.get(key) {
            Some(n) => Ok(n.clone()),
            None => Err(CallToolError::from_message(format!("no note {key}"))),
        }
    }
}

pub struct Handler {
    registry: Registry,
}

#[async_trait]
impl ServerHandler for Handler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<CallToolResult, CallToolError> {
        let tool_name = params.name.clone();
        let motd = String::from("motd");
        let banner = self.registry.note(&motd)?;
        async {
            let arguments = params
                .arguments
                .map_or_else(|| serde_json::Value::Null, serde_json::Value::Object);
            let mut result = self.registry.execute_tool(&tool_name, arguments).await?;
            result.content.push(TextContent::from(banner).into());
            Ok(result)
        }
        .await
    }
}
