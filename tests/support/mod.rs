//! Running the built `mcp-lint` binary on projects made in temporary directories: a
//! repository holding an rmcp server with known findings (CI-format and baseline tests), and
//! small projects for the CLI, hostile-input, prefilter and cache tests.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

use tempfile::TempDir;

#[cfg(unix)]
pub mod bounded;
#[path = "../common/mod.rs"]
mod common;
#[allow(unused_imports)]
pub use common::{capture, path_with_our_binaries, write, Run, MCP001_TOOL as MCP001_SERVER};

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

/// Run `mcp-lint args…` in `dir` (the environment of [`common::quiet_env`]), with the cache in
/// `dir/.cache` unless `args` say otherwise.
pub fn mcp_lint(dir: &Path, args: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-lint"));
    cmd.args(args);
    common::quiet_env(&mut cmd, dir);
    capture(cmd.env("MCP_LINT_CACHE_DIR", dir.join(".cache")))
}

/// Every regular file under `dir`, sorted.
pub fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                out.extend(files_under(&path));
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A temporary directory holding `files`.
pub fn project(files: &[(&str, &str)]) -> TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (rel, text) in files {
        write(tmp.path(), rel, text);
    }
    tmp
}

/// A package that depends on rmcp: mcp-lint analyses all of its files.
pub fn server_manifest(name: &str) -> String {
    format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n\n[dependencies]\nrmcp = \"0.8\"\n")
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

/// Copy a directory tree (files and directories only).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}
