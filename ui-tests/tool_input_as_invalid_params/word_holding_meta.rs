//@ rmcp = "3.5"
// A message that names the request's `_meta` member speaks of the request's shape (schema level,
// not MCP006); one whose words only contain "_meta" (`include_metadata`) speaks of an argument's
// value: a cross-field rule on the tool's arguments, rejected with -32602 (MCP006).
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ErrorCode},
    tool, tool_router, ErrorData,
};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ListParams {
    format: Option<String>,
    include_metadata: Option<bool>,
}

pub struct Vault;

#[tool_router]
impl Vault {
    #[tool(description = "List the vault")]
    async fn vault_list(&self, Parameters(params): Parameters<ListParams>) -> Result<CallToolResult, ErrorData> {
        let format = params.format.as_deref().unwrap_or("list");
        if format == "tree" && params.include_metadata.unwrap_or(false) {
            return Err(ErrorData::new( //~ tool_input_as_invalid_params
                ErrorCode::INVALID_PARAMS,
                "`include_metadata` is only valid in list mode",
                None,
            ));
        }
        Ok(CallToolResult::success(vec![]))
    }

    #[tool(description = "Echo the request's metadata")]
    async fn echo_meta(&self, Parameters(params): Parameters<serde_json::Value>) -> Result<CallToolResult, ErrorData> {
        if !params.get("_meta").is_some_and(|m| m.is_object()) {
            return Err(ErrorData::new(ErrorCode::INVALID_PARAMS, "`_meta` must be an object", None));
        }
        Ok(CallToolResult::success(vec![]))
    }
}
