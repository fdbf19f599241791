//! 数据库健康检查，思路借鉴 PgHero / crystaldba postgres-mcp。
//!
//! 覆盖：缓冲区命中率、连接、vacuum/事务 ID 回卷、序列上限、
//! 失效约束、索引健康（未用/重复/失效）、复制延迟。

use crate::db::Db;
use serde_json::{Value, json};

/// 支持的检查类型。
pub const ALL_CHECKS: &[&str] = &[
    "buffer_cache",
    "connections",
    "vacuum",
    "sequences",
    "constraints",
    "indexes",
    "replication",
];

/// 执行健康检查；`types` 为空或含 "all" 时跑全部。
pub async fn analyze(db: &Db, types: &[String]) -> Value {
    let run_all = types.is_empty() || types.iter().any(|t| t == "all");
    let mut report = serde_json::Map::new();

    for check in ALL_CHECKS {
        if run_all || types.iter().any(|t| t == check) {
            let result = run_check(db, check).await;
            report.insert((*check).to_string(), result);
        }
    }
    Value::Object(report)
}

async fn run_check(db: &Db, check: &str) -> Value {
    let outcome = match check {
        "buffer_cache" => db.fetch_json(BUFFER_CACHE_SQL).await,
        "connections" => db.fetch_json(CONNECTIONS_SQL).await,
        "vacuum" => db.fetch_json(VACUUM_SQL).await,
        "sequences" => db.fetch_json(SEQUENCES_SQL).await,
        "constraints" => db.fetch_json(INVALID_CONSTRAINTS_SQL).await,
        "indexes" => return index_health(db).await,
        "replication" => db.fetch_json(REPLICATION_SQL).await,
        other => return json!({ "error": format!("未知检查类型：{other}") }),
    };
    match outcome {
        Ok(v) => v,
        Err(e) => json!({ "error": e }),
    }
}

async fn index_health(db: &Db) -> Value {
    let unused = db.fetch_json(UNUSED_INDEXES_SQL).await.unwrap_or_else(|e| json!({ "error": e }));
    let invalid = db.fetch_json(INVALID_INDEXES_SQL).await.unwrap_or_else(|e| json!({ "error": e }));
    let duplicate = db.fetch_json(DUPLICATE_INDEXES_SQL).await.unwrap_or_else(|e| json!({ "error": e }));
    json!({
        "unused_indexes": unused,
        "invalid_indexes": invalid,
        "duplicate_indexes": duplicate,
    })
}

const BUFFER_CACHE_SQL: &str = r#"
SELECT
  round(sum(heap_blks_hit) * 100.0 / nullif(sum(heap_blks_hit) + sum(heap_blks_read), 0), 2) AS table_cache_hit_pct,
  round(sum(idx_blks_hit) * 100.0 / nullif(sum(idx_blks_hit) + sum(idx_blks_read), 0), 2) AS index_cache_hit_pct
FROM pg_statio_user_tables
"#;

const CONNECTIONS_SQL: &str = r#"
SELECT
  (SELECT setting::int FROM pg_settings WHERE name = 'max_connections') AS max_connections,
  count(*) AS total,
  count(*) FILTER (WHERE state = 'active') AS active,
  count(*) FILTER (WHERE state = 'idle') AS idle,
  count(*) FILTER (WHERE state = 'idle in transaction') AS idle_in_transaction,
  count(*) FILTER (WHERE wait_event_type = 'Lock') AS waiting_on_lock
FROM pg_stat_activity
WHERE backend_type = 'client backend'
"#;

const VACUUM_SQL: &str = r#"
SELECT
  s.schemaname AS schema,
  s.relname AS table,
  s.n_dead_tup AS dead_tuples,
  s.n_live_tup AS live_tuples,
  CASE WHEN s.n_live_tup > 0
       THEN round(s.n_dead_tup * 100.0 / s.n_live_tup, 2) ELSE 0 END AS dead_pct,
  s.last_autovacuum,
  s.last_vacuum,
  age(c.relfrozenxid) AS xid_age
FROM pg_stat_user_tables s
JOIN pg_class c ON c.oid = s.relid
WHERE s.n_dead_tup > 1000
   OR age(c.relfrozenxid) > 150000000
ORDER BY age(c.relfrozenxid) DESC, s.n_dead_tup DESC
LIMIT 50
"#;

const SEQUENCES_SQL: &str = r#"
SELECT
  schemaname AS schema,
  sequencename AS sequence,
  last_value,
  max_value,
  round(coalesce(last_value, 0) * 100.0 / nullif(max_value, 0), 2) AS used_pct
FROM pg_sequences
WHERE last_value IS NOT NULL
  AND last_value * 100.0 / nullif(max_value, 0) > 70
ORDER BY used_pct DESC
"#;

const INVALID_CONSTRAINTS_SQL: &str = r#"
SELECT
  n.nspname AS schema,
  rel.relname AS table,
  c.conname AS constraint,
  pg_get_constraintdef(c.oid) AS definition
FROM pg_constraint c
JOIN pg_class rel ON rel.oid = c.conrelid
JOIN pg_namespace n ON n.oid = rel.relnamespace
WHERE NOT c.convalidated
"#;

const UNUSED_INDEXES_SQL: &str = r#"
SELECT
  ui.schemaname AS schema,
  ui.relname AS table,
  ui.indexrelname AS index,
  ui.idx_scan AS scans,
  pg_size_pretty(pg_relation_size(ui.indexrelid)) AS size
FROM pg_stat_user_indexes ui
JOIN pg_index i ON i.indexrelid = ui.indexrelid
WHERE ui.idx_scan = 0
  AND NOT i.indisunique
  AND NOT i.indisprimary
ORDER BY pg_relation_size(ui.indexrelid) DESC
LIMIT 50
"#;

const INVALID_INDEXES_SQL: &str = r#"
SELECT
  n.nspname AS schema,
  c.relname AS index
FROM pg_index x
JOIN pg_class c ON c.oid = x.indexrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE NOT x.indisvalid
"#;

const DUPLICATE_INDEXES_SQL: &str = r#"
SELECT
  indrelid::regclass AS table,
  array_agg(indexrelid::regclass) AS duplicate_indexes,
  count(*) AS copies
FROM (
  SELECT indrelid, indexrelid, indkey, indclass, indexprs, indpred
  FROM pg_index
) sub
GROUP BY indrelid, indkey, indclass, indexprs, indpred
HAVING count(*) > 1
"#;

const REPLICATION_SQL: &str = r#"
SELECT
  client_addr,
  state,
  sync_state,
  pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) AS replay_lag_bytes
FROM pg_stat_replication
"#;
