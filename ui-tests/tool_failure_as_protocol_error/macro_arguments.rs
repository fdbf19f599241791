//@ rmcp = "1.8"
// The arguments of `format!`, `vec!` and `json!` are walked as the expressions they are: a `?`
// inside `format!(..)` converts through the crate's `From` impl, a call inside `vec![..]` or
// `json!({..})` is a call. Point-free helpers (`.map_err(to_internal)`, `.map_err(McpError::from)`) build
// the error they name. Text and codes inside an isError result's arguments stay tool text.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;
use serde_json::json;

#[derive(Debug)]
pub struct DbError(String);

impl From<DbError> for McpError {
    fn from(e: DbError) -> Self {
        McpError::internal_error(format!("database: {}", e.0), None) //~ tool_failure_as_protocol_error
    }
}

#[derive(Debug)]
pub struct ParseError(String);

impl From<ParseError> for McpError {
    fn from(e: ParseError) -> Self {
        McpError::internal_error(format!("parse: {}", e.0), None) //~ tool_failure_as_protocol_error
    }
}

fn count_rows(table: &str) -> Result<u64, DbError> {
    Err(DbError(format!("no table {table}")))
}

fn parse_limit(raw: &str) -> Result<u32, ParseError> {
    raw.parse().map_err(|_| ParseError(raw.to_string()))
}

fn owner_of(table: &str) -> Result<String, McpError> {
    Err(McpError::internal_error(format!("no owner recorded for {table}"), None)) //~ tool_failure_as_protocol_error
}

fn to_internal(e: std::io::Error) -> McpError {
    McpError::internal_error(format!("i/o: {e}"), None) //~ tool_failure_as_protocol_error
}

/// Only start-up code uses this one.
fn to_startup_error(e: std::io::Error) -> McpError {
    McpError::internal_error(format!("start-up i/o: {e}"), None)
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Table {
    pub table: String,
    pub limit: String,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Describe a table")]
    async fn describe(&self, Parameters(args): Parameters<Table>) -> Result<CallToolResult, McpError> {
        let text = format!("{} has {} rows", args.table, count_rows(&args.table)?);
        let body = json!({ "owner": owner_of(&args.table)?, "text": text });
        Ok(CallToolResult::success(vec![Content::text(body.to_string())]))
    }

    #[tool(description = "Read a table's dump")]
    async fn dump(&self, Parameters(args): Parameters<Table>) -> Result<CallToolResult, McpError> {
        let bytes = tokio::fs::read(&args.table).await.map_err(to_internal)?;
        let limit = parse_limit(&args.limit).map_err(McpError::from)?;
        Ok(CallToolResult::success(vec![Content::text(format!("{} bytes, limit {limit}", bytes.len()))]))
    }

    #[tool(description = "Check a table")]
    async fn check(&self, Parameters(args): Parameters<Table>) -> Result<CallToolResult, McpError> {
        if args.table.is_empty() {
            return Ok(CallToolResult::error(vec![Content::text(format!("error {}: name a table", -32001))]));
        }
        Ok(CallToolResult::success(vec![]))
    }
}

pub async fn start() -> Result<(), McpError> {
    tokio::fs::create_dir_all("/var/lib/app").await.map_err(to_startup_error)?;
    Ok(())
}
