//! 命令行参数与运行配置。

use clap::{Parser, ValueEnum};

/// 访问模式：控制 AI agent 能对数据库做哪些操作。
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AccessMode {
    /// 不受限：完整读写，可改数据 / 改 schema。适合开发环境。
    Unrestricted,
    /// 受限：仅允许只读事务 + 语句超时。适合生产环境。
    Restricted,
}

impl AccessMode {
    pub fn is_restricted(self) -> bool {
        matches!(self, AccessMode::Restricted)
    }
}

/// 传输方式。
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Transport {
    /// 标准输入输出（默认，给 Cursor / Claude Desktop 等本地 MCP 客户端用）。
    Stdio,
    /// 可流式 HTTP（多客户端共享一个 server）。
    Http,
}

/// postgres-mcp-rs：Rust 实现的 PostgreSQL MCP 服务器。
///
/// 参考 crystaldba/postgres-mcp 的工具设计，提供安全 SQL 执行、
/// schema 自省、EXPLAIN、慢查询分析、数据库健康检查与索引建议。
#[derive(Debug, Parser)]
#[command(name = "postgres-mcp-rs", version, about, long_about = None)]
pub struct Cli {
    /// PostgreSQL 连接串。优先级：位置参数 > --database-uri > 环境变量 DATABASE_URI。
    #[arg(value_name = "DATABASE_URI")]
    pub database_uri_positional: Option<String>,

    /// PostgreSQL 连接串（也可用环境变量 DATABASE_URI）。
    #[arg(long, env = "DATABASE_URI")]
    pub database_uri: Option<String>,

    /// 访问模式。
    #[arg(long, value_enum, default_value_t = AccessMode::Unrestricted)]
    pub access_mode: AccessMode,

    /// 传输方式。
    #[arg(long, value_enum, default_value_t = Transport::Stdio)]
    pub transport: Transport,

    /// HTTP 传输监听地址（仅 --transport=http 生效）。
    #[arg(long, default_value = "127.0.0.1:8000")]
    pub http_addr: String,

    /// 连接池最大连接数。
    #[arg(long, default_value_t = 5)]
    pub max_connections: u32,

    /// restricted 模式下单条语句的超时（毫秒）。
    #[arg(long, default_value_t = 30_000)]
    pub statement_timeout_ms: u64,
}

impl Cli {
    /// 解析最终生效的连接串。
    pub fn resolve_database_uri(&self) -> anyhow::Result<String> {
        self.database_uri_positional
            .clone()
            .or_else(|| self.database_uri.clone())
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "未提供数据库连接串，请通过位置参数、--database-uri 或环境变量 DATABASE_URI 指定"
                )
            })
    }
}
