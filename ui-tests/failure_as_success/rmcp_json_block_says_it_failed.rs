//@ rmcp = "1.8"
// A success result whose one content block is a JSON value that says it failed
// (`{"success": false, "error": ..}`), returned early, is a failure answered as success, however
// the value is wrapped: `Content::json(json!(..))?`, `Content::text(json!(..).to_string())`,
// `Content::text(serde_json::to_string(&json!(..)).unwrap())`. The same JSON as a tool's final
// answer may be its data, and `{"error": null}` or `{"success": true}` says nothing failed.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Write {
    pub category: String,
    pub text: String,
}

pub struct Memory {
    writable: Vec<String>,
}

#[tool_router]
impl Memory {
    #[tool(description = "Write a memory")]
    async fn write(&self, Parameters(w): Parameters<Write>) -> Result<CallToolResult, McpError> {
        if !self.writable.contains(&w.category) {
            return Ok(CallToolResult::success(vec![Content::json(json!({ //~ failure_as_success
                "success": false,
                "error": format!("category '{}' is read-only", w.category),
            }))
            .map_err(|e| McpError::internal_error(e.to_string(), None))?]));
        }
        Ok(CallToolResult::success(vec![Content::text(format!("wrote {}", w.text))]))
    }

    #[tool(description = "Append to a memory")]
    async fn append(&self, Parameters(w): Parameters<Write>) -> Result<CallToolResult, McpError> {
        if w.text.is_empty() {
            return Ok(CallToolResult::success(vec![Content::text( //~ failure_as_success
                serde_json::json!({ "success": false, "error": "text must not be empty" }).to_string(),
            )]));
        }
        if w.category.is_empty() {
            return Ok(CallToolResult::success(vec![Content::text( //~ failure_as_success
                serde_json::to_string(&json!({ "error": "category must not be empty" })).unwrap(),
            )]));
        }
        if w.category == "scratch" {
            // Nothing to do, and nothing failed.
            return Ok(CallToolResult::success(vec![Content::text(
                json!({ "success": true, "error": null }).to_string(),
            )]));
        }
        Ok(CallToolResult::success(vec![Content::text(format!("appended {}", w.text))]))
    }

    #[tool(description = "Check a memory's text against the style rules")]
    async fn check(&self, Parameters(w): Parameters<Write>) -> Result<CallToolResult, McpError> {
        // The check ran: its verdict is the answer, whatever it says.
        let ok = !w.text.contains("TODO");
        Ok(CallToolResult::success(vec![Content::text(
            json!({ "success": ok, "error": "contains TODO" }).to_string(),
        )]))
    }
}
