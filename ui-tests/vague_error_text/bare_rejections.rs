//@ rmcp = "1.8"
// Beyond the phrase list: a rejection that names neither the value given nor what would be
// valid ("Invalid upsert mode", "Unknown operation", "Operation not allowed"), or a snake_case code as a protocol
// error's whole message. Naming the value, the valid ones or the rule makes it specific; a rejected
// credential is named without its value on purpose.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Upsert {
    pub mode: String,
    pub operation: String,
    pub format: String,
}

pub struct Store;

#[tool_router]
impl Store {
    #[tool(description = "Upsert a record")]
    async fn upsert(&self, Parameters(args): Parameters<Upsert>) -> Result<CallToolResult, McpError> {
        if args.mode != "append" && args.mode != "replace" {
            return Ok(CallToolResult::error(vec![Content::text("Invalid upsert mode")])); //~ vague_error_text
        }
        if args.operation.is_empty() {
            return Ok(CallToolResult::error(vec![Content::text("Unknown operation.")])); //~ vague_error_text
        }
        if args.format == "xml" {
            return Ok(CallToolResult::error(vec![Content::text("Format not supported")])); //~ vague_error_text
        }
        if args.operation == "drop" {
            return Ok(CallToolResult::error(vec![Content::text("Operation not allowed")])); //~ vague_error_text
        }
        if args.format.contains('/') {
            // A protocol error's message is all the host shows; `data` rarely reaches the model.
            return Err(McpError::invalid_params("invalid_path", Some(json!({ "format": args.format })))); //~ vague_error_text
            //~^ tool_input_as_invalid_params
        }
        Ok(CallToolResult::success(vec![Content::text("upserted")]))
    }

    #[tool(description = "Upsert a record, with messages that say what to change")]
    async fn upsert_specific(&self, Parameters(args): Parameters<Upsert>) -> Result<CallToolResult, McpError> {
        if args.mode != "append" && args.mode != "replace" {
            return Ok(CallToolResult::error(vec![Content::text("Invalid upsert mode: expected append or replace")]));
        }
        if args.operation.is_empty() {
            return Ok(CallToolResult::error(vec![Content::text(format!("Unknown operation {:?}", args.operation))]));
        }
        if args.format == "xml" {
            return Ok(CallToolResult::error(vec![Content::text("Format 'xml' is not supported, use json or csv")]));
        }
        if args.operation == "drop" {
            return Ok(CallToolResult::error(vec![Content::text("Dropping a table not allowed")]));
        }
        if args.operation == "purge" {
            return Ok(CallToolResult::error(vec![Content::text(format!("Operation {:?} is not allowed; use append or replace", args.operation))]));
        }
        if args.format == "secret" {
            return Ok(CallToolResult::error(vec![Content::text("Invalid API key")]));
        }
        if args.format.contains('/') {
            // A code as one member of a result's JSON, beside the details.
            return Ok(CallToolResult::structured_error(json!({ "error": "invalid_path", "got": args.format })));
        }
        Ok(CallToolResult::success(vec![Content::text("upserted")]))
    }
}
