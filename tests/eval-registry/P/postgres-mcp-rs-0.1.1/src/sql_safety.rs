//! SQL 安全解析。
//!
//! 借鉴 crystaldba/postgres-mcp 的思路：restricted 模式下只允许只读语句，
//! 并拒绝任何事务控制语句（COMMIT / ROLLBACK / START TRANSACTION），
//! 防止 LLM 通过 `ROLLBACK; DROP TABLE ...` 之类手法绕过只读事务。

use sqlparser::ast::Statement;
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

/// 语句执行形态，用于选择正确的执行路径。
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecShape {
    /// 单条 SELECT / VALUES / WITH...SELECT，可用 json_agg 包裹获得完整类型保真。
    ReturningQuery,
    /// EXPLAIN / SHOW 之类返回文本行的语句。
    TextRows,
    /// DML / DDL / 其它不返回结果集的语句。
    Exec,
    /// 解析失败，形态未知（仅在 unrestricted 下允许，按"先查后退化"处理）。
    Unknown,
}

fn parse(sql: &str) -> Result<Vec<Statement>, String> {
    Parser::parse_sql(&PostgreSqlDialect {}, sql).map_err(|e| format!("SQL 解析失败：{e}"))
}

/// 判断单条语句是否为只读。
fn is_readonly_stmt(stmt: &Statement) -> bool {
    matches!(
        stmt,
        Statement::Query(_)
            | Statement::Explain { .. }
            | Statement::ExplainTable { .. }
            | Statement::ShowVariable { .. }
            | Statement::ShowVariables { .. }
            | Statement::ShowStatus { .. }
            | Statement::ShowColumns { .. }
            | Statement::ShowTables { .. }
            | Statement::ShowFunctions { .. }
            | Statement::ShowCollation { .. }
    )
}

/// 事务控制语句：即便在 unrestricted 也要在只读事务上下文中拦截。
fn is_txn_control(stmt: &Statement) -> bool {
    matches!(
        stmt,
        Statement::StartTransaction { .. } | Statement::Commit { .. } | Statement::Rollback { .. }
    )
}

/// restricted 模式下校验 SQL 是否安全（全部只读、无事务控制）。
///
/// 解析失败时保守拒绝——无法证明只读就不放行。
pub fn ensure_readonly(sql: &str) -> Result<(), String> {
    let statements = parse(sql)?;
    if statements.is_empty() {
        return Err("未解析到任何 SQL 语句".to_string());
    }
    for stmt in &statements {
        if is_txn_control(stmt) {
            return Err("restricted 模式禁止事务控制语句（COMMIT/ROLLBACK/START TRANSACTION）".to_string());
        }
        if !is_readonly_stmt(stmt) {
            return Err(format!(
                "restricted 模式仅允许只读语句，检测到写入/DDL 语句：{}",
                stmt_kind(stmt)
            ));
        }
    }
    Ok(())
}

/// 推断 SQL 的执行形态（用于 unrestricted 模式选择执行路径）。
pub fn exec_shape(sql: &str) -> ExecShape {
    match parse(sql) {
        Ok(statements) => {
            if statements.len() == 1 {
                match &statements[0] {
                    Statement::Query(_) => ExecShape::ReturningQuery,
                    Statement::Explain { .. }
                    | Statement::ExplainTable { .. }
                    | Statement::ShowVariable { .. }
                    | Statement::ShowVariables { .. }
                    | Statement::ShowColumns { .. }
                    | Statement::ShowTables { .. } => ExecShape::TextRows,
                    _ => ExecShape::Exec,
                }
            } else {
                ExecShape::Exec
            }
        }
        Err(_) => ExecShape::Unknown,
    }
}

fn stmt_kind(stmt: &Statement) -> &'static str {
    match stmt {
        Statement::Insert(_) => "INSERT",
        Statement::Update { .. } => "UPDATE",
        Statement::Delete(_) => "DELETE",
        Statement::CreateTable(_) => "CREATE TABLE",
        Statement::CreateView { .. } => "CREATE VIEW",
        Statement::CreateIndex(_) => "CREATE INDEX",
        Statement::AlterTable { .. } => "ALTER TABLE",
        Statement::Drop { .. } => "DROP",
        Statement::Truncate { .. } => "TRUNCATE",
        Statement::Grant { .. } => "GRANT",
        Statement::Revoke { .. } => "REVOKE",
        _ => "非只读语句",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_is_readonly() {
        assert!(ensure_readonly("SELECT * FROM ods_kingdee_sales_outstock LIMIT 10").is_ok());
    }

    #[test]
    fn delete_rejected_in_restricted() {
        assert!(ensure_readonly("DELETE FROM users WHERE id = 1").is_err());
    }

    #[test]
    fn rollback_injection_rejected() {
        assert!(ensure_readonly("ROLLBACK; DROP TABLE users").is_err());
    }

    #[test]
    fn single_select_shape() {
        assert_eq!(exec_shape("SELECT 1"), ExecShape::ReturningQuery);
    }

    #[test]
    fn explain_shape_is_text_rows() {
        assert_eq!(exec_shape("EXPLAIN SELECT 1"), ExecShape::TextRows);
    }
}
