//@ rmcp = "1.8"
// Not empty, or not a server's tool result: `structured_error(..)` always carries the JSON as
// text; an empty *success* is a tool that has nothing to say; a client or gateway that builds
// `CallToolResult::error(vec![])` from a remote response is not answering a tool call of its own;
// tests assert on empty results freely.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct TaskArgs {
    pub title: String,
}

#[derive(Clone)]
pub struct Todo {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Todo {
    #[tool(description = "Add a task")]
    async fn add(&self, Parameters(TaskArgs { title }): Parameters<TaskArgs>) -> Result<CallToolResult, McpError> {
        if title.len() > 200 {
            return Ok(CallToolResult::structured_error(json!({
                "error": "title_too_long",
                "max": 200,
                "got": title.len(),
            })));
        }
        if title.trim().is_empty() {
            return Ok(CallToolResult::error(vec![Content::text("a task needs a non-blank title")]));
        }
        Ok(CallToolResult::success(vec![]))
    }
}

#[tool_handler]
impl ServerHandler for Todo {}

/// Gateway side: turning a remote server's reply into a result for the local client. Not tool
/// context (no tool or dispatcher calls it).
pub fn from_remote(reply: Option<serde_json::Value>) -> CallToolResult {
    match reply {
        Some(v) => CallToolResult::success(vec![Content::text(v.to_string())]),
        None => CallToolResult::error(vec![]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_remote_reply_is_an_error() {
        assert_eq!(from_remote(None), CallToolResult::error(vec![]));
        assert_eq!(CallToolResult::error(Vec::new()).is_error, Some(true));
    }
}
