//! 数据库连接池与 SQL 执行层。
//!
//! 执行策略：
//! - 单条 SELECT/VALUES/WITH：用 `json_agg` 在 Postgres 端完成行→JSON 转换，
//!   类型保真度最高（数组、numeric、jsonb、时间戳等都正确）。
//! - EXPLAIN/SHOW：按文本行解码。
//! - DML/DDL：返回受影响行数。
//! - restricted 模式：在 `READ ONLY` 事务里执行并加 `statement_timeout`。

use crate::cli::AccessMode;
use crate::sql_safety::{self, ExecShape};
use serde_json::{Value, json};
use sqlx::postgres::PgPoolOptions;
use sqlx::{Column, Postgres, Row};

#[derive(Clone)]
pub struct Db {
    pool: sqlx::PgPool,
    access_mode: AccessMode,
    statement_timeout_ms: u64,
}

impl Db {
    pub async fn connect(
        uri: &str,
        max_connections: u32,
        access_mode: AccessMode,
        statement_timeout_ms: u64,
    ) -> anyhow::Result<Self> {
        let pool = PgPoolOptions::new()
            .max_connections(max_connections)
            .connect(uri)
            .await?;
        Ok(Self {
            pool,
            access_mode,
            statement_timeout_ms,
        })
    }

    pub fn access_mode(&self) -> AccessMode {
        self.access_mode
    }

    /// 工具入口：按访问模式安全执行任意 SQL，返回 JSON。
    pub async fn execute_sql(&self, sql: &str) -> Result<Value, String> {
        if self.access_mode.is_restricted() {
            sql_safety::ensure_readonly(sql)?;
            return self.execute_readonly(sql).await;
        }
        self.execute_unrestricted(sql).await
    }

    /// restricted：READ ONLY 事务 + statement_timeout。
    async fn execute_readonly(&self, sql: &str) -> Result<Value, String> {
        let mut conn = self.pool.acquire().await.map_err(err_str)?;

        let begin = async {
            sqlx::query("BEGIN TRANSACTION READ ONLY")
                .execute(&mut *conn)
                .await?;
            // SET LOCAL 在事务结束后自动失效，不会污染池中连接。
            // 超时值为内部 u64，非用户输入，安全。
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "SET LOCAL statement_timeout = {}",
                self.statement_timeout_ms
            )))
            .execute(&mut *conn)
            .await?;
            Ok::<(), sqlx::Error>(())
        }
        .await;
        if let Err(e) = begin {
            return Err(err_str(e));
        }

        // restricted 已确保是只读语句：SELECT 走 json_agg，其余（EXPLAIN/SHOW）走文本行。
        let result = match sql_safety::exec_shape(sql) {
            ExecShape::ReturningQuery => select_json(&mut *conn, sql).await,
            _ => text_rows(&mut *conn, sql).await,
        };

        let finish = sqlx::query(if result.is_ok() { "COMMIT" } else { "ROLLBACK" })
            .execute(&mut *conn)
            .await;
        match result {
            Ok(v) => {
                finish.map_err(err_str)?;
                Ok(v)
            }
            Err(e) => Err(err_str(e)),
        }
    }

    /// unrestricted：按语句形态选择执行路径，未知形态先当查询再退化为执行。
    async fn execute_unrestricted(&self, sql: &str) -> Result<Value, String> {
        match sql_safety::exec_shape(sql) {
            ExecShape::ReturningQuery => select_json(&self.pool, sql).await.map_err(err_str),
            ExecShape::TextRows => text_rows(&self.pool, sql).await.map_err(err_str),
            ExecShape::Exec => exec_stmt(&self.pool, sql).await.map_err(err_str),
            ExecShape::Unknown => {
                // 解析失败：先尝试当作查询（json_agg 包裹），失败再退化为执行语句。
                match select_json(&self.pool, sql).await {
                    Ok(v) => Ok(v),
                    Err(_) => exec_stmt(&self.pool, sql).await.map_err(err_str),
                }
            }
        }
    }

    /// 内部使用：对目录/系统表跑只读 SELECT，返回 JSON 数组。
    pub async fn fetch_json(&self, sql: &str) -> Result<Value, String> {
        select_json(&self.pool, sql).await.map_err(err_str)
    }

    /// 取单个标量值（已是 JSON）。
    pub async fn fetch_scalar(&self, sql: &str) -> Result<Value, String> {
        let row = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
            .fetch_one(&self.pool)
            .await
            .map_err(err_str)?;
        json_value_at(&row, 0).map_err(err_str)
    }

    /// 检测扩展是否已安装。
    pub async fn extension_installed(&self, name: &str) -> bool {
        let sql = format!("SELECT 1 FROM pg_extension WHERE extname = '{name}'");
        matches!(
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .fetch_optional(&self.pool)
                .await,
            Ok(Some(_))
        )
    }
}

fn err_str(e: sqlx::Error) -> String {
    e.to_string()
}

/// 去掉尾部分号与空白，便于嵌入子查询。
fn strip_trailing_semicolon(sql: &str) -> &str {
    sql.trim().trim_end_matches(';').trim_end()
}

/// 单条 SELECT → json_agg 包裹，读取一个 JSON 数组（类型完全保真）。
async fn select_json<'e, E>(executor: E, sql: &str) -> Result<Value, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = Postgres>,
{
    let inner = strip_trailing_semicolon(sql);
    let wrapped =
        format!("SELECT coalesce(json_agg(__mcp_t), '[]'::json) FROM ( {inner} ) AS __mcp_t");
    let row = sqlx::query(sqlx::AssertSqlSafe(wrapped))
        .fetch_one(executor)
        .await?;
    let value: Value = row.try_get(0)?;
    Ok(json!({ "rows": value, "row_count": value.as_array().map(|a| a.len()).unwrap_or(0) }))
}

/// EXPLAIN / SHOW：按文本行解码，列值统一尝试 Option<String>。
async fn text_rows<'e, E>(executor: E, sql: &str) -> Result<Value, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = Postgres>,
{
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_all(executor)
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        let mut obj = serde_json::Map::new();
        for (i, col) in row.columns().iter().enumerate() {
            let v = json_value_at(row, i).unwrap_or(Value::Null);
            obj.insert(col.name().to_string(), v);
        }
        out.push(Value::Object(obj));
    }
    let count = out.len();
    Ok(json!({ "rows": out, "row_count": count }))
}

/// DML / DDL：返回受影响行数。支持多语句（simple query 协议）。
async fn exec_stmt<'e, E>(executor: E, sql: &str) -> Result<Value, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = Postgres>,
{
    let result = sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string()))
        .execute(executor)
        .await?;
    Ok(json!({ "status": "ok", "rows_affected": result.rows_affected() }))
}

/// 尽力把某列的值转成 JSON：优先按常见类型解码，最后退化为文本。
fn json_value_at(row: &sqlx::postgres::PgRow, idx: usize) -> Result<Value, sqlx::Error> {
    use sqlx::TypeInfo;
    let col = &row.columns()[idx];
    let type_name = col.type_info().name().to_uppercase();

    macro_rules! try_as {
        ($ty:ty) => {{
            match row.try_get::<Option<$ty>, _>(idx) {
                Ok(Some(v)) => return Ok(json!(v)),
                Ok(None) => return Ok(Value::Null),
                Err(_) => {}
            }
        }};
    }

    match type_name.as_str() {
        "BOOL" => try_as!(bool),
        "INT2" => try_as!(i16),
        "INT4" => try_as!(i32),
        "INT8" => try_as!(i64),
        "FLOAT4" => try_as!(f32),
        "FLOAT8" => try_as!(f64),
        "NUMERIC" => {
            if let Ok(Some(v)) = row.try_get::<Option<rust_decimal::Decimal>, _>(idx) {
                return Ok(json!(v.to_string()));
            }
        }
        "JSON" | "JSONB" => try_as!(Value),
        "UUID" => {
            if let Ok(Some(v)) = row.try_get::<Option<uuid::Uuid>, _>(idx) {
                return Ok(json!(v.to_string()));
            }
        }
        "TIMESTAMPTZ" => {
            if let Ok(Some(v)) = row.try_get::<Option<chrono::DateTime<chrono::Utc>>, _>(idx) {
                return Ok(json!(v.to_rfc3339()));
            }
        }
        "TIMESTAMP" => {
            if let Ok(Some(v)) = row.try_get::<Option<chrono::NaiveDateTime>, _>(idx) {
                return Ok(json!(v.to_string()));
            }
        }
        "DATE" => {
            if let Ok(Some(v)) = row.try_get::<Option<chrono::NaiveDate>, _>(idx) {
                return Ok(json!(v.to_string()));
            }
        }
        _ => {}
    }

    // 文本兜底。
    match row.try_get::<Option<String>, _>(idx) {
        Ok(Some(v)) => Ok(json!(v)),
        Ok(None) => Ok(Value::Null),
        Err(_) => Ok(json!(format!("<unsupported type: {type_name}>"))),
    }
}
