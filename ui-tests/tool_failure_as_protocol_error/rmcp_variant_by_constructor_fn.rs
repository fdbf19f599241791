//@ rmcp = "1.8"
// rmcp: a crate constructor fn that ends in one variant (`AppError::invalid(..)`, `fn invalid(..)
// -> Self { AppError::Invalid { .. } }`) builds that variant. `From<AppError> for McpError` is
// also reached by `read_resource`, so each tool `?` is reported with the codes of the variants
// it can carry: the `?` on `parse_day(..)`, which fails only through `invalid`, gets the
// `Invalid` arm's -32602 and not the `Db` arm's -32603; the `?` on `load_entry(..)` gets both.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, Content, ReadResourceRequestParams, ReadResourceResult, ResourceContents,
    },
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug)]
pub enum AppError {
    Invalid { field: &'static str, reason: String },
    Db(String),
}

impl AppError {
    pub fn invalid(field: &'static str, reason: impl Into<String>) -> Self {
        AppError::Invalid {
            field,
            reason: reason.into(),
        }
    }
}

impl From<AppError> for McpError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Invalid { field, reason } => {
                McpError::invalid_params(format!("{field}: {reason}"), None)
            }
            AppError::Db(m) => McpError::internal_error(format!("database: {m}"), None),
        }
    }
}

fn parse_day(field: &'static str, raw: &str) -> Result<u32, AppError> {
    let day: u32 = raw
        .trim()
        .parse()
        .map_err(|e| AppError::invalid(field, format!("{raw:?} is not a day number ({e})")))?;
    Ok(day)
}

/// A calendar entry by day: the store fails with `Db`, a bad day with `Invalid`.
fn load_entry(raw: &str, stored: Option<&str>) -> Result<String, AppError> {
    let day = parse_day("day", raw)?;
    match stored {
        Some(text) => Ok(format!("{day}: {text}")),
        None => Err(AppError::Db(format!("the entry of day {day} could not be read"))),
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct DayArgs {
    pub day: String,
}

#[derive(Clone)]
pub struct Calendar {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Calendar {
    #[tool(description = "Describe a day of the month")]
    async fn day(&self, Parameters(args): Parameters<DayArgs>) -> Result<CallToolResult, McpError> {
        let day = parse_day("day", &args.day)?; //~ tool_input_as_invalid_params
        Ok(CallToolResult::success(vec![Content::text(format!("day {day}"))]))
    }

    #[tool(description = "Read the entry of a day")]
    async fn entry(&self, Parameters(args): Parameters<DayArgs>) -> Result<CallToolResult, McpError> {
        let text = load_entry(&args.day, None)?; //~ tool_input_as_invalid_params
        //~| tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

#[tool_handler]
impl ServerHandler for Calendar {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let text = load_entry(request.uri.trim_start_matches("day://"), Some("free"))?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri.clone())]))
    }
}

fn main() {}
