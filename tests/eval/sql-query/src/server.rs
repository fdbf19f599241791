use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::Parameters;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{schemars, tool, tool_handler, tool_router, RoleServer, ServerHandler};
use serde::Deserialize;
use serde_json::json;

use crate::consts::{
    MAX_OUTPUT_CHARS, MAX_ROWS, QUERY_TIMEOUT, READ_ONLY_VIOLATION, RESULT_TOO_LARGE,
    STATEMENT_TIMEOUT_MS,
};
use crate::db::{is_read_only, Db, DbError, QueryOutput};
use crate::McpError;

#[derive(Clone)]
pub struct SqlServer {
    db: Db,
    tool_router: ToolRouter<Self>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct QueryArgs {
    /// One read-only SQL statement (SELECT, WITH, EXPLAIN, PRAGMA)
    pub sql: String,
    /// Maximum rows to return (default 100, at most 500)
    pub limit: Option<usize>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct TableArgs {
    /// Table name as listed by list_tables
    pub table: String,
}

impl SqlServer {
    async fn run(&self, sql: String, limit: usize) -> Result<QueryOutput, McpError> {
        let db = self.db.clone();
        let work = tokio::task::spawn_blocking(move || db.query(&sql, limit));
        let joined = tokio::time::timeout(Duration::from_millis(STATEMENT_TIMEOUT_MS), work)
            .await
            .map_err(|_| {
                McpError::new(
                    QUERY_TIMEOUT,
                    format!("query did not finish within {STATEMENT_TIMEOUT_MS} ms"),
                    None,
                )
            })?;
        let result = joined
            .map_err(|e| McpError::internal_error(format!("query worker panicked: {e}"), None))?;
        result.map_err(|e| match e {
            DbError::Poisoned => McpError::internal_error("database connection poisoned", None),
            e => McpError::internal_error(format!("query failed: {e}"), None),
        })
    }
}

#[tool_router]
impl SqlServer {
    pub fn new(db: Db) -> Self {
        Self {
            db,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Run one read-only SQL statement and return the rows as a Markdown table")]
    async fn run_query(
        &self,
        Parameters(QueryArgs { sql, limit }): Parameters<QueryArgs>,
    ) -> Result<CallToolResult, McpError> {
        let sql = sql.trim().to_string();
        if sql.is_empty() {
            return Ok(CallToolResult::error(vec![Content::text(
                "sql is empty; pass a single SELECT statement",
            )]));
        }
        if !is_read_only(&sql) {
            return Err(McpError::new(
                ErrorCode(READ_ONLY_VIOLATION),
                "only one SELECT, WITH, EXPLAIN or PRAGMA statement is allowed",
                None,
            ));
        }
        let limit = limit.unwrap_or(100);
        if limit > MAX_ROWS {
            return Err(McpError::invalid_params(
                format!("limit must be at most {MAX_ROWS}, got {limit}"),
                None,
            ));
        }
        let output = self.run(sql, limit).await?;
        let text = output.to_markdown();
        if text.len() > MAX_OUTPUT_CHARS {
            return Err(McpError::new(
                ErrorCode(RESULT_TOO_LARGE),
                format!(
                    "result is {} characters; select fewer columns or rows",
                    text.len()
                ),
                None,
            ));
        }
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "List the tables in the database")]
    async fn list_tables(&self) -> Result<CallToolResult, McpError> {
        let db = self.db.clone();
        let tables = tokio::task::spawn_blocking(move || db.tables())
            .await
            .map_err(|e| McpError::internal_error(format!("worker panicked: {e}"), None))?
            .map_err(|e| McpError::internal_error(format!("could not list tables: {e}"), None))?;
        if tables.is_empty() {
            return Ok(CallToolResult::success(vec![Content::text(
                "The database has no tables.",
            )]));
        }
        Ok(CallToolResult::success(vec![Content::text(
            tables.join("\n"),
        )]))
    }

    #[tool(description = "Show the CREATE TABLE statement of a table")]
    async fn describe_table(
        &self,
        Parameters(TableArgs { table }): Parameters<TableArgs>,
    ) -> Result<CallToolResult, McpError> {
        let db = self.db.clone();
        let name = table.clone();
        let schema = tokio::task::spawn_blocking(move || db.schema(&name))
            .await
            .map_err(|e| McpError::internal_error(format!("worker panicked: {e}"), None))?;
        match schema {
            Ok(Some(sql)) => Ok(CallToolResult::success(vec![Content::text(sql)])),
            Ok(None) => Ok(CallToolResult {
                content: vec![Content::text(format!(
                    "no table named {table:?}; call list_tables to see the available tables"
                ))],
                is_error: Some(true),
            }),
            Err(e) if e.is_busy() => Ok(CallToolResult::error(vec![Content::text(
                "the database is busy (locked by another writer); retry in a moment",
            )])),
            Err(_) => Err(McpError::internal_error("Internal error", None)),
        }
    }

    #[tool(description = "Show SQLite's query plan for a statement")]
    async fn explain_query(
        &self,
        Parameters(QueryArgs { sql, .. }): Parameters<QueryArgs>,
    ) -> Result<CallToolResult, McpError> {
        if !is_read_only(&sql) {
            return Ok(CallToolResult::error(vec![Content::text(
                "EXPLAIN only accepts read-only statements (SELECT, WITH, VALUES)",
            )]));
        }
        match self
            .run(format!("EXPLAIN QUERY PLAN {sql}"), MAX_ROWS)
            .await
        {
            Ok(plan) => Ok(CallToolResult::success(vec![Content::text(
                plan.to_markdown(),
            )])),
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!(
                "EXPLAIN failed: {}",
                e.message
            ))])),
        }
    }
}

#[tool_handler]
impl ServerHandler for SqlServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            protocol_version: ProtocolVersion::V_2025_03_26,
            capabilities: ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
            server_info: Implementation::from_build_env(),
            instructions: Some(
                "Read-only SQLite access. Each table is also a resource sqlite://table/<name>."
                    .into(),
            ),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParam>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let db = self.db.clone();
        let tables = tokio::task::spawn_blocking(move || db.tables())
            .await
            .map_err(|e| McpError::internal_error(format!("worker panicked: {e}"), None))?
            .map_err(|e| McpError::internal_error(format!("could not list tables: {e}"), None))?;
        let resources = tables
            .into_iter()
            .map(|t| RawResource::new(format!("sqlite://table/{t}"), t).no_annotation())
            .collect();
        Ok(ListResourcesResult {
            resources,
            next_cursor: None,
        })
    }

    async fn read_resource(
        &self,
        ReadResourceRequestParam { uri }: ReadResourceRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let Some(table) = uri.strip_prefix("sqlite://table/") else {
            return Err(McpError::invalid_params(
                format!("unsupported resource uri {uri}; expected sqlite://table/<name>"),
                Some(json!({ "uri": uri })),
            ));
        };
        let db = self.db.clone();
        let name = table.to_string();
        let schema = tokio::task::spawn_blocking(move || db.schema(&name))
            .await
            .map_err(|e| McpError::internal_error(format!("worker panicked: {e}"), None))?
            .map_err(|e| McpError::internal_error(format!("could not read schema: {e}"), None))?;
        match schema {
            Some(sql) => Ok(ReadResourceResult {
                contents: vec![ResourceContents::text(sql, uri)],
            }),
            None => Err(McpError::resource_not_found(
                format!("no table named {table}"),
                Some(json!({ "uri": uri })),
            )),
        }
    }
}
