//@ rmcp = "1.8"
// "X is required for action=Y": a field the request type declares `Option<..>` is optional in
// the input schema rmcp generates from it (schemars), so a request without it matched the
// schema and the check is a rule on argument values, whatever its message says. The same
// words on a JSON object's `get` or on a struct that derives no schema stay schema-level. The
// same rule in a match arm's guard (`"note" if req.content.is_none() => ..`, also with
// `is_none_or(..)`) is the `if` form.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content, JsonObject},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct MemoryRequest {
    pub action: String,
    pub content: Option<String>,
    pub id: Option<String>,
    pub query: Option<String>,
    pub tag: Option<String>,
    pub mode: Option<String>,
}

/// Deserialised by hand from the arguments; its schema is written by hand, not generated.
#[derive(Debug, Deserialize)]
pub struct RawRequest {
    pub content: Option<String>,
}

pub struct Memory;

#[tool_router]
impl Memory {
    #[tool(description = "Store or update a memory")]
    async fn memory(&self, Parameters(req): Parameters<MemoryRequest>) -> Result<CallToolResult, McpError> {
        match req.action.as_str() {
            "store" => {
                let content = req.content.as_deref().ok_or_else(|| {
                    McpError::invalid_params("content is required for action=store", None) //~ tool_input_as_invalid_params
                })?;
                Ok(CallToolResult::success(vec![Content::text(format!("stored {content}"))]))
            }
            "update" => {
                let Some(id) = &req.id else {
                    return Err(McpError::invalid_params("id is required for action=update", None)); //~ tool_input_as_invalid_params
                };
                Ok(CallToolResult::success(vec![Content::text(format!("updated {id}"))]))
            }
            _ => Err(McpError::invalid_params(format!("unknown action {}, expected store or update", req.action), None)), //~ tool_input_as_invalid_params
        }
    }

    #[tool(description = "Search memories")]
    async fn search(&self, Parameters(req): Parameters<MemoryRequest>) -> Result<CallToolResult, McpError> {
        if req.query.is_none() && req.tag.is_none() {
            return Err(McpError::invalid_params("query or tag is required", None)); //~ tool_input_as_invalid_params
        }
        let mode = match &req.mode {
            Some(mode) => mode.clone(),
            None => return Err(McpError::invalid_params("mode is required when a tag is given", None)), //~ tool_input_as_invalid_params
        };
        Ok(CallToolResult::success(vec![Content::text(mode)]))
    }

    #[tool(description = "Tag a memory")]
    async fn tag(&self, Parameters(MemoryRequest { id, tag, .. }): Parameters<MemoryRequest>) -> Result<CallToolResult, McpError> {
        let Some(id) = id else {
            return Err(McpError::invalid_params("id is required to tag a memory", None)); //~ tool_input_as_invalid_params
        };
        let tag = tag.ok_or_else(|| McpError::invalid_params("tag is required", None))?; //~ tool_input_as_invalid_params
        Ok(CallToolResult::success(vec![Content::text(format!("tagged {id} with {tag}"))]))
    }

    #[tool(description = "Tag a memory, with the argument parsed again")]
    async fn retag(&self, Parameters(MemoryRequest { tag, .. }): Parameters<MemoryRequest>) -> Result<CallToolResult, McpError> {
        // `tag` is rebound: the check below is on another value than the request's field.
        let tag: Option<String> = tag.filter(|t| !t.is_empty());
        let Some(tag) = tag else {
            return Err(McpError::invalid_params("tag is required", None));
        };
        Ok(CallToolResult::success(vec![Content::text(tag)]))
    }

    #[tool(description = "Store raw JSON")]
    async fn raw(&self, Parameters(args): Parameters<JsonObject>) -> Result<CallToolResult, McpError> {
        let Some(content) = args.get("content").and_then(|v| v.as_str()) else {
            return Err(McpError::invalid_params("content is required", None));
        };
        let raw: RawRequest = serde_json::from_value(serde_json::Value::Object(args.clone()))
            .map_err(|e| McpError::invalid_params(format!("bad arguments: {e}"), None))?;
        let Some(again) = raw.content else {
            return Err(McpError::invalid_params("content is required", None));
        };
        Ok(CallToolResult::success(vec![Content::text(format!("{content}{again}"))]))
    }

    #[tool(description = "Remember, per mode; the rule sits in a match arm's guard")]
    async fn remember(&self, Parameters(req): Parameters<MemoryRequest>) -> Result<CallToolResult, McpError> {
        match req.mode.as_deref().unwrap_or("note") {
            "note" if req.content.is_none() || req.tag.is_none() => {
                return Err(McpError::invalid_params("content and tag are required for mode \"note\"", None)); //~ tool_input_as_invalid_params
            }
            "search" if req.query.as_ref().is_none_or(|q| q.is_empty()) => {
                return Err(McpError::invalid_params("query is required for mode \"search\"", None)); //~ tool_input_as_invalid_params
            }
            _ => {}
        }
        Ok(CallToolResult::success(vec![Content::text(req.action)]))
    }
}
