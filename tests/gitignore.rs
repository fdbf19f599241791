//! The walk leaves out what git ignores (`.gitignore`, `.ignore`, `.git/info/exclude`, git's
//! global excludes), like ruff; `--no-respect-gitignore` lints it too. A file named on the
//! command line is linted whatever git thinks of it.

mod support;

use std::path::Path;
use std::process::Command;

use support::{mcp_lint, server_manifest, write, MCP001_SERVER};

/// A git repository holding a clean server whose `src/generated/` (git-ignored) has a finding.
fn repository() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    let status = Command::new("git")
        .args(["init", "--quiet"])
        .current_dir(tmp.path())
        .status()
        .expect("git runs (it is needed to make the test repository)");
    assert!(status.success(), "git init failed");
    write(tmp.path(), "Cargo.toml", server_manifest("server"));
    write(tmp.path(), "src/lib.rs", "mod generated;\npub fn ok() {}\n");
    write(tmp.path(), "src/generated/mod.rs", "mod tools;\n");
    write(tmp.path(), "src/generated/tools.rs", MCP001_SERVER);
    write(tmp.path(), ".gitignore", "/src/generated/\n");
    tmp
}

fn files_with_findings(dir: &Path, args: &[&str]) -> (i32, Vec<String>) {
    let run = mcp_lint(dir, args);
    let mut files: Vec<String> = run.findings().into_iter().map(|(_, f, _)| f).collect();
    files.dedup();
    (run.code, files)
}

#[test]
fn gitignored_directories_are_skipped_unless_the_flag_turns_it_off() {
    let repo = repository();
    let dir = repo.path();
    assert_eq!(
        files_with_findings(dir, &["check", "--format", "json"]),
        (0, vec![])
    );
    let ignored = vec!["src/generated/tools.rs".to_string()];
    assert_eq!(
        files_with_findings(
            dir,
            &["check", "--format", "json", "--no-respect-gitignore"]
        ),
        (1, ignored.clone())
    );
    // Named on the command line, an ignored file is linted.
    assert_eq!(
        files_with_findings(
            dir,
            &["check", "--format", "json", "src/generated/tools.rs"]
        ),
        (1, ignored.clone())
    );
    // The output does not depend on the number of threads.
    let with_threads = |n: &str| {
        let args = [
            "check",
            "--format",
            "json",
            "--no-respect-gitignore",
            "--threads",
            n,
        ];
        mcp_lint(dir, &args).stdout
    };
    assert_eq!(with_threads("1"), with_threads("4"));
}

#[test]
fn ignore_files_apply_outside_git_too_and_baseline_follows_check() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    write(dir, "Cargo.toml", server_manifest("server"));
    write(dir, "src/lib.rs", "mod skipped;\npub fn ok() {}\n");
    write(dir, "src/skipped.rs", MCP001_SERVER);
    write(dir, ".ignore", "skipped.rs\n");
    assert_eq!(
        files_with_findings(dir, &["check", "--format", "json"]),
        (0, vec![])
    );
    assert_eq!(
        files_with_findings(
            dir,
            &["check", "--format", "json", "--no-respect-gitignore"]
        ),
        (1, vec!["src/skipped.rs".to_string()])
    );
    let run = mcp_lint(dir, &["baseline", "--no-respect-gitignore"]);
    assert_eq!(run.code, 0, "{run:?}");
    let recorded = std::fs::read_to_string(dir.join("mcp-lint-baseline.json")).expect("written");
    assert!(recorded.contains("src/skipped.rs"), "{recorded}");
}
