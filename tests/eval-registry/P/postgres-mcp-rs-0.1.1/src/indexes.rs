//! 索引建议（轻量版索引顾问）。
//!
//! 思路：不自己做 SQL 语法树解析，而是借助 Postgres 的 `EXPLAIN (FORMAT JSON)`，
//! 从计划里抓 `Seq Scan` 节点的 `Filter` / `Relation Name`，提取过滤列作为候选索引；
//! 若安装了 `hypopg`，再用假设索引模拟前后代价，贪心挑选真正能降本的索引。
//!
//! 这不是 crystaldba 的 Anytime 工业级算法，但对"找出缺失索引"这一最常见诉求足够实用，
//! 且完全确定性、可复跑。

use crate::db::Db;
use regex::Regex;
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

/// 最小代价改进阈值（低于该比例的候选不予采纳）。
const MIN_IMPROVEMENT: f64 = 0.10;

/// 对一批查询给出索引建议。
pub async fn analyze_query_indexes(db: &Db, queries: &[String]) -> Value {
    if queries.is_empty() {
        return json!({ "error": "queries 不能为空" });
    }
    let hypopg = db.extension_installed("hypopg").await;
    // 分区子表 → 父表映射 + 现有索引，循环外取一次即可。
    let partition_map = partition_parent_map(db).await;
    let existing = existing_indexes(db).await;

    let mut per_query = Vec::new();
    let mut all_candidates: BTreeSet<Candidate> = BTreeSet::new();

    for sql in queries {
        let plan = match explain_json(db, sql).await {
            Ok(p) => p,
            Err(e) => {
                per_query.push(json!({ "query": sql, "error": e }));
                continue;
            }
        };
        let base_cost = total_cost(&plan).unwrap_or(0.0);
        let mut raw = BTreeSet::new();
        collect_seq_scan_candidates(&plan, &mut raw);

        // 分区表：把分区子表上的候选归并到父表（父表建索引会自动下推到所有分区）。
        let merged = merge_partitions(raw, &partition_map);
        // 去掉已存在的索引。
        let candidates: BTreeSet<Candidate> = merged
            .into_iter()
            .filter(|c| !covered_by_existing(c, &existing))
            .collect();

        for c in &candidates {
            all_candidates.insert(c.clone());
        }

        per_query.push(json!({
            "query": sql,
            "base_total_cost": base_cost,
            "candidate_indexes": candidates.iter().map(|c| c.create_sql()).collect::<Vec<_>>(),
        }));
    }

    if !hypopg {
        return json!({
            "mode": "heuristic",
            "note": "未安装 hypopg 扩展，无法模拟索引收益；以下为基于 Seq Scan 过滤列的启发式候选。安装后可获得代价验证：CREATE EXTENSION hypopg;",
            "queries": per_query,
            "suggested_indexes": all_candidates.iter().map(|c| c.create_sql()).collect::<Vec<_>>(),
        });
    }

    // hypopg 可用：对每条查询做贪心模拟，挑选能显著降本的索引。
    let mut validated = Vec::new();
    for sql in queries {
        if let Ok(result) = greedy_search(db, sql, &partition_map).await {
            validated.push(result);
        }
    }

    json!({
        "mode": "hypopg-validated",
        "queries": per_query,
        "validated": validated,
    })
}

/// 单列/多列候选索引。
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    table: String,
    columns: Vec<String>,
}

impl Candidate {
    fn create_sql(&self) -> String {
        format!("CREATE INDEX ON {} ({})", self.table, self.columns.join(", "))
    }
}

fn column_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // 抓取过滤里的列名，兼容 "(col)::text = ..." 这种带类型转换的渲染。
    // 多字符操作符（>=、<=、<>）放前面，避免被单字符抢先匹配。
    RE.get_or_init(|| {
        // 注意：\b 只能用于 IS 关键字；符号操作符后面是空格/引号，加 \b 会永远不匹配。
        Regex::new(
            r#"\(?([a-zA-Z_][a-zA-Z0-9_]*)\)?(?:::[a-zA-Z0-9_ \[\]"]+)?\s*(?:>=|<=|<>|=|>|<|~~|!~~|@>|<@|(?:IS\b))"#,
        )
        .expect("正则编译失败")
    })
}

/// 运行 EXPLAIN (FORMAT JSON)，返回首个 Plan 节点。
async fn explain_json(db: &Db, sql: &str) -> Result<Value, String> {
    let stripped = sql.trim().trim_end_matches(';');
    let v = db
        .fetch_scalar(&format!("EXPLAIN (FORMAT JSON) {stripped}"))
        .await?;
    // EXPLAIN FORMAT JSON 返回 [{"Plan": {...}}]
    let plan = v
        .as_array()
        .and_then(|a| a.first())
        .and_then(|o| o.get("Plan"))
        .cloned()
        .ok_or_else(|| "无法解析 EXPLAIN 计划".to_string())?;
    Ok(plan)
}

fn total_cost(plan: &Value) -> Option<f64> {
    plan.get("Total Cost").and_then(|v| v.as_f64())
}

/// 递归遍历计划节点，从 Seq Scan 的 Filter 中抽取候选列。
fn collect_seq_scan_candidates(node: &Value, out: &mut BTreeSet<Candidate>) {
    if node.get("Node Type").and_then(|v| v.as_str()) == Some("Seq Scan")
        && let (Some(rel), Some(filter)) = (
            node.get("Relation Name").and_then(|v| v.as_str()),
            node.get("Filter").and_then(|v| v.as_str()),
        )
    {
        let mut cols = BTreeSet::new();
        for cap in column_regex().captures_iter(filter) {
            if let Some(m) = cap.get(1) {
                let col = m.as_str();
                // 过滤掉明显的常量/关键字。
                if !is_noise(col) {
                    cols.insert(col.to_string());
                }
            }
        }
        for col in cols {
            out.insert(Candidate {
                table: rel.to_string(),
                columns: vec![col],
            });
        }
    }
    // 递归子计划。
    if let Some(plans) = node.get("Plans").and_then(|v| v.as_array()) {
        for child in plans {
            collect_seq_scan_candidates(child, out);
        }
    }
}

fn is_noise(col: &str) -> bool {
    matches!(
        col.to_uppercase().as_str(),
        "NULL" | "TRUE" | "FALSE" | "AND" | "OR" | "NOT"
    ) || col.chars().all(|c| c.is_ascii_digit())
}

/// 取库内现有索引的 (table, leading_columns) 集合，用于去重。
async fn existing_indexes(db: &Db) -> Vec<(String, String)> {
    let sql = r#"
        SELECT t.relname AS table, a.attname AS column
        FROM pg_index ix
        JOIN pg_class t ON t.oid = ix.indrelid
        JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ix.indkey[0]
        JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
    "#;
    let mut out = Vec::new();
    if let Ok(v) = db.fetch_json(sql).await
        && let Some(rows) = v.get("rows").and_then(|r| r.as_array())
    {
        for row in rows {
            if let (Some(t), Some(c)) = (
                row.get("table").and_then(|x| x.as_str()),
                row.get("column").and_then(|x| x.as_str()),
            ) {
                out.push((t.to_string(), c.to_string()));
            }
        }
    }
    out
}

fn covered_by_existing(c: &Candidate, existing: &[(String, String)]) -> bool {
    if let Some(first) = c.columns.first() {
        existing
            .iter()
            .any(|(t, col)| t == &c.table && col == first)
    } else {
        false
    }
}

/// 用 pg_inherits 拉「子表 → 直接父表」映射。
/// 涵盖声明式分区与传统继承；多级分区会形成链，由 `resolve_top_parent` 逐级上溯。
async fn partition_parent_map(db: &Db) -> HashMap<String, String> {
    let sql = r#"
        SELECT child.relname AS child, parent.relname AS parent
        FROM pg_inherits i
        JOIN pg_class child ON child.oid = i.inhrelid
        JOIN pg_class parent ON parent.oid = i.inhparent
    "#;
    let mut map = HashMap::new();
    if let Ok(v) = db.fetch_json(sql).await
        && let Some(rows) = v.get("rows").and_then(|r| r.as_array())
    {
        for row in rows {
            if let (Some(c), Some(p)) = (
                row.get("child").and_then(|x| x.as_str()),
                row.get("parent").and_then(|x| x.as_str()),
            ) {
                map.insert(c.to_string(), p.to_string());
            }
        }
    }
    map
}

/// 沿父表链上溯到顶层父表（非分区表原样返回）。带环路保护。
fn resolve_top_parent(map: &HashMap<String, String>, name: &str) -> String {
    let mut cur = name.to_string();
    for _ in 0..50 {
        match map.get(&cur) {
            Some(p) => cur = p.clone(),
            None => break,
        }
    }
    cur
}

/// 把候选索引里的分区子表归并到顶层父表，并去重。
fn merge_partitions(set: BTreeSet<Candidate>, map: &HashMap<String, String>) -> BTreeSet<Candidate> {
    let mut out = BTreeSet::new();
    for c in set {
        out.insert(Candidate {
            table: resolve_top_parent(map, &c.table),
            columns: c.columns,
        });
    }
    out
}

/// hypopg 贪心搜索：逐轮加入收益最大的假设索引，直到无显著改进。
///
/// 注意：模拟阶段仍在分区子表上建假设索引（hypopg 不支持在分区父表上建假设索引），
/// 但最终 `recommended_indexes` 会把子表归并到父表再去重，输出更干净。
async fn greedy_search(
    db: &Db,
    sql: &str,
    partition_map: &HashMap<String, String>,
) -> Result<Value, String> {
    let stripped = sql.trim().trim_end_matches(';');

    // 起始基线。
    let _ = db.fetch_scalar("SELECT hypopg_reset()").await;
    let base = explain_total_cost(db, stripped).await?;

    // 候选池。
    let plan = explain_json(db, sql).await?;
    let mut candidates = BTreeSet::new();
    collect_seq_scan_candidates(&plan, &mut candidates);
    let existing = existing_indexes(db).await;
    candidates.retain(|c| !covered_by_existing(c, &existing));

    let mut accepted: Vec<Candidate> = Vec::new();
    let mut current_cost = base;
    let mut pool: Vec<Candidate> = candidates.into_iter().collect();

    loop {
        let mut best: Option<(usize, f64)> = None;
        for (i, cand) in pool.iter().enumerate() {
            // 在已接受索引基础上叠加当前候选。
            let _ = db.fetch_scalar("SELECT hypopg_reset()").await;
            for acc in &accepted {
                let _ = create_hypo(db, &acc.create_sql()).await;
            }
            if create_hypo(db, &cand.create_sql()).await.is_err() {
                continue;
            }
            if let Ok(cost) = explain_total_cost(db, stripped).await {
                let improved = (current_cost - cost) / current_cost.max(1.0);
                if improved > MIN_IMPROVEMENT {
                    match best {
                        Some((_, bc)) if cost >= bc => {}
                        _ => best = Some((i, cost)),
                    }
                }
            }
        }
        match best {
            Some((idx, cost)) => {
                let chosen = pool.remove(idx);
                accepted.push(chosen);
                current_cost = cost;
            }
            None => break,
        }
    }
    let _ = db.fetch_scalar("SELECT hypopg_reset()").await;

    // 展示层：分区子表归并到父表 + 去重。
    let recommended: BTreeSet<Candidate> = accepted.into_iter().collect();
    let recommended = merge_partitions(recommended, partition_map);

    Ok(json!({
        "query": sql,
        "base_total_cost": base,
        "optimized_total_cost": current_cost,
        "improvement_pct": if base > 0.0 { round2((base - current_cost) / base * 100.0) } else { 0.0 },
        "recommended_indexes": recommended.iter().map(|c| c.create_sql()).collect::<Vec<_>>(),
    }))
}

async fn create_hypo(db: &Db, create_sql: &str) -> Result<(), String> {
    db.fetch_scalar(&format!("SELECT hypopg_create_index('{}')", create_sql.replace('\'', "''")))
        .await
        .map(|_| ())
}

async fn explain_total_cost(db: &Db, sql: &str) -> Result<f64, String> {
    let plan = explain_json(db, sql).await?;
    total_cost(&plan).ok_or_else(|| "计划缺少 Total Cost".to_string())
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
