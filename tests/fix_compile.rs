//! Fixed code still compiles: `tests/fix-compile/` is a small rmcp 3.11 server (its own
//! workspace, rmcp pinned, `Cargo.lock` committed) whose tools make the mistakes the fixes
//! rewrite. The test copies it to a temporary directory, checks that it compiles, runs
//! `mcp-lint check --fix --unsafe-fixes` on the copy, checks that the findings are gone and a
//! second run changes nothing, and runs `cargo check --locked` on the result: it must build
//! with no warning (before and after) and stay rustfmt-clean as the fixture is.
//!
//! It downloads and builds rmcp's dependencies (about a minute on two cores the first time), so
//! it is `#[ignore]`d: `cargo test --test fix_compile -- --ignored` runs it (`.ci/run` does).
//! Its build goes to `target/fix-compile/`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

fn crate_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fix-compile")
}

fn copy_crate(to: &Path) {
    let from = crate_dir();
    for file in ["Cargo.toml", "Cargo.lock"] {
        std::fs::copy(from.join(file), to.join(file)).expect("copy manifest and lock file");
    }
    std::fs::create_dir_all(to.join("src")).expect("src dir");
    for entry in std::fs::read_dir(from.join("src")).expect("read src") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join("src").join(entry.file_name())).expect("copy source");
    }
}

fn mcp_lint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .arg("check")
        .args(args)
        .arg(".")
        .current_dir(dir)
        .output()
        .expect("mcp-lint runs")
}

fn cargo_check(dir: &Path) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(["check", "--locked", "--quiet", "--color", "never"])
        .current_dir(dir)
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fix-compile"),
        )
        .output()
        .expect("cargo runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn findings(dir: &Path) -> Vec<serde_json::Value> {
    let out = mcp_lint(dir, &["--format", "json", "--exit-zero"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("json ({e}): {}{}", text(&out.stdout), text(&out.stderr)));
    doc["diagnostics"].as_array().cloned().unwrap_or_default()
}

#[test]
#[ignore = "needs the crates.io registry and a minute to build rmcp; run with --ignored (.ci/run does)"]
fn fixed_rmcp_server_still_compiles() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    copy_crate(dir);

    let started = Instant::now();
    let before = cargo_check(dir);
    assert!(
        before.status.success(),
        "tests/fix-compile does not compile as written:\n{}",
        text(&before.stderr)
    );
    eprintln!("cargo check (before fixing): {:.1?}", started.elapsed());

    // Every finding carries a fix --unsafe-fixes applies; each lint the fixes cover is there.
    let found = findings(dir);
    eprintln!("rmcp fixture: {} findings before fixing", found.len());
    let mut codes: Vec<&str> = found.iter().filter_map(|d| d["code"].as_str()).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(
        codes,
        ["MCP001", "MCP006", "MCP007", "MCP009", "MCP011"],
        "{found:#?}"
    );
    for d in &found {
        let applicability = d["fix"]["applicability"].as_str().unwrap_or("none");
        assert!(
            matches!(applicability, "MachineApplicable" | "MaybeIncorrect"),
            "a finding without an applicable fix: {d:#}"
        );
    }

    let fixed = mcp_lint(dir, &["--fix", "--unsafe-fixes"]);
    assert_eq!(
        fixed.status.code(),
        Some(0),
        "{}{}",
        text(&fixed.stdout),
        text(&fixed.stderr)
    );
    assert!(
        text(&fixed.stderr).contains(&format!("fixed {} findings in 1 file", found.len())),
        "{}",
        text(&fixed.stderr)
    );
    let left = findings(dir);
    eprintln!("rmcp fixture: {} findings after fixing", left.len());
    assert_eq!(left, Vec::<serde_json::Value>::new());

    // A second run changes nothing.
    let source = std::fs::read(dir.join("src/lib.rs")).expect("read fixed source");
    let again = mcp_lint(dir, &["--fix", "--unsafe-fixes"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(
        std::fs::read(dir.join("src/lib.rs")).expect("read"),
        source,
        "a second --fix changed the file"
    );

    let started = Instant::now();
    let after = cargo_check(dir);
    assert!(
        after.status.success(),
        "the fixed crate does not compile:\n{}\n--- fixed src/lib.rs:\n{}",
        text(&after.stderr),
        text(&source)
    );
    eprintln!("cargo check (after fixing): {:.1?}", started.elapsed());
    // No new warning (an import a fix left unused would be one), and rustfmt-clean as the
    // fixture is.
    assert!(
        !text(&before.stderr).contains("warning"),
        "{}",
        text(&before.stderr)
    );
    assert!(
        !text(&after.stderr).contains("warning"),
        "the fixed crate has warnings:\n{}\n--- fixed src/lib.rs:\n{}",
        text(&after.stderr),
        text(&source)
    );
    let fixed = text(&source);
    let formatted = common::rustfmt(&fixed).expect("rustfmt: `rustup component add rustfmt`");
    assert_eq!(
        fixed, formatted,
        "the fixed src/lib.rs is not rustfmt-clean"
    );
}
