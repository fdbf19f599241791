//! postgres-mcp-rs：Rust 实现的 PostgreSQL MCP 服务器。
//!
//! 参考 crystaldba/postgres-mcp 的工具设计，用 rmcp(官方 Rust MCP SDK) + sqlx 实现。

mod cli;
mod db;
mod health;
mod indexes;
mod server;
mod sql_safety;

use clap::Parser;
use cli::{Cli, Transport};
use db::Db;
use rmcp::{ServiceExt, transport::stdio};
use server::PgMcpServer;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // 日志写到 stderr，stdout 留给 MCP stdio 协议。
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "postgres_mcp_rs=info,rmcp=warn".into()),
        )
        .with_ansi(false)
        .init();

    let cli = Cli::parse();
    let uri = cli.resolve_database_uri()?;

    let db = Db::connect(
        &uri,
        cli.max_connections,
        cli.access_mode,
        cli.statement_timeout_ms,
    )
    .await?;

    // 启动时做一次连通性探测，失败早报错。
    db.fetch_scalar("SELECT version()")
        .await
        .map_err(|e| anyhow::anyhow!("数据库连通性探测失败：{e}"))?;

    tracing::info!(
        access_mode = ?cli.access_mode,
        transport = ?cli.transport,
        "postgres-mcp-rs 启动"
    );

    match cli.transport {
        Transport::Stdio => {
            let service = PgMcpServer::new(db)
                .serve(stdio())
                .await
                .inspect_err(|e| tracing::error!("MCP server 启动失败：{e}"))?;
            service.waiting().await?;
        }
        Transport::Http => {
            anyhow::bail!(
                "HTTP 传输尚未启用，请使用 --transport=stdio（Cursor/Claude Desktop 默认即可）"
            );
        }
    }

    Ok(())
}
