//! Blocking SQLite access, run on the blocking pool.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};

pub fn open(path: &str, read_only: bool) -> rusqlite::Result<Connection> {
    let flags = if read_only {
        OpenFlags::SQLITE_OPEN_READ_ONLY
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
    };
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(std::time::Duration::from_secs(2))?;
    Ok(conn)
}

/// Run a query and render at most `limit` rows as tab-separated text with a header line.
pub fn render_rows(conn: &Connection, sql: &str, limit: usize) -> rusqlite::Result<(String, usize)> {
    let mut stmt = conn.prepare(sql)?;
    let names: Vec<String> = stmt.column_names().iter().map(|s| s.to_string()).collect();
    let mut out = names.join("\t");
    let mut rows = stmt.query([])?;
    let mut n = 0;
    while let Some(row) = rows.next()? {
        if n == limit {
            break;
        }
        out.push('\n');
        let cells: Vec<String> = (0..names.len())
            .map(|i| match row.get_ref(i) {
                Ok(ValueRef::Null) => "NULL".to_string(),
                Ok(ValueRef::Integer(v)) => v.to_string(),
                Ok(ValueRef::Real(v)) => v.to_string(),
                Ok(ValueRef::Text(t)) => String::from_utf8_lossy(t).into_owned(),
                Ok(ValueRef::Blob(b)) => format!("<{} bytes>", b.len()),
                Err(_) => "?".to_string(),
            })
            .collect();
        out.push_str(&cells.join("\t"));
        n += 1;
    }
    Ok((out, n))
}

pub fn is_read_only_statement(sql: &str) -> bool {
    let head = sql.trim_start().to_ascii_lowercase();
    head.starts_with("select") || head.starts_with("with") || head.starts_with("explain") || head.starts_with("pragma table_info")
}

pub fn table_names(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")?;
    let names = stmt.query_map([], |r| r.get(0))?.collect();
    names
}
