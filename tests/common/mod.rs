//! Helpers shared by the integration tests that drive mcp-lint through real clients (cargo,
//! pre-commit's hook manifest): temporary projects and captured runs.
#![allow(dead_code)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

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

/// Run a prepared command and capture its output.
pub fn capture(cmd: &mut Command) -> Run {
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("could not run {cmd:?}: {e}"));
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

/// A temporary directory holding `files`, with its canonical path (cargo prints canonical ones).
pub fn project(files: &[(&str, &str)]) -> (TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (rel, text) in files {
        write(tmp.path(), rel, text);
    }
    let root = tmp.path().canonicalize().expect("canonical");
    (tmp, root)
}

/// The cargo running the tests (`$CARGO`), else `cargo` on PATH.
pub fn cargo_program() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// PATH with the directory of the built binaries first, so `cargo mcp-lint` finds ours.
pub fn path_with_our_binaries() -> OsString {
    let dir = Path::new(env!("CARGO_BIN_EXE_cargo-mcp-lint"))
        .parent()
        .expect("binary directory")
        .to_path_buf();
    let mut paths = vec![dir];
    if let Some(path) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(paths).expect("joinable PATH")
}

/// A command with a predictable environment: no colour from the caller, cargo offline (nothing
/// here needs the registry) and building into the project's own target directory.
pub fn quiet_env(cmd: &mut Command, dir: &Path) {
    cmd.current_dir(dir)
        .env("PATH", path_with_our_binaries())
        .env("CARGO_NET_OFFLINE", "true")
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("CARGO_TERM_COLOR", "never")
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
}

/// The `mcp-lint` binary in `dir`.
pub fn mcp_lint(dir: &Path, args: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-lint"));
    cmd.args(args);
    quiet_env(&mut cmd, dir);
    capture(&mut cmd)
}

/// `cargo mcp-lint ARGS` in `dir`, through the real cargo.
pub fn cargo_mcp_lint(dir: &Path, args: &[&str]) -> Run {
    let mut cmd = Command::new(cargo_program());
    cmd.arg("mcp-lint").args(args);
    quiet_env(&mut cmd, dir);
    capture(&mut cmd)
}

/// A `#[tool]` fn that sends a database failure as a protocol error (MCP001), for rmcp of any
/// generation.
pub const MCP001_TOOL: &str = r#"use rmcp::{ErrorData as McpError, model::*, tool, tool_router};

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "d")]
    async fn f(&self) -> Result<CallToolResult, McpError> {
        Err(McpError::internal_error("database connection refused while reading orders", None))
    }
}
"#;

pub const CLEAN: &str = "pub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n";

/// `rustfmt --edition 2021` on `text` (through stdin): the formatted text, or `None` when no
/// rustfmt is installed. Panics when rustfmt rejects the text.
pub fn rustfmt(text: &str) -> Option<String> {
    use std::io::Write as _;
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2021", "--emit", "stdout", "--quiet"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("write to rustfmt");
    let out = child.wait_with_output().expect("rustfmt runs");
    assert!(
        out.status.success(),
        "rustfmt failed: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("utf-8"))
}

/// Whether a rustfmt binary runs here.
pub fn has_rustfmt() -> bool {
    Command::new("rustfmt")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}
