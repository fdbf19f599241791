//! MCP server：对外暴露的工具集合。
//!
//! 工具设计参考 crystaldba/postgres-mcp：
//! list_schemas / list_objects / get_object_details / execute_sql /
//! explain_query / get_top_queries / analyze_db_health / analyze_query_indexes。

use crate::cli::AccessMode;
use crate::db::Db;
use crate::{health, indexes};
use regex::Regex;
use rmcp::{
    ErrorData as McpError, ServerHandler,
    handler::server::tool::ToolRouter,
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content, ServerCapabilities, ServerInfo},
    schemars, tool, tool_handler, tool_router,
};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::OnceLock;

#[derive(Clone)]
pub struct PgMcpServer {
    db: Db,
    // 由 #[tool_router] / #[tool_handler] 宏读取，dead_code 分析无法感知。
    #[allow(dead_code)]
    tool_router: ToolRouter<Self>,
}

// ---------- 工具入参 ----------

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ListObjectsArgs {
    /// schema 名，例如 public。
    pub schema: String,
    /// 对象类型：table / view / sequence / extension。默认 table。
    #[serde(default = "default_object_type")]
    pub object_type: String,
}

fn default_object_type() -> String {
    "table".to_string()
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct GetObjectDetailsArgs {
    /// schema 名。
    pub schema: String,
    /// 对象名（表/视图）。
    pub name: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ExecuteSqlArgs {
    /// 要执行的 SQL。restricted 模式下仅允许只读语句。
    pub sql: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ExplainQueryArgs {
    /// 要分析的 SQL。
    pub sql: String,
    /// 是否真正执行以获取实际耗时（ANALYZE）。仅 unrestricted 模式可用。
    #[serde(default)]
    pub analyze: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct GetTopQueriesArgs {
    /// 排序依据：total（累计执行时间）或 mean（单次平均）。默认 total。
    #[serde(default = "default_sort_by")]
    pub sort_by: String,
    /// 返回条数，默认 10。
    #[serde(default = "default_limit")]
    pub limit: i64,
}

fn default_sort_by() -> String {
    "total".to_string()
}
fn default_limit() -> i64 {
    10
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AnalyzeDbHealthArgs {
    /// 检查类型，逗号分隔；留空或 "all" 表示全部。
    /// 可选：buffer_cache, connections, vacuum, sequences, constraints, indexes, replication。
    #[serde(default)]
    pub health_types: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AnalyzeQueryIndexesArgs {
    /// 要分析的 SQL 列表（建议不超过 10 条）。
    pub queries: Vec<String>,
}

// ---------- 工具实现 ----------

#[tool_router]
impl PgMcpServer {
    pub fn new(db: Db) -> Self {
        Self {
            db,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "列出数据库中所有 schema。")]
    async fn list_schemas(&self) -> Result<CallToolResult, McpError> {
        let sql = "SELECT schema_name, schema_owner \
                   FROM information_schema.schemata ORDER BY schema_name";
        self.run_fetch(sql).await
    }

    #[tool(
        description = "列出指定 schema 下的数据库对象（表/视图/序列/扩展）。参数：schema、object_type(table|view|sequence|extension)。"
    )]
    async fn list_objects(
        &self,
        Parameters(args): Parameters<ListObjectsArgs>,
    ) -> Result<CallToolResult, McpError> {
        let schema = validate_ident(&args.schema)?;
        let sql = match args.object_type.to_lowercase().as_str() {
            "table" => format!(
                "SELECT table_name AS name, 'table' AS type FROM information_schema.tables \
                 WHERE table_schema = '{schema}' AND table_type = 'BASE TABLE' ORDER BY table_name"
            ),
            "view" => format!(
                "SELECT table_name AS name, 'view' AS type FROM information_schema.views \
                 WHERE table_schema = '{schema}' ORDER BY table_name"
            ),
            "sequence" => format!(
                "SELECT sequence_name AS name, 'sequence' AS type FROM information_schema.sequences \
                 WHERE sequence_schema = '{schema}' ORDER BY sequence_name"
            ),
            "extension" => "SELECT extname AS name, 'extension' AS type, extversion AS version \
                 FROM pg_extension ORDER BY extname"
                .to_string(),
            other => {
                return Err(McpError::invalid_params(
                    format!("不支持的 object_type：{other}"),
                    None,
                ));
            }
        };
        self.run_fetch(&sql).await
    }

    #[tool(
        description = "查看某个表/视图的详细信息：列、类型、约束、索引。参数：schema、name。"
    )]
    async fn get_object_details(
        &self,
        Parameters(args): Parameters<GetObjectDetailsArgs>,
    ) -> Result<CallToolResult, McpError> {
        let schema = validate_ident(&args.schema)?;
        let name = validate_ident(&args.name)?;

        let columns_sql = format!(
            "SELECT column_name, data_type, is_nullable, column_default, \
                    character_maximum_length, numeric_precision, numeric_scale \
             FROM information_schema.columns \
             WHERE table_schema = '{schema}' AND table_name = '{name}' \
             ORDER BY ordinal_position"
        );
        let constraints_sql = format!(
            "SELECT con.conname AS name, \
                    CASE con.contype WHEN 'p' THEN 'PRIMARY KEY' WHEN 'f' THEN 'FOREIGN KEY' \
                         WHEN 'u' THEN 'UNIQUE' WHEN 'c' THEN 'CHECK' ELSE con.contype::text END AS type, \
                    pg_get_constraintdef(con.oid) AS definition \
             FROM pg_constraint con \
             JOIN pg_class rel ON rel.oid = con.conrelid \
             JOIN pg_namespace n ON n.oid = rel.relnamespace \
             WHERE n.nspname = '{schema}' AND rel.relname = '{name}'"
        );
        let indexes_sql = format!(
            "SELECT indexname AS name, indexdef AS definition \
             FROM pg_indexes WHERE schemaname = '{schema}' AND tablename = '{name}'"
        );

        let columns = self.db.fetch_json(&columns_sql).await.unwrap_or_else(err_json);
        let constraints = self
            .db
            .fetch_json(&constraints_sql)
            .await
            .unwrap_or_else(err_json);
        let idxs = self.db.fetch_json(&indexes_sql).await.unwrap_or_else(err_json);

        json_result(json!({
            "schema": schema,
            "name": name,
            "columns": columns,
            "constraints": constraints,
            "indexes": idxs,
        }))
    }

    #[tool(
        description = "执行 SQL。unrestricted 模式可读写；restricted 模式仅允许只读语句并施加 statement_timeout。"
    )]
    async fn execute_sql(
        &self,
        Parameters(args): Parameters<ExecuteSqlArgs>,
    ) -> Result<CallToolResult, McpError> {
        match self.db.execute_sql(&args.sql).await {
            Ok(v) => json_result(v),
            Err(e) => Err(McpError::internal_error(e, None)),
        }
    }

    #[tool(
        description = "获取 SQL 的执行计划（EXPLAIN，JSON 格式）。analyze=true 会真正执行以拿到实际耗时，仅 unrestricted 模式可用。"
    )]
    async fn explain_query(
        &self,
        Parameters(args): Parameters<ExplainQueryArgs>,
    ) -> Result<CallToolResult, McpError> {
        if args.analyze && self.db.access_mode() == AccessMode::Restricted {
            return Err(McpError::invalid_params(
                "restricted 模式禁止 ANALYZE（会真正执行查询）",
                None,
            ));
        }
        let stripped = args.sql.trim().trim_end_matches(';');
        let opts = if args.analyze {
            "ANALYZE true, FORMAT JSON, BUFFERS true"
        } else {
            "FORMAT JSON"
        };
        match self
            .db
            .fetch_scalar(&format!("EXPLAIN ({opts}) {stripped}"))
            .await
        {
            Ok(v) => json_result(v),
            Err(e) => Err(McpError::internal_error(e, None)),
        }
    }

    #[tool(
        description = "列出最耗时的 SQL（基于 pg_stat_statements）。参数：sort_by(total|mean)、limit。需要安装 pg_stat_statements 扩展。"
    )]
    async fn get_top_queries(
        &self,
        Parameters(args): Parameters<GetTopQueriesArgs>,
    ) -> Result<CallToolResult, McpError> {
        if !self.db.extension_installed("pg_stat_statements").await {
            return json_result(json!({
                "error": "未安装 pg_stat_statements 扩展",
                "hint": "CREATE EXTENSION pg_stat_statements; 并将其加入 shared_preload_libraries 后重启"
            }));
        }
        let order_col = match args.sort_by.to_lowercase().as_str() {
            "mean" => "mean_exec_time",
            _ => "total_exec_time",
        };
        let limit = args.limit.clamp(1, 100);
        let sql = format!(
            "SELECT queryid, calls, \
                    round(total_exec_time::numeric, 2) AS total_exec_time_ms, \
                    round(mean_exec_time::numeric, 2) AS mean_exec_time_ms, \
                    rows, query \
             FROM pg_stat_statements ORDER BY {order_col} DESC LIMIT {limit}"
        );
        self.run_fetch(&sql).await
    }

    #[tool(
        description = "数据库健康检查（缓冲命中率/连接/vacuum/序列/约束/索引/复制）。参数 health_types 逗号分隔，留空=全部。"
    )]
    async fn analyze_db_health(
        &self,
        Parameters(args): Parameters<AnalyzeDbHealthArgs>,
    ) -> Result<CallToolResult, McpError> {
        let types: Vec<String> = args
            .health_types
            .as_deref()
            .map(|s| {
                s.split(',')
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let report = health::analyze(&self.db, &types).await;
        json_result(report)
    }

    #[tool(
        description = "分析一批 SQL 并给出索引建议。安装 hypopg 扩展后会用假设索引验证收益，否则给出启发式候选。参数：queries 列表。"
    )]
    async fn analyze_query_indexes(
        &self,
        Parameters(args): Parameters<AnalyzeQueryIndexesArgs>,
    ) -> Result<CallToolResult, McpError> {
        let report = indexes::analyze_query_indexes(&self.db, &args.queries).await;
        json_result(report)
    }

    /// 通用：跑只读 SELECT 并把结果作为 JSON 返回。
    async fn run_fetch(&self, sql: &str) -> Result<CallToolResult, McpError> {
        match self.db.fetch_json(sql).await {
            Ok(v) => json_result(v),
            Err(e) => Err(McpError::internal_error(e, None)),
        }
    }
}

#[tool_handler]
impl ServerHandler for PgMcpServer {
    fn get_info(&self) -> ServerInfo {
        let mode = match self.db.access_mode() {
            AccessMode::Unrestricted => "unrestricted（可读写）",
            AccessMode::Restricted => "restricted（只读）",
        };
        let mut info = ServerInfo::default();
        info.server_info.name = "postgres-mcp-rs".to_string();
        info.server_info.version = env!("CARGO_PKG_VERSION").to_string();
        info.instructions = Some(format!(
            "postgres-mcp-rs：Rust 实现的 PostgreSQL MCP 服务器。当前访问模式：{mode}。\
             提供 schema 自省、安全 SQL 执行、EXPLAIN、慢查询、健康检查与索引建议。"
        ));
        info.capabilities = ServerCapabilities::builder().enable_tools().build();
        info
    }
}

// ---------- 辅助 ----------

fn json_result(v: Value) -> Result<CallToolResult, McpError> {
    let text = serde_json::to_string_pretty(&v)
        .unwrap_or_else(|e| format!("{{\"error\":\"序列化失败：{e}\"}}"));
    Ok(CallToolResult::success(vec![Content::text(text)]))
}

fn err_json(e: String) -> Value {
    json!({ "error": e })
}

/// 校验标识符（schema/table 名）只含安全字符，防 SQL 注入。
fn validate_ident(s: &str) -> Result<String, McpError> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"^[A-Za-z_][A-Za-z0-9_$]*$").expect("正则编译失败"));
    if re.is_match(s) {
        Ok(s.to_string())
    } else {
        Err(McpError::invalid_params(
            format!("非法标识符：{s}（仅允许字母/数字/下划线/$，且不能以数字开头）"),
            None,
        ))
    }
}
