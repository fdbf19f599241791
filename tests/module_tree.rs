//! Like `cargo clippy`, mcp-lint lints the files a package compiles: its target roots (standard
//! places and Cargo.toml's `[lib]`, `[[bin]]`, `[[example]]`, `[[test]]`, `[[bench]]` paths)
//! and the files their `mod` declarations reach (`#[path]`, inline modules, `cfg_attr` paths,
//! `mod x;` inside a macro such as `cfg_if!`). A stale file in `src/` that no `mod` declares is
//! not compiled and not linted, unless it is named on the command line.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{cargo_mcp_lint, mcp_lint, project, write, Run, MCP001_TOOL};

const MANIFEST: &str = r#"[package]
name = "server"
version = "0.1.0"
edition = "2021"

[[bin]]
name = "cli"
path = "src/cli/entry.rs"

[dependencies]
rmcp = "0.8"
cfg-if = "1"
"#;

/// A server package: every file has a tool that sends a database failure as a protocol error
/// (MCP001), so each file linted has a finding.
fn package() -> (tempfile::TempDir, std::path::PathBuf) {
    let lib = "#[path = \"generated/api.rs\"]\nmod api;\n\
               cfg_if::cfg_if! {\n    if #[cfg(unix)] {\n        mod unix;\n    } else {\n        mod other;\n    }\n}\n\
               mod inline {\n    mod nested;\n}\n";
    project(&[
        ("Cargo.toml", MANIFEST),
        ("src/lib.rs", lib),
        ("src/generated/api.rs", MCP001_TOOL),
        ("src/unix.rs", MCP001_TOOL),
        ("src/other.rs", MCP001_TOOL),
        ("src/inline/nested.rs", MCP001_TOOL),
        (
            "src/cli/entry.rs",
            &format!("{MCP001_TOOL}\nfn main() {{}}\n"),
        ),
        (
            "examples/demo.rs",
            &format!("{MCP001_TOOL}\nfn main() {{}}\n"),
        ),
        // Not compiled: no `mod` declares them.
        ("src/stale.rs", MCP001_TOOL),
        ("src/templates/tool.rs", MCP001_TOOL),
    ])
}

fn files_with_findings(run: &Run) -> BTreeSet<String> {
    run.findings().into_iter().map(|(_, f, _)| f).collect()
}

fn set(files: &[&str]) -> BTreeSet<String> {
    files.iter().map(|f| f.to_string()).collect()
}

const COMPILED: [&str; 6] = [
    "examples/demo.rs",
    "src/cli/entry.rs",
    "src/generated/api.rs",
    "src/inline/nested.rs",
    "src/other.rs",
    "src/unix.rs",
];

#[test]
fn only_the_files_of_the_module_trees_are_linted() {
    let (_tmp, root) = package();
    let run = mcp_lint(&root, &["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(files_with_findings(&run), set(&COMPILED), "{run:?}");
    // The same from a directory inside the package, and without the cache.
    let run = mcp_lint(&root, &["check", "--format", "json", "--no-cache", "src"]);
    let in_src: Vec<&str> = COMPILED
        .iter()
        .copied()
        .filter(|f| f.starts_with("src/"))
        .collect();
    assert_eq!(files_with_findings(&run), set(&in_src), "{run:?}");
    // From inside `src/`, where the paths shown are relative to it.
    let run = mcp_lint(
        &root.join("src"),
        &["check", "--format", "json", "--no-cache", "."],
    );
    let shown: Vec<&str> = in_src
        .iter()
        .map(|f| f.strip_prefix("src/").unwrap_or(f))
        .collect();
    assert_eq!(files_with_findings(&run), set(&shown), "{run:?}");
}

#[test]
fn a_file_named_on_the_command_line_is_linted_even_when_no_mod_declares_it() {
    let (_tmp, root) = package();
    let run = mcp_lint(&root, &["check", "--format", "json", "src/stale.rs"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(files_with_findings(&run), set(&["src/stale.rs"]), "{run:?}");
    // Declared, it is linted with the rest.
    write(&root, "src/lib.rs", "mod stale;\n");
    let run = mcp_lint(&root, &["check", "--format", "json"]);
    assert!(
        files_with_findings(&run).contains("src/stale.rs"),
        "{run:?}"
    );
}

#[test]
fn autobins_false_leaves_out_undeclared_binaries_and_loose_files_are_linted() {
    let (_tmp, root) = project(&[
        (
            "Cargo.toml",
            "[package]\nname = \"s\"\nversion = \"0.1.0\"\nautobins = false\n\n[dependencies]\nrmcp = \"0.8\"\n",
        ),
        ("src/lib.rs", MCP001_TOOL),
        ("src/main.rs", MCP001_TOOL),
        ("src/bin/old.rs", MCP001_TOOL),
    ]);
    let run = mcp_lint(&root, &["check", "--format", "json"]);
    assert_eq!(files_with_findings(&run), set(&["src/lib.rs"]), "{run:?}");
    // No Cargo.toml: loose files, each linted.
    let (_tmp, loose) = project(&[("a.rs", MCP001_TOOL), ("b/c.rs", MCP001_TOOL)]);
    let run = mcp_lint(&loose, &["check", "--format", "json"]);
    assert_eq!(
        files_with_findings(&run),
        set(&["a.rs", "b/c.rs"]),
        "{run:?}"
    );
}

#[test]
fn cargo_mcp_lint_lints_the_targets_cargo_lists() {
    let (_tmp, root) = package();
    let run = cargo_mcp_lint(&root, &["--offline", "--message-format=json"]);
    let files: BTreeSet<String> = run
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-message")
        .filter_map(|m| {
            let file = m["message"]["spans"][0]["file_name"].as_str()?;
            let file = Path::new(file);
            Some(
                file.strip_prefix(&root)
                    .unwrap_or(file)
                    .display()
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(files, set(&COMPILED), "{run:?}");
}
