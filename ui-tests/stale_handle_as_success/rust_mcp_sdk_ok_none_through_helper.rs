//@ dep: rust-mcp-sdk = "0.8"
//@ dep: async-trait = "0.1"
// A service that answers `Ok(None)` for an id it does not know: the `Ok(None) =>` arm is a lookup
// miss, and its "not found" text, wrapped in a success result by the tool that calls the helper,
// tells the model the call succeeded. Not reported: a miss the text does not call one
// (`Ok(None) => "no notes yet"`).
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::ServerHandler,
    schema::{schema_utils::CallToolError, CallToolRequestParams, CallToolResult, ServerResult},
    McpServer, RequestContext,
};

pub struct Rules;

impl Rules {
    async fn find(&self, id: &str) -> Result<Option<String>, std::io::Error> {
        Ok(std::fs::read_to_string(format!("/etc/rules/{id}")).ok())
    }

    async fn notes(&self, id: &str) -> Result<Option<String>, std::io::Error> {
        Ok(std::fs::read_to_string(format!("/etc/notes/{id}")).ok())
    }

    pub async fn rule(&self, id: &str) -> String {
        match self.find(id).await {
            Ok(Some(text)) => text,
            Ok(None) => format!("Rule not found: {id}"), //~ stale_handle_as_success
            Err(e) => format!("Error: {e:?}"), //~ failure_as_success
        }
    }

    pub async fn rule_notes(&self, id: &str) -> String {
        match self.notes(id).await {
            Ok(Some(text)) => text,
            Ok(None) => "no notes yet".to_string(),
            Err(e) => format!("Error: {e:?}"), //~ failure_as_success
        }
    }
}

pub struct Server {
    rules: Rules,
}

#[async_trait]
impl ServerHandler for Server {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, CallToolError> {
        let args = params.arguments.clone().unwrap_or_default();
        let id = args.get("id").and_then(|v| v.as_str()).unwrap_or_default();
        let text = match params.name.as_str() {
            "rule" => self.rules.rule(id).await,
            "rule_notes" => self.rules.rule_notes(id).await,
            other => return Err(CallToolError::unknown_tool(other.to_string())), //~ unknown_tool_as_tool_error
        };
        Ok(CallToolResult::text_content(vec![text.into()]).into())
    }
}
