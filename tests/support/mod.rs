//! Running the built `mcp-lint` binary on projects made in temporary directories (for
//! tests/hostile.rs, tests/prefilter.rs and tests/cache.rs).

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{self:?}"))
    }

    /// `(code, path, line)` of every finding in JSON output.
    pub fn findings(&self) -> Vec<(String, String, u64)> {
        self.json()["diagnostics"]
            .as_array()
            .expect("diagnostics array")
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().expect("code").to_string(),
                    d["path"].as_str().expect("path").to_string(),
                    d["line"].as_u64().expect("line"),
                )
            })
            .collect()
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Run `mcp-lint args…` in `dir`, with the cache in `dir/.cache` unless `args` say otherwise.
pub fn mcp_lint(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .current_dir(dir)
        .env("MCP_LINT_CACHE_DIR", dir.join(".cache"))
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("run mcp-lint");
    Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

pub fn write(dir: &Path, rel: &str, contents: impl AsRef<[u8]>) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, contents).expect("write");
}

pub fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
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

/// A tool that reports a database failure as a protocol error (MCP001).
pub const MCP001_SERVER: &str = r#"use rmcp::{ErrorData as McpError, model::*, tool, tool_router};

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "d")]
    async fn f(&self) -> Result<CallToolResult, McpError> {
        Err(McpError::internal_error("database connection refused while reading orders", None))
    }
}
"#;

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
