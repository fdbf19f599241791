//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
// rust-mcp-sdk 2.x: a `CallToolError` from `handle_call_tool_request` becomes an isError result
// whose only text block is `err.to_string()`, so `CallToolError::from_message("")` (or an empty
// `String`) is an isError result with nothing to read; so are the struct literal with an empty
// `content` and `is_error: Some(true)` (2.x adds `result_type`) and a blank `TextContent`. A
// success with no content, and an error carrying the I/O error's text, are not this lint.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::ServerHandler,
    schema::{
        schema_utils::CallToolError, CallToolRequestParams, CallToolResult, ContentBlock, ServerResult, TextContent,
    },
    McpServer, RequestContext,
};

pub struct Clipboard {
    entries: std::sync::Mutex<Vec<String>>,
}

#[async_trait]
impl ServerHandler for Clipboard {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, CallToolError> {
        let args = params.arguments.clone().unwrap_or_default();
        match params.name.as_str() {
            "copy" => {
                let Some(text) = args.get("text").and_then(|v| v.as_str()) else {
                    return Err(CallToolError::from_message("")); //~ empty_error_content
                };
                let mut entries = self.entries.lock().map_err(|_| CallToolError::from_message("clipboard lock poisoned"))?;
                if entries.len() >= 100 {
                    return Err(CallToolError::from_message(String::new())); //~ empty_error_content
                }
                entries.push(text.to_string());
                Ok(CallToolResult::text_content(vec![TextContent::from(format!("copied {} chars", text.len()))]).into())
            }
            "paste" => {
                let index = args.get("index").and_then(|v| v.as_u64()).unwrap_or(0) as usize;
                let entries = self.entries.lock().map_err(|_| CallToolError::from_message("clipboard lock poisoned"))?;
                match entries.get(index) {
                    Some(text) => Ok(CallToolResult::text_content(vec![TextContent::from(text.clone())]).into()),
                    None => Ok(CallToolResult { //~ empty_error_content
                        content: vec![],
                        is_error: Some(true),
                        meta: None,
                        structured_content: None,
                        result_type: "complete".to_string(),
                    }
                    .into()),
                }
            }
            "clear" => {
                let mut entries = self.entries.lock().map_err(|_| CallToolError::from_message("clipboard lock poisoned"))?;
                if entries.is_empty() {
                    return Ok(CallToolResult { //~ empty_error_content
                        content: vec![ContentBlock::TextContent(TextContent::new("   ".to_string(), None, None))],
                        is_error: Some(true),
                        meta: None,
                        structured_content: None,
                        result_type: "complete".to_string(),
                    }
                    .into());
                }
                entries.clear();
                // A success with no content is not an error result.
                Ok(CallToolResult::text_content(vec![]).into())
            }
            "save" => {
                let path = args.get("path").and_then(|v| v.as_str()).unwrap_or("clipboard.txt");
                let entries = self.entries.lock().map_err(|_| CallToolError::from_message("clipboard lock poisoned"))?;
                std::fs::write(path, entries.join("\n")).map_err(CallToolError::new)?;
                Ok(CallToolResult::text_content(vec![TextContent::from(format!("saved to {path}"))]).into())
            }
            other => Err(CallToolError::unknown_tool(other.to_string())), //~ unknown_tool_as_tool_error
        }
    }
}
