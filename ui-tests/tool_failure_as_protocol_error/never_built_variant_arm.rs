//@ rmcp = "1.8"
//@ dep: thiserror = "1"
// rmcp: an error mapping's arm for a variant of the crate's error enum that no code ever builds
// (`PgError::Internal` here: no `PgError::Internal(..)` anywhere, no `#[from]`) answers no tool
// call: not reported. The arms of the variants the tools do build are. Not affected: an arm of
// an argument enum that serde builds (`#[derive(Deserialize)] enum Mode`), which no code names.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, thiserror::Error)]
pub enum PgError {
    #[error("query failed: {0}")]
    Query(String),
    #[error("internal: {0}")]
    Internal(String),
}

fn map_pg_error(e: PgError) -> McpError {
    match e {
        PgError::Query(q) => McpError::internal_error(format!("query failed: {q}"), None), //~ tool_failure_as_protocol_error
        PgError::Internal(i) => McpError::internal_error(format!("internal error: {i}"), None),
    }
}

/// The driver: which variants it fails with is not in this crate's source.
pub trait Conn: Send + Sync {
    fn exec(&self, sql: &str) -> Result<String, PgError>;
}

fn run_query(conn: &dyn Conn, sql: &str) -> Result<String, PgError> {
    if sql.is_empty() {
        return Err(PgError::Query("the query is empty".to_string()));
    }
    conn.exec(sql)
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub enum Mode {
    Read,
    Write,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct QueryArgs {
    pub sql: String,
    pub mode: Mode,
}

#[derive(Clone)]
pub struct Pg {
    conn: std::sync::Arc<dyn Conn>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Pg {
    #[tool(description = "Run a query")]
    async fn query(&self, Parameters(args): Parameters<QueryArgs>) -> Result<CallToolResult, McpError> {
        let text = match args.mode {
            Mode::Read => run_query(&*self.conn, &args.sql).map_err(map_pg_error)?,
            Mode::Write => return Err(McpError::internal_error("writes are disabled on this server", None)), //~ tool_failure_as_protocol_error
        };
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
