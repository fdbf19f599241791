// src/audit.rs

use crate::GLOBAL_ID;
use directories::ProjectDirs;
use futures::stream::TryStreamExt;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::{query, FromRow, QueryBuilder};
use std::fs;
use std::str::FromStr;
use std::sync::LazyLock;
use std::time::Instant;
use anyhow::Result;

pub static DB: LazyLock<sqlx::SqlitePool> = LazyLock::new(|| {
    let proj_dirs = ProjectDirs::from("", "", "terminal-mcp").expect("无法获取系统的基础目录");

    let data_dir = proj_dirs.data_dir();

    if !data_dir.exists() {
        fs::create_dir_all(data_dir).expect("无法创建应用数据目录");
    }

    let db_path = data_dir.join("audit.db");
    let db_url = format!("sqlite://{}", db_path.display());

    let conn_options = SqliteConnectOptions::from_str(&db_url)
        .expect("无效的数据库 URL")
        .create_if_missing(true)
        .pragma("auto_vacuum", "1")
        .pragma("journal_mode", "WAL");

    SqlitePoolOptions::new()
        .max_connections(5)
        .connect_lazy_with(conn_options)
});

pub async fn init_db() {
    let create_table_sql = r#"
        CREATE TABLE IF NOT EXISTS audit_logs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            trace_g TEXT NOT NULL,
            trace_s TEXT,
            action TEXT NOT NULL,
            args TEXT,
            took_ms INTEGER,
            success BOOLEAN NOT NULL,
            result TEXT,
            error TEXT,
            timestamp DATETIME DEFAULT CURRENT_TIMESTAMP
        );
        CREATE INDEX IF NOT EXISTS idx_timestamp ON audit_logs(timestamp);
    "#;

    sqlx::query(create_table_sql)
        .execute(&*DB)
        .await
        .expect("无法初始化 audit_logs 表");

    let cleanup_sql = "DELETE FROM audit_logs WHERE timestamp < datetime('now', '-30 days');";
    if let Err(e) = sqlx::query(cleanup_sql).execute(&*DB).await {
        eprintln!("[Audit] 启动清理旧日志失败: {}", e);
    }
}

/// 异步写入审计日志
pub async fn audit_log<S: Into<String>>(
    action: &str,
    args: Option<serde_json::Value>,
    took_ms: Option<i64>,
    trace_s: Option<String>,
    outcome: Result<S, S>,
) {
    let trace_g = GLOBAL_ID.to_string();

    let args_json = args.map(|a| {
        serde_json::to_string(&a)
            .unwrap_or_else(|_| r#"{"_error": "Failed to serialize args"}"#.to_string())
    });

    let (success, result_str, error_str) = match outcome {
        Ok(res) => (true, Some(res.into()), None),
        Err(err) => (false, None, Some(err.into())),
    };

    let sql = r#"
        INSERT INTO audit_logs
        (trace_g, trace_s, action, args, took_ms, success, result, error)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    "#;

    let execute_result = query(sql)
        .bind(trace_g)
        .bind(trace_s)
        .bind(action)
        .bind(args_json)
        .bind(took_ms)
        .bind(success)
        .bind(result_str)
        .bind(error_str)
        .execute(&*DB)
        .await;

    if let Err(e) = execute_result {
        eprintln!("[Audit Log Error] 无法写入审计日志: {}", e);
    }
}

#[macro_export]
macro_rules! args {
    ($($key:ident),* $(,)?) => {
        serde_json::json!({ $( stringify!($key): $key ),* })
    };
}

pub fn truncate_for_log(s: &str, max_chars: usize) -> &str {
    match s.char_indices().nth(max_chars) {
        Some((idx, _)) => &s[..idx],
        None => s,
    }
}

pub async fn with_audit<F, Fut>(
    action: &str,
    args: serde_json::Value,
    trace_s: Option<String>,
    f: F,
) -> String
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<serde_json::Value, String>>,
{
    let start = Instant::now();
    let result = f().await;
    let took_ms = start.elapsed().as_millis() as i64;

    let db_outcome = match &result {
        Ok(data) => Ok(data.to_string()),
        Err(e) => Err(e.clone()),
    };

    audit_log(action, Some(args), Some(took_ms), trace_s, db_outcome).await;

    match result {
        Ok(data) => crate::ok!(data),
        Err(msg) => crate::err!(msg),
    }
}

/// 映射数据库行的结构体
#[derive(Debug, serde::Serialize, FromRow)]
pub struct AuditLogRecord {
    pub id: i64,
    pub trace_g: String,
    pub trace_s: Option<String>,
    pub action: String,
    pub args: Option<String>,
    pub took_ms: Option<i64>,
    pub success: bool,
    pub result: Option<String>,
    pub error: Option<String>,
    pub timestamp: String,
}

/// 导出过滤条件构造器
#[derive(Default, Debug)]
pub struct ExportFilter {
    /// 按 action 名称过滤
    pub action: Option<String>,
    /// 仅看成功或失败
    pub success: Option<bool>,
    /// 开始时间 (格式: YYYY-MM-DD HH:MM:SS)
    pub start_time: Option<String>,
    /// 结束时间 (格式: YYYY-MM-DD HH:MM:SS)
    pub end_time: Option<String>,
    /// 限制最大导出条数 (防止意外导出海量数据)
    pub limit: Option<i64>,
}

pub async fn export_logs(
    filter: ExportFilter,
) -> Result<usize> {

    let mut query_builder: QueryBuilder<sqlx::Sqlite> = QueryBuilder::new("SELECT * FROM audit_logs WHERE 1=1");

    if let Some(action) = filter.action {
        query_builder.push(" AND action = ");
        query_builder.push_bind(action);
    }

    if let Some(success) = filter.success {
        query_builder.push(" AND success = ");
        query_builder.push_bind(success);
    }

    if let Some(start) = filter.start_time {
        query_builder.push(" AND timestamp >= ");
        query_builder.push_bind(start);
    }

    if let Some(end) = filter.end_time {
        query_builder.push(" AND timestamp <= ");
        query_builder.push_bind(end);
    }

    query_builder.push(" ORDER BY id DESC");

    if let Some(limit) = filter.limit {
        query_builder.push(" LIMIT ");
        query_builder.push_bind(limit);
    }

    let mut count = 0;

    let mut stream = query_builder.build_query_as::<AuditLogRecord>().fetch(&*DB);

    while let Some(record) = stream.try_next().await? {
        let json_line = serde_json::to_string(&record)?;
        println!("{json_line}");
        count += 1;
    }
    Ok(count)
}
