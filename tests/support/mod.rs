//! Shared by the CI-format and baseline tests: a repository holding an rmcp server with known
//! findings, and a way to run the binary in it.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

use tempfile::TempDir;

#[path = "../common/mod.rs"]
mod common;
pub use common::{capture, write, Run};

pub const PACKAGE: &str =
    "[package]\nname = \"server\"\nversion = \"0.1.0\"\n\n[dependencies]\nrmcp = \"0.8\"\n";

/// Findings on a line with non-ASCII text before them (MCP001, line 9), spanning lines (MCP001,
/// lines 14-17) and at warning level (MCP003, line 22); `src/broken.rs` adds a parse error.
pub const SERVER: &str = r#"use rmcp::{ErrorData as McpError, model::*, tool, tool_router};

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "d")]
    async fn f(&self) -> Result<CallToolResult, McpError> {
        let _café = "🦀"; return Err(McpError::internal_error("database connection refused while reading orders", None));
    }

    #[tool(description = "g")]
    async fn g(&self) -> Result<CallToolResult, McpError> {
        Err(McpError::internal_error(
            format!("could not read the order file {}", 3),
            None,
        ))
    }

    #[tool(description = "h")]
    async fn h(&self) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::error(vec![Content::text("Something went wrong")]))
    }
}
"#;

/// The `mcp-lint` binary in `dir`, with the caller's environment.
pub fn mcp_lint(dir: &Path, args: &[&str]) -> Run {
    capture(
        Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
            .args(args)
            .current_dir(dir),
    )
}

/// A repository (it has `.git`) holding the server crate in `server/`.
pub fn repository() -> TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(tmp.path().join(".git")).expect(".git");
    write(tmp.path(), "server/Cargo.toml", PACKAGE);
    write(tmp.path(), "server/src/lib.rs", SERVER);
    write(tmp.path(), "server/src/broken.rs", "fn main( {\n");
    tmp
}
