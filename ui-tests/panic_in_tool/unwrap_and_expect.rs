//@ rmcp = "1.8"
// `panic_in_tool` is allow-by-default (restriction); the harness enables it for this directory.
// `unwrap()` and `expect(..)` in tool context; the span is the method call (so the finding starts
// at its receiver).
use std::sync::{Arc, Mutex};

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ParseArgs {
    pub json: String,
    pub pointer: String,
}

#[derive(Clone)]
pub struct JsonTools {
    history: Arc<Mutex<Vec<String>>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl JsonTools {
    #[tool(description = "Extract a value by JSON pointer")]
    async fn extract(&self, Parameters(ParseArgs { json, pointer }): Parameters<ParseArgs>) -> Result<CallToolResult, McpError> {
        let value: serde_json::Value = serde_json::from_str(&json).unwrap(); //~ panic_in_tool
        let found = value.pointer(&pointer).expect("pointer must exist"); //~ panic_in_tool
        self.history.lock().unwrap().push(pointer.clone()); //~ panic_in_tool
        Ok(CallToolResult::success(vec![Content::text(found.to_string())]))
    }

    #[tool(description = "Pretty-print JSON")]
    async fn pretty(&self, Parameters(ParseArgs { json, .. }): Parameters<ParseArgs>) -> Result<CallToolResult, McpError> {
        // Not panics: `unwrap_or`, `unwrap_or_default`, `?`-style handling.
        let value: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
        let text = serde_json::to_string_pretty(&value).unwrap_or_else(|_| json.clone());
        let count = self.history.lock().map(|h| h.len()).unwrap_or(0);
        Ok(CallToolResult::success(vec![Content::text(format!("{text}\n({count} extractions so far)"))]))
    }
}

#[tool_handler]
impl ServerHandler for JsonTools {}
