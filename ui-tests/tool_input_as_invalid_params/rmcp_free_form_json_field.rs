//@ rmcp = "1.8"
//@ dep: serde_json = "1"
// A request field typed as any JSON (`params: Option<serde_json::Value>` of a struct deriving
// `JsonSchema`) is written as any value in the input schema rmcp generates: the schema checks
// nothing inside it. A member missing there ("'pattern' is required"), of another JSON type, or
// failing to parse is a rule on the argument's value, also when the read went through a local
// and an `else if let` over the member's type. The same reads of a struct that derives no schema
// (its schema written by hand, where "is required" is the schema's own check) stay schema-level.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content, JsonObject},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RunPluginRequest {
    pub plugin: String,
    /// Plugin options, free-form.
    pub params: Option<serde_json::Value>,
    pub extra: JsonObject,
}

/// Deserialised by hand from the arguments; its schema is written by hand.
#[derive(Debug, Deserialize)]
pub struct RawRequest {
    pub params: Option<serde_json::Value>,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Run a plugin")]
    async fn run_plugin(&self, Parameters(req): Parameters<RunPluginRequest>) -> Result<CallToolResult, McpError> {
        match req.plugin.as_str() {
            "search" => {
                let pattern = req
                    .params
                    .as_ref()
                    .and_then(|p| p.get("pattern"))
                    .and_then(|v| v.as_str())
                    .ok_or_else(|| McpError::invalid_params("'pattern' is required in params", None))? //~ tool_input_as_invalid_params
                    .to_string();
                Ok(CallToolResult::success(vec![Content::text(pattern)]))
            }
            "readraw" => {
                let offset_val = req
                    .params
                    .as_ref()
                    .and_then(|p| p.get("offset"))
                    .ok_or_else(|| McpError::invalid_params("'offset' parameter is required", None))?; //~ tool_input_as_invalid_params
                let offset: u64 = if let Some(n) = offset_val.as_u64() {
                    n
                } else if let Some(s) = offset_val.as_str() {
                    let s = s.trim();
                    if let Some(hex) = s.strip_prefix("0x") {
                        u64::from_str_radix(hex, 16).map_err(|e| {
                            McpError::invalid_params(format!("Invalid hex offset: {}", e), None) //~ tool_input_as_invalid_params
                        })?
                    } else {
                        s.parse::<u64>().map_err(|e| {
                            McpError::invalid_params(format!("Invalid offset: {}", e), None) //~ tool_input_as_invalid_params
                        })?
                    }
                } else {
                    return Err(McpError::invalid_params("'offset' must be a number or hex string", None)); //~ tool_input_as_invalid_params
                };
                Ok(CallToolResult::success(vec![Content::text(offset.to_string())]))
            }
            "tag" => {
                let tag = req
                    .extra
                    .get("tag")
                    .and_then(|v| v.as_str())
                    .ok_or_else(|| McpError::invalid_params("missing required field 'tag'", None))?; //~ tool_input_as_invalid_params
                Ok(CallToolResult::success(vec![Content::text(tag.to_string())]))
            }
            other => Err(McpError::invalid_params(format!("Unknown plugin '{other}'"), None)), //~ tool_input_as_invalid_params
        }
    }

    #[tool(description = "Run a plugin, arguments read by hand")]
    async fn run_raw(&self, Parameters(args): Parameters<JsonObject>) -> Result<CallToolResult, McpError> {
        let req: RawRequest = serde_json::from_value(serde_json::Value::Object(args))
            .map_err(|e| McpError::invalid_params(format!("bad arguments: {e}"), None))?;
        let pattern = req
            .params
            .as_ref()
            .and_then(|p| p.get("pattern"))
            .and_then(|v| v.as_str())
            .ok_or_else(|| McpError::invalid_params("'pattern' is required in params", None))?;
        Ok(CallToolResult::success(vec![Content::text(pattern.to_string())]))
    }
}
