//! Per-call resolution of the `just` binary path.
//! Avoids inherited PATH staleness on long-running MCP processes.

use std::path::PathBuf;

use crate::just::JustError;

/// Fallback directories searched when `just` is not found in `$PATH`.
/// `~` is expanded to `$HOME` at runtime.
const FALLBACK_DIRS: &[&str] = &[
    "~/.cargo/bin",
    "/opt/homebrew/bin",
    "/usr/local/bin",
    "/usr/bin",
];

/// Resolve the absolute path to the `just` binary for THIS call.
///
/// Does not cache. Searches in order:
/// 1. Each directory in the current `$PATH` environment variable.
/// 2. Fallback directories: `~/.cargo/bin`, `/opt/homebrew/bin`,
///    `/usr/local/bin`, `/usr/bin`.
///
/// A candidate is accepted when it exists as a file and has at least one
/// executable bit set (`mode() & 0o111 != 0`).
///
/// On failure, returns [`JustError::NotFound`] with the list of searched
/// directories.
pub fn resolve_just_binary() -> Result<PathBuf, JustError> {
    let path_val = std::env::var("PATH").unwrap_or_default();
    let home = std::env::var("HOME").unwrap_or_default();
    resolve_just_binary_impl(&path_val, &home, FALLBACK_DIRS)
}

/// Internal implementation, injectable for testing.
fn resolve_just_binary_impl(
    path_val: &str,
    home: &str,
    fallback_dirs: &[&str],
) -> Result<PathBuf, JustError> {
    use std::os::unix::fs::PermissionsExt;

    let mut searched: Vec<String> = Vec::new();

    // Helper: check a single directory for an executable `just`.
    let try_dir = |dir: &str| -> Option<PathBuf> {
        let candidate = PathBuf::from(dir).join("just");
        match std::fs::metadata(&candidate) {
            Ok(meta) if meta.is_file() && meta.permissions().mode() & 0o111 != 0 => Some(candidate),
            _ => None,
        }
    };

    // 1. Search $PATH directories.
    for dir in path_val.split(':').filter(|d| !d.is_empty()) {
        searched.push(dir.to_string());
        if let Some(p) = try_dir(dir) {
            return Ok(p);
        }
    }

    // 2. Search fallback directories.
    for raw in fallback_dirs {
        let dir = if let Some(stripped) = raw.strip_prefix('~') {
            format!("{}{}", home, stripped)
        } else {
            raw.to_string()
        };
        // Only add if not already searched via $PATH.
        if !path_val.split(':').any(|d| d == dir) {
            searched.push(dir.clone());
            if let Some(p) = try_dir(&dir) {
                return Ok(p);
            }
        }
    }

    Err(JustError::NotFound(format!(
        "just not found in PATH or fallback dirs: [{}]",
        searched.join(", ")
    )))
}

// =============================================================================
// Tests
// =============================================================================

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use tempfile::TempDir;

    /// Create a file named `just` in `dir` that is executable.
    fn make_executable_just(dir: &std::path::Path) {
        let path = dir.join("just");
        std::fs::write(&path, b"#!/bin/sh\necho just\n").unwrap();
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        perms.set_mode(0o755);
        std::fs::set_permissions(&path, perms).unwrap();
    }

    /// Create a file named `just` in `dir` that is NOT executable.
    fn make_nonexecutable_just(dir: &std::path::Path) {
        let path = dir.join("just");
        std::fs::write(&path, b"#!/bin/sh\necho just\n").unwrap();
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        perms.set_mode(0o644);
        std::fs::set_permissions(&path, perms).unwrap();
    }

    // (a) PATH に存在する dir 内に dummy executable を置いて resolve できる。
    #[test]
    fn resolve_finds_just_in_path() {
        let tmp = TempDir::new().unwrap();
        make_executable_just(tmp.path());

        let path_val = tmp.path().to_str().unwrap();
        let result = resolve_just_binary_impl(path_val, "/tmp", &[]);
        assert!(result.is_ok(), "expected Ok, got {:?}", result);
        assert_eq!(result.unwrap(), tmp.path().join("just"));
    }

    // (b) PATH 空 + fallback dir に dummy 配置で resolve できる。
    // Simulate ~/.cargo/bin via HOME injection through resolve_just_binary_impl.
    #[test]
    fn resolve_finds_just_in_fallback_via_home() {
        let tmp = TempDir::new().unwrap();
        let cargo_bin = tmp.path().join(".cargo").join("bin");
        std::fs::create_dir_all(&cargo_bin).unwrap();
        make_executable_just(&cargo_bin);

        // Empty PATH, controlled fallback list with only the HOME-relative entry.
        let result = resolve_just_binary_impl("", tmp.path().to_str().unwrap(), &["~/.cargo/bin"]);
        assert!(result.is_ok(), "expected Ok, got {:?}", result);
        assert_eq!(result.unwrap(), cargo_bin.join("just"));
    }

    // (c) PATH 空 + fallback も無し で NotFound を返す。
    #[test]
    fn resolve_returns_not_found_when_absent() {
        let tmp = TempDir::new().unwrap();
        // Empty path_val, HOME points to a dir with no `just`, no fallbacks.
        let result = resolve_just_binary_impl("", tmp.path().to_str().unwrap(), &[]);
        assert!(result.is_err());
        match result {
            Err(JustError::NotFound(msg)) => {
                assert!(msg.contains("just not found"), "msg was: {msg}");
            }
            other => panic!("expected NotFound, got {:?}", other),
        }
    }

    // (d) PATH に just があっても non-executable なら skip してフォールバックへ。
    #[test]
    fn resolve_skips_nonexecutable_in_path() {
        let path_dir = TempDir::new().unwrap();
        let fallback_dir = TempDir::new().unwrap();

        make_nonexecutable_just(path_dir.path());
        make_executable_just(fallback_dir.path());

        // PATH has path_dir (non-executable just) then fallback_dir (executable).
        // Pass fallback_dir as a controlled fallback entry too, to test both code paths.
        let combined = format!(
            "{}:{}",
            path_dir.path().display(),
            fallback_dir.path().display()
        );
        let result = resolve_just_binary_impl(&combined, "/tmp", &[]);
        assert!(result.is_ok(), "expected Ok, got {:?}", result);
        assert_eq!(result.unwrap(), fallback_dir.path().join("just"));
    }

    // (e) フォールバックの絶対パスに just がある場合に resolve できる。
    #[test]
    fn resolve_finds_just_in_absolute_fallback() {
        let fallback_dir = TempDir::new().unwrap();
        make_executable_just(fallback_dir.path());

        let fallback_str = fallback_dir.path().to_str().unwrap().to_string();
        let fallback_refs: &[&str] = &[fallback_str.as_str()];
        let result = resolve_just_binary_impl("", "/tmp", fallback_refs);
        assert!(result.is_ok(), "expected Ok, got {:?}", result);
        assert_eq!(result.unwrap(), fallback_dir.path().join("just"));
    }
}
