//! The MCP surface: tools over the database, the schema as resources, a query-drafting prompt.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use turbomcp::prelude::*;
use turbomcp_core::error::ErrorKind;

use crate::db;

const MAX_ROWS: usize = 500;
const CURSOR_TTL: Duration = Duration::from_secs(15 * 60);

struct Cursor {
    sql: String,
    offset: usize,
    page_size: usize,
    opened: Instant,
}

#[derive(Clone)]
pub struct SqliteExplorer {
    conn: Arc<Mutex<Connection>>,
    path: String,
    read_only: bool,
    cursors: Arc<tokio::sync::Mutex<HashMap<String, Cursor>>>,
}

impl SqliteExplorer {
    pub fn open(path: &str, read_only: bool) -> rusqlite::Result<Self> {
        Ok(Self {
            conn: Arc::new(Mutex::new(db::open(path, read_only)?)),
            path: path.to_string(),
            read_only,
            cursors: Arc::default(),
        })
    }

    fn with_conn<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> McpResult<T> {
        let conn = self
            .conn
            .lock()
            .map_err(|_| McpError::internal("database connection lock poisoned"))?;
        f(&conn).map_err(|e| McpError::internal(format!("SQLite: {e}")))
    }
}

#[server(name = "sqlite-explorer", version = "0.9.1")]
impl SqliteExplorer {
    /// List the tables of the database
    #[tool(read_only)]
    async fn list_tables(&self) -> McpResult<String> {
        let tables = self.with_conn(db::table_names)?;
        if tables.is_empty() {
            return Ok(format!("{} has no tables", self.path));
        }
        Ok(tables.join("\n"))
    }

    /// Run a read-only SQL query and return up to `limit` rows (default 100)
    #[tool(read_only)]
    async fn query(&self, sql: String, limit: Option<usize>) -> McpResult<String> {
        if self.read_only && !db::is_read_only_statement(&sql) {
            return Err(McpError::invalid_params(
                "only SELECT, WITH and EXPLAIN statements run on a read-only database",
            ));
        }
        let limit = limit.unwrap_or(100);
        if limit == 0 || limit > MAX_ROWS {
            return Err(McpError::invalid_params(format!(
                "limit must be between 1 and {MAX_ROWS}, got {limit}"
            )));
        }
        let (text, n) = self.with_conn(|c| db::render_rows(c, &sql, limit))?;
        Ok(format!("{text}\n({n} rows)"))
    }

    /// Run a statement that changes the database (INSERT, UPDATE, DELETE, DDL)
    #[tool(destructive)]
    async fn execute(&self, sql: String) -> McpResult<String> {
        if self.read_only {
            return Err(McpError::permission_denied("Operation failed"));
        }
        let changed = self.with_conn(|c| c.execute(&sql, []))?;
        Ok(format!("{changed} rows changed"))
    }

    /// Columns, types and constraints of a table
    #[tool(read_only)]
    async fn describe_table(&self, table: String) -> McpResult<String> {
        let tables = self.with_conn(db::table_names)?;
        if !tables.contains(&table) {
            return Err(McpError::invalid_params(format!(
                "no table named `{table}`; tables: {}",
                tables.join(", ")
            )));
        }
        let pragma = format!("PRAGMA table_info(\"{}\")", table.replace('"', "\"\""));
        let (text, _) = self.with_conn(|c| db::render_rows(c, &pragma, 1000))?;
        Ok(text)
    }

    /// Show SQLite's query plan for a statement
    #[tool(read_only)]
    async fn explain(&self, sql: String) -> McpResult<String> {
        let plan_sql = format!("EXPLAIN QUERY PLAN {sql}");
        match self.with_conn(|c| db::render_rows(c, &plan_sql, 200)) {
            Ok((plan, _)) => Ok(plan),
            Err(e) => Ok(format!("could not explain the query: {e}")),
        }
    }

    /// Open a server-side cursor over a SELECT; page through it with fetch
    #[tool(read_only)]
    async fn open_cursor(&self, sql: String, page_size: Option<usize>) -> McpResult<String> {
        if !db::is_read_only_statement(&sql) {
            return Err(McpError::invalid_params(
                "cursors are for SELECT statements only; run other statements with execute",
            ));
        }
        let id = format!("cur_{}", uuid::Uuid::new_v4().simple());
        let cursor = Cursor {
            sql,
            offset: 0,
            page_size: page_size.unwrap_or(50).clamp(1, MAX_ROWS),
            opened: Instant::now(),
        };
        self.cursors.lock().await.insert(id.clone(), cursor);
        Ok(id)
    }

    /// Fetch the next page of a cursor opened with open_cursor
    #[tool(read_only)]
    async fn fetch(&self, cursor: String) -> McpResult<ToolResult> {
        let mut cursors = self.cursors.lock().await;
        let expired = match cursors.get(&cursor) {
            Some(cur) => cur.opened.elapsed() > CURSOR_TTL,
            None => return Ok(ToolResult::text(format!("cursor {cursor} not found"))),
        };
        if expired {
            cursors.remove(&cursor);
            return Ok(ToolResult::error(format!(
                "cursor {cursor} expired after {} minutes; call open_cursor again",
                CURSOR_TTL.as_secs() / 60
            )));
        }
        let cur = cursors.get_mut(&cursor).expect("checked above");
        let sql = format!(
            "SELECT * FROM ({}) LIMIT {} OFFSET {}",
            cur.sql, cur.page_size, cur.offset
        );
        let (text, n) = self.with_conn(|c| db::render_rows(c, &sql, cur.page_size))?;
        cur.offset += n;
        if n == 0 {
            return Ok(ToolResult::text("no more rows; close the cursor with close_cursor"));
        }
        Ok(ToolResult::text(text))
    }

    /// Close a cursor
    #[tool]
    async fn close_cursor(&self, cursor: String) -> McpResult<String> {
        match self.cursors.lock().await.remove(&cursor) {
            Some(_) => Ok(format!("closed {cursor}")),
            None => Err(McpError::invalid_params(format!(
                "cursor {cursor} has expired or was already closed"
            ))),
        }
    }

    /// Rebuild the database file to reclaim free pages
    #[tool(destructive)]
    async fn vacuum(&self) -> McpResult<String> {
        if self.read_only {
            return Err(McpError::permission_denied(
                "VACUUM needs a read-write server (start it with --read-write)",
            ));
        }
        let conn = self
            .conn
            .lock()
            .map_err(|_| McpError::internal("database connection lock poisoned"))?;
        conn.execute_batch("VACUUM")
            .map_err(|_| McpError::internal(String::new()))?;
        Ok("vacuumed".to_string())
    }

    /// Write the result of a query to a CSV file
    #[tool]
    async fn export_csv(&self, sql: String, path: String) -> McpResult<String> {
        let result = self.with_conn(|c| db::render_rows(c, &sql, usize::MAX));
        let (text, n) = match result {
            Ok(rows) => rows,
            Err(e) if e.message.contains("database is locked") => {
                return Err(McpError::new(
                    ErrorKind::Timeout,
                    "the database stayed locked for 2 s; retry the export",
                ))
            }
            Err(e) => return Err(e),
        };
        std::fs::write(&path, text.replace('\t', ","))?;
        Ok(format!("wrote {n} rows to {path}"))
    }

    /// The database schema as CREATE statements
    #[resource("sqlite://schema", mime_type = "text/plain")]
    async fn schema(&self, uri: String, ctx: &RequestContext) -> McpResult<String> {
        let conn = self.conn.try_lock().map_err(|_| {
            McpError::new(
                ErrorKind::Unavailable,
                "the database is busy with another request; retry shortly",
            )
        })?;
        let mut stmt = conn
            .prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
            .map_err(|e| McpError::internal(format!("reading the schema of {uri}: {e}")))?;
        let statements: Vec<String> = stmt
            .query_map([], |r| r.get(0))
            .and_then(|rows| rows.collect())
            .map_err(|e| McpError::internal(format!("reading the schema: {e}")))?;
        Ok(statements.join(";\n\n"))
    }

    /// The first 100 rows of a table
    #[resource("sqlite://table/{name}", mime_type = "text/tab-separated-values")]
    async fn table(&self, uri: String, ctx: &RequestContext) -> McpResult<String> {
        let name = uri
            .strip_prefix("sqlite://table/")
            .ok_or_else(|| McpError::resource_not_found(&uri))?;
        let tables = self.with_conn(db::table_names)?;
        if !tables.iter().any(|t| t == name) {
            return Err(McpError::resource_not_found(&uri));
        }
        let sql = format!("SELECT * FROM \"{}\" LIMIT 100", name.replace('"', "\"\""));
        let (text, _) = self.with_conn(|c| db::render_rows(c, &sql, 100))?;
        Ok(text)
    }

    /// Draft a SQL query that answers a question, given the schema
    #[prompt]
    async fn draft_query(&self, goal: String, ctx: &RequestContext) -> McpResult<String> {
        let tables = self.with_conn(db::table_names)?;
        if tables.is_empty() {
            return Err(McpError::invalid_params(format!(
                "{} has no tables to query yet",
                self.path
            )));
        }
        Ok(format!(
            "Write one SQLite query for this goal: {goal}\nAvailable tables: {}",
            tables.join(", ")
        ))
    }
}
