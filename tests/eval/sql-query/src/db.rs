//! A thin blocking wrapper around one SQLite connection.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use rusqlite::{types::ValueRef, Connection, OpenFlags};

use crate::consts::SQLITE_BUSY;

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("connection mutex poisoned")]
    Poisoned,
}

impl DbError {
    pub fn is_busy(&self) -> bool {
        matches!(self, DbError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) if e.extended_code & 0xff == SQLITE_BUSY)
    }
}

pub struct QueryOutput {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub truncated: bool,
}

impl QueryOutput {
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "| {} |", self.columns.join(" | "));
        let _ = writeln!(out, "|{}", "---|".repeat(self.columns.len()));
        for row in &self.rows {
            let _ = writeln!(out, "| {} |", row.join(" | "));
        }
        if self.truncated {
            let _ = writeln!(out, "\n(truncated; add LIMIT or narrow the WHERE clause)");
        }
        out
    }
}

#[derive(Clone)]
pub struct Db {
    conn: Arc<Mutex<Connection>>,
}

fn cell(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => "NULL".into(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) => f.to_string(),
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Blob(b) => format!("<{} bytes>", b.len()),
    }
}

impl Db {
    pub fn open(path: &str) -> anyhow::Result<Self> {
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        Ok(Self {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    pub fn query(&self, sql: &str, limit: usize) -> Result<QueryOutput, DbError> {
        let conn = self.conn.lock().map_err(|_| DbError::Poisoned)?;
        let mut stmt = conn.prepare(sql)?;
        let columns: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
        let mut rows = stmt.query([])?;
        let mut out = Vec::new();
        let mut truncated = false;
        while let Some(row) = rows.next()? {
            if out.len() == limit {
                truncated = true;
                break;
            }
            let cells = (0..columns.len())
                .map(|i| row.get_ref(i).map(cell))
                .collect::<Result<Vec<_>, _>>()?;
            out.push(cells);
        }
        Ok(QueryOutput {
            columns,
            rows: out,
            truncated,
        })
    }

    pub fn tables(&self) -> Result<Vec<String>, DbError> {
        let conn = self.conn.lock().map_err(|_| DbError::Poisoned)?;
        let mut stmt =
            conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")?;
        let names = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(names)
    }

    pub fn schema(&self, table: &str) -> Result<Option<String>, DbError> {
        let conn = self.conn.lock().map_err(|_| DbError::Poisoned)?;
        let mut stmt =
            conn.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1")?;
        let mut rows = stmt.query([table])?;
        Ok(match rows.next()? {
            Some(row) => Some(row.get(0)?),
            None => None,
        })
    }
}

pub fn is_read_only(sql: &str) -> bool {
    let first = sql
        .trim_start()
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    matches!(
        first.as_str(),
        "SELECT" | "WITH" | "EXPLAIN" | "PRAGMA" | "VALUES"
    ) && !sql.contains(';')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_are_not_read_only() {
        assert!(is_read_only("select * from t"));
        assert!(!is_read_only("DELETE FROM t"));
        assert!(!is_read_only("select 1; drop table t"));
    }
}
