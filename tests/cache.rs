//! The result cache, through the binary: a warm run prints exactly what a cold one does, a
//! change to a file, the options or the tool is never served stale, a damaged entry is a miss
//! (never an error), `--no-cache` leaves no trace, and the cache lives under the workspace's
//! target directory or in `.mcp-lint-cache`.

mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use support::{files_under as files, mcp_lint, project, server_manifest, write, MCP001_SERVER};

fn server() -> tempfile::TempDir {
    project(&[
        ("Cargo.toml", &server_manifest("server")),
        ("src/lib.rs", MCP001_SERVER),
        (
            "src/util.rs",
            "pub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n",
        ),
        ("plain/Cargo.toml", "[package]\nname = \"plain\"\n"),
        ("plain/src/lib.rs", "pub fn p() {}\n"),
    ])
}

/// Cached findings (`r/…`) under the cache directory of `dir`.
fn result_entries(dir: &Path) -> Vec<PathBuf> {
    files(&dir.join(".cache"))
        .into_iter()
        .filter(|p| {
            p.parent()
                .and_then(|d| d.parent())
                .is_some_and(|d| d.ends_with("r"))
        })
        .collect()
}

/// Let the files age past the cache's two-second window for freshly changed files, so their
/// metadata may be trusted.
fn settle() {
    std::thread::sleep(Duration::from_millis(2100));
}

#[test]
fn warm_runs_print_exactly_what_cold_runs_print() {
    let p = server();
    for format in ["human", "json", "concise"] {
        let args = ["check", "--color", "never", "--format", format];
        let cold = mcp_lint(p.path(), &args);
        let warm = mcp_lint(p.path(), &args);
        let uncached = mcp_lint(p.path(), &[&args[..], &["--no-cache"]].concat());
        assert_eq!(cold.code, 1, "{cold:?}");
        assert_eq!(warm.code, cold.code);
        assert!(warm.stdout == cold.stdout, "{format}: {warm:?}\n{cold:?}");
        assert!(uncached.stdout == cold.stdout, "{format}");
        assert_eq!(warm.stderr, "");
    }
    // Findings of the MCP crate are cached; the plain package needs none.
    assert_eq!(result_entries(p.path()).len(), 1);
}

#[test]
fn the_warm_run_reads_the_cache_and_trusts_old_metadata() {
    let p = server();
    settle();
    let cold = mcp_lint(p.path(), &["check", "--format", "concise"]);
    assert!(cold.stdout.contains("MCP001"), "{cold:?}");
    // Metadata entries (`s/…`) for both packages, since no file is fresh.
    let stamps = files(&p.path().join(".cache"))
        .into_iter()
        .filter(|f| {
            f.parent()
                .and_then(|d| d.parent())
                .is_some_and(|d| d.ends_with("s"))
        })
        .count();
    assert_eq!(stamps, 2);
    // Prove the warm run answers from the cache: doctor the stored message, with the
    // checksum made anew (a doctored entry with its old checksum is a miss: tests/hostile.rs).
    let [entry] = result_entries(p.path()).try_into().expect("one entry");
    let text = std::fs::read_to_string(&entry).expect("entry");
    let (_, body) = text.split_once('\n').expect("a checksum line");
    let body = body.replace("reports a tool failure", "REPLAYED");
    let key = entry
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let sum = mcp_lint::workspace::cache::entry_checksum("r", &key, body.as_bytes());
    std::fs::write(&entry, format!("{sum}\n{body}")).expect("write");
    let warm = mcp_lint(p.path(), &["check", "--format", "concise"]);
    assert!(warm.stdout.contains("REPLAYED"), "{warm:?}");
    // `--no-cache` computes afresh.
    let fresh = mcp_lint(p.path(), &["check", "--format", "concise", "--no-cache"]);
    assert_eq!(fresh.stdout, cold.stdout);
}

#[test]
fn changes_to_files_options_or_package_lists_are_never_served_stale() {
    let p = server();
    settle();
    let first = mcp_lint(p.path(), &["check", "--format", "concise"]);
    assert!(first.stdout.contains("MCP001"), "{first:?}");
    // The same size, another text, and the old modification time put back: still seen.
    let lib = p.path().join("src/lib.rs");
    let mtime = std::fs::metadata(&lib)
        .and_then(|m| m.modified())
        .expect("mtime");
    let edited = MCP001_SERVER.replace("internal_error", "invalid_params");
    assert_eq!(edited.len(), MCP001_SERVER.len());
    write(p.path(), "src/lib.rs", &edited);
    let file = std::fs::File::options()
        .write(true)
        .open(&lib)
        .expect("open");
    file.set_modified(mtime).expect("set mtime");
    let second = mcp_lint(p.path(), &["check", "--format", "concise"]);
    assert!(!second.stdout.contains("MCP001"), "{second:?}");
    assert!(second.stdout.contains("MCP006"), "{second:?}");
    // Other options, other results.
    write(p.path(), "src/lib.rs", MCP001_SERVER);
    let denied = mcp_lint(p.path(), &["check", "--format", "concise"]);
    let allowed = mcp_lint(p.path(), &["check", "--format", "concise", "-A", "all"]);
    assert!(denied.stdout.contains("MCP001"), "{denied:?}");
    assert!(!allowed.stdout.contains("MCP001"), "{allowed:?}");
    // A new file in the crate is part of it: not compiled (nor linted) until a `mod` declares
    // it, and linted once one does.
    write(p.path(), "src/more.rs", MCP001_SERVER);
    let unlinked = mcp_lint(p.path(), &["check", "--format", "concise"]);
    assert!(unlinked.stdout.contains("src/lib.rs"), "{unlinked:?}");
    assert!(!unlinked.stdout.contains("src/more.rs"), "{unlinked:?}");
    write(
        p.path(),
        "src/lib.rs",
        format!("{MCP001_SERVER}mod more;\n"),
    );
    let more = mcp_lint(p.path(), &["check", "--format", "concise"]);
    assert!(more.stdout.contains("src/more.rs"), "{more:?}");
}

#[test]
fn damaged_entries_are_misses_not_errors() {
    let p = server();
    settle();
    let cold = mcp_lint(p.path(), &["check", "--format", "json"]);
    let cache_files = files(&p.path().join(".cache"));
    assert!(cache_files.len() >= 3, "{cache_files:?}");
    for (i, damage) in [
        &b""[..],
        b"{",
        b"\xff\x00garbage",
        b"[{\"path\":1}]",
        b"null",
    ]
    .iter()
    .enumerate()
    {
        for f in &cache_files {
            if f.file_name()
                .is_some_and(|n| n == ".gitignore" || n == "CACHEDIR.TAG")
            {
                continue;
            }
            std::fs::write(f, damage).expect("damage");
        }
        let run = mcp_lint(p.path(), &["check", "--format", "json"]);
        assert_eq!(run.code, cold.code, "damage {i}: {run:?}");
        assert_eq!(run.stdout, cold.stdout, "damage {i}");
        assert_eq!(run.stderr, "", "damage {i}");
    }
    // A cache directory that cannot be used at all (a file in its place).
    std::fs::remove_dir_all(p.path().join(".cache")).expect("rm");
    write(p.path(), ".cache", "not a directory");
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_eq!(
        (run.code, run.stdout, run.stderr),
        (cold.code, cold.stdout, String::new())
    );
}

#[test]
fn no_cache_leaves_no_trace() {
    let p = server();
    let run = mcp_lint(p.path(), &["check", "--no-cache"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(!p.path().join(".cache").exists());
}

/// Without `MCP_LINT_CACHE_DIR`: `target/mcp-lint-cache` when the workspace has a target
/// directory, else `.mcp-lint-cache` (ignored by git); always at the workspace root.
#[test]
fn the_cache_lives_with_the_workspace() {
    let run_in = |dir: &Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
            .args(["check", "--format", "concise"])
            .current_dir(dir)
            .env_remove("MCP_LINT_CACHE_DIR")
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(1), "{out:?}");
    };
    let p = project(&[
        ("Cargo.toml", "[workspace]\nmembers = [\"server\"]\n"),
        ("server/Cargo.toml", &server_manifest("server")),
        ("server/src/lib.rs", MCP001_SERVER),
    ]);
    run_in(&p.path().join("server/src"));
    let dot = p.path().join(".mcp-lint-cache");
    assert!(dot.join(".gitignore").is_file(), "{:?}", files(p.path()));
    assert!(!p.path().join("server/.mcp-lint-cache").exists());
    std::fs::remove_dir_all(&dot).expect("rm");
    std::fs::create_dir(p.path().join("target")).expect("mkdir");
    run_in(&p.path().join("server"));
    assert!(p.path().join("target/mcp-lint-cache").is_dir());
    assert!(!dot.exists());
}
