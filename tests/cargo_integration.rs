//! `cargo mcp-lint` through the real cargo (our binary first on PATH), on temporary workspaces,
//! with every output line parsed by `cargo_metadata::Message::parse_stream`, the parser
//! rust-analyzer's flycheck uses: package selection, cargo metadata copied into the messages,
//! spans, rendered forms, SDK versions from each manifest, `$CARGO`, and `--with-check`.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use cargo_metadata::diagnostic::{Diagnostic, DiagnosticLevel};
use cargo_metadata::{CompilerMessage, Message, Metadata, MetadataCommand};
use common::*;

/// A workspace whose root package `app` inherits rmcp 2.x from the workspace, with members
/// `server` (rmcp 0.8) and `plain` (no MCP at all).
fn workspace() -> (tempfile::TempDir, std::path::PathBuf) {
    project(&[
        (
            "Cargo.toml",
            r#"[package]
name = "app"
version = "0.1.0"
edition = "2021"

[dependencies]
rmcp.workspace = true

[workspace]
members = ["server", "plain"]

[workspace.dependencies]
rmcp = { version = "2.1", features = ["server"] }
"#,
        ),
        ("src/lib.rs", "mod tools;\n"),
        ("src/tools.rs", MCP001_TOOL),
        ("tests/it.rs", MCP001_TOOL),
        (
            "server/Cargo.toml",
            r#"[package]
name = "server"
version = "0.3.0"
edition = "2021"

[dependencies]
mcp = { package = "rmcp", version = "0.8", features = ["server"] }
"#,
        ),
        ("server/src/lib.rs", MCP001_TOOL),
        (
            "plain/Cargo.toml",
            "[package]\nname = \"plain\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        ("plain/src/lib.rs", CLEAN),
        ("plain/src/extra.rs", CLEAN),
    ])
}

/// Every stdout line as rust-analyzer's parser sees it; none may fall through to a text line.
fn messages(run: &Run) -> Vec<Message> {
    Message::parse_stream(run.stdout.as_bytes())
        .map(|m| m.expect("readable"))
        .inspect(|m| {
            assert!(
                !matches!(m, Message::TextLine(_)),
                "a line cargo_metadata could not parse: {m:?}\n{run:?}"
            )
        })
        .collect()
}

fn compiler_messages(run: &Run) -> Vec<CompilerMessage> {
    messages(run)
        .into_iter()
        .filter_map(|m| match m {
            Message::CompilerMessage(c) => Some(c),
            _ => None,
        })
        .collect()
}

/// The last line is cargo's `build-finished`, and no other line is.
fn build_finished(run: &Run) -> bool {
    let all = messages(run);
    let finished: Vec<bool> = all
        .iter()
        .filter_map(|m| match m {
            Message::BuildFinished(b) => Some(b.success),
            _ => None,
        })
        .collect();
    assert_eq!(finished.len(), 1, "one build-finished line: {run:?}");
    assert!(
        matches!(all.last(), Some(Message::BuildFinished(_))),
        "build-finished comes last: {run:?}"
    );
    finished[0]
}

fn metadata(root: &Path) -> Metadata {
    MetadataCommand::new()
        .no_deps()
        .current_dir(root)
        .exec()
        .expect("cargo metadata")
}

/// Names of the packages that have `mcp_lint` messages.
fn linted_packages(run: &Run, meta: &Metadata) -> BTreeSet<String> {
    compiler_messages(run)
        .iter()
        .map(|m| {
            meta.packages
                .iter()
                .find(|p| p.id == m.package_id)
                .unwrap_or_else(|| panic!("package id {} is not in cargo metadata", m.package_id))
                .name
                .to_string()
        })
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn package_selection_follows_cargo() {
    let (_tmp, root) = workspace();
    let meta = metadata(&root);
    let json = "--message-format=json";
    let cases: &[(&str, &[&str], &[&str])] = &[
        // A root package: plain `cargo check` checks just it.
        (".", &[], &["app"]),
        (".", &["--workspace"], &["app", "server"]),
        (".", &["--all"], &["app", "server"]),
        (".", &["--workspace", "--exclude", "app"], &["server"]),
        (".", &["-p", "server"], &["server"]),
        (
            ".",
            &["-p", "server", "--package", "app"],
            &["app", "server"],
        ),
        (".", &["-p", "serv*"], &["server"]),
        (".", &["-p", "server@0.3.0"], &["server"]),
        (".", &["--manifest-path", "server/Cargo.toml"], &["server"]),
        // In a member's directory, that member.
        ("server", &[], &["server"]),
        ("plain/src", &[], &[]),
        ("plain", &["--workspace"], &["app", "server"]),
    ];
    for (dir, args, expected) in cases {
        let mut all = vec![json];
        all.extend_from_slice(args);
        let run = cargo_mcp_lint(&root.join(dir), &all);
        assert_eq!(
            linted_packages(&run, &meta),
            set(expected),
            "{dir}: {args:?}\n{run:?}"
        );
        let clean = expected.is_empty();
        assert_eq!(
            run.code,
            if clean { 0 } else { 1 },
            "{dir}: {args:?}\n{run:?}"
        );
        assert_eq!(build_finished(&run), clean);
        assert_eq!(run.stderr, "", "{dir}: {args:?}\n{run:?}");
    }
    // A package id, as rust-analyzer passes it with `-p`.
    let server_id = &meta
        .packages
        .iter()
        .find(|p| p.name.as_str() == "server")
        .expect("server")
        .id
        .repr;
    let run = cargo_mcp_lint(&root, &[json, "-p", server_id]);
    assert_eq!(linted_packages(&run, &meta), set(&["server"]), "{run:?}");
}

#[test]
fn package_selection_errors_exit_two() {
    let (_tmp, root) = workspace();
    let run = cargo_mcp_lint(&root, &["--exclude", "app"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("`--exclude` can only be used together with `--workspace`"),
        "{run:?}"
    );
    let run = cargo_mcp_lint(&root, &["-p", "sever"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains(
            "package ID specification `sever` did not match any packages; did you mean `server`?"
        ),
        "{run:?}"
    );
    let (_tmp, elsewhere) = project(&[("x.rs", CLEAN)]);
    let run = cargo_mcp_lint(&elsewhere, &["--message-format=json"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("`cargo metadata` failed") && run.stderr.contains("Cargo.toml"),
        "{run:?}"
    );
    assert!(!build_finished(&run), "{run:?}");
}

#[test]
fn messages_carry_cargo_metadata_and_rustc_spans() {
    let (_tmp, root) = workspace();
    let meta = metadata(&root);
    let run = cargo_mcp_lint(&root, &["--workspace", "--message-format=json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let raw: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect();
    let messages = compiler_messages(&run);
    assert_eq!(messages.len(), 2, "{run:?}");
    for (m, raw) in messages.iter().zip(&raw) {
        let package = meta
            .packages
            .iter()
            .find(|p| p.id == m.package_id)
            .expect("package");
        // Copied verbatim from cargo metadata: the whole target, and the manifest path.
        assert_eq!(
            raw["manifest_path"].as_str(),
            Some(package.manifest_path.as_str())
        );
        let lib = package
            .targets
            .iter()
            .find(|t| t.is_lib())
            .expect("a lib target");
        assert_eq!(&m.target, lib);
        let d = &m.message;
        assert_eq!(
            d.code.as_ref().map(|c| c.code.as_str()),
            Some("mcp_lint::tool_failure_as_protocol_error")
        );
        assert_eq!(d.level, DiagnosticLevel::Error);
        let span = d.spans.iter().find(|s| s.is_primary).expect("primary span");
        // Relative to the workspace root, as cargo prints rustc's paths.
        let file = root.join(&span.file_name);
        let text = std::fs::read_to_string(&file).expect("span file exists");
        let highlighted = &text[span.byte_start as usize..span.byte_end as usize];
        assert_eq!(
            highlighted,
            "McpError::internal_error(\"database connection refused while reading orders\", None)"
        );
        let line = &span.text[0];
        assert_eq!(span.line_start, 9);
        assert_eq!(
            line.text
                .chars()
                .skip(line.highlight_start - 1)
                .take(line.highlight_end - line.highlight_start)
                .collect::<String>(),
            highlighted
        );
        assert_eq!(
            (span.column_start, span.column_end),
            (line.highlight_start, line.highlight_end)
        );
        assert!(span
            .label
            .as_deref()
            .is_some_and(|l| l.contains("never sees")));
        assert!(
            d.children
                .iter()
                .any(|c| c.level == DiagnosticLevel::Help && c.spans.is_empty()),
            "{d:?}"
        );
        let rendered = d.rendered.as_deref().expect("rendered");
        assert!(rendered.contains("error[MCP001/tool_failure_as_protocol_error]"));
        assert!(
            rendered.contains(&format!("{}:9:13", span.file_name)),
            "{rendered}"
        );
        assert!(!rendered.contains('\u{1b}'), "no colour in plain json");
    }
    let files: Vec<String> = messages
        .iter()
        .map(|m| m.message.spans[0].file_name.clone())
        .collect();
    assert_eq!(files, ["server/src/lib.rs", "src/tools.rs"]);
}

/// The help text of the single finding in `package`.
fn help_of(root: &Path, package: &str) -> String {
    let run = cargo_mcp_lint(root, &["-p", package, "--message-format=json"]);
    let messages = compiler_messages(&run);
    assert_eq!(messages.len(), 1, "{run:?}");
    messages[0]
        .message
        .children
        .iter()
        .find(|c| c.level == DiagnosticLevel::Help)
        .map(|c| c.message.clone())
        .expect("help child")
}

#[test]
fn the_rmcp_version_in_each_manifest_selects_the_help_text() {
    let (_tmp, root) = workspace();
    // `app` inherits rmcp 2.1 from [workspace.dependencies]; `server` renames rmcp 0.8.
    let app = help_of(&root, "app");
    assert!(app.contains("ContentBlock::text("), "{app}");
    let server = help_of(&root, "server");
    assert!(
        server.contains("Content::text(") && !server.contains("ContentBlock"),
        "{server}"
    );
}

#[test]
fn a_package_without_mcp_prints_nothing() {
    let (_tmp, root) = workspace();
    let run = cargo_mcp_lint(&root, &["-p", "plain", "--message-format=json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "{\"reason\":\"build-finished\",\"success\":true}\n"
    );
    assert_eq!(run.stderr, "");
    let run = cargo_mcp_lint(&root, &["-p", "plain"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "no findings (2 files checked)\n", "{run:?}");
    assert_eq!(run.stderr, "");
}

#[test]
fn files_belong_to_the_target_that_owns_them() {
    let (_tmp, root) = workspace();
    write(&root, "examples/demo.rs", MCP001_TOOL);
    let run = cargo_mcp_lint(
        &root,
        &["--include-tests", "--message-format=json", "--all-targets"],
    );
    let owners: Vec<(String, String, String)> = compiler_messages(&run)
        .iter()
        .map(|m| {
            (
                m.message.spans[0].file_name.clone(),
                m.target.kind[0].to_string(),
                m.target.name.clone(),
            )
        })
        .collect();
    assert_eq!(
        owners,
        [
            ("examples/demo.rs".into(), "example".into(), "demo".into()),
            ("src/tools.rs".into(), "lib".into(), "app".into()),
            ("tests/it.rs".into(), "test".into(), "it".into()),
        ],
        "{run:?}"
    );
}

#[test]
fn rendered_forms_follow_the_message_format() {
    let (_tmp, root) = workspace();
    let run = cargo_mcp_lint(&root, &["--message-format=json-diagnostic-rendered-ansi"]);
    let rendered = compiler_messages(&run)[0]
        .message
        .rendered
        .clone()
        .expect("rendered");
    assert!(rendered.contains('\u{1b}'), "ANSI colours: {rendered:?}");
    let run = cargo_mcp_lint(&root, &["--message-format", "json,json-diagnostic-short"]);
    assert_eq!(
        compiler_messages(&run)[0].message.rendered.as_deref(),
        Some("src/tools.rs:9:13: error[MCP001/tool_failure_as_protocol_error]: tool `f` reports a tool failure as JSON-RPC error -32603 (Internal error)\n")
    );
    // cargo's `short` is our concise format.
    let run = cargo_mcp_lint(&root, &["--message-format=short"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "src/tools.rs:9:13: error[MCP001/tool_failure_as_protocol_error]: tool `f` reports a tool failure as JSON-RPC error -32603 (Internal error)\n"
    );
    // json-render-diagnostics: the findings go to stderr, rendered; stdout keeps the rest.
    let run = cargo_mcp_lint(&root, &["--message-format=json-render-diagnostics"]);
    assert_eq!(run.code, 1);
    assert!(compiler_messages(&run).is_empty(), "{run:?}");
    assert!(!build_finished(&run));
    assert!(run.stderr.contains("error[MCP001/"), "{run:?}");
    // Conflicting formats are command-line errors.
    let run = cargo_mcp_lint(&root, &["--message-format=json", "--format", "json"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("cannot be combined"), "{run:?}");
}

#[test]
fn human_output_levels_and_exit_codes_pass_through() {
    let (_tmp, root) = workspace();
    let run = cargo_mcp_lint(&root, &["--workspace"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("server/src/lib.rs:9:13"), "{run:?}");
    assert!(
        run.stdout
            .ends_with("2 errors, 0 warnings (6 files checked)\n2 fixes available with `--fix`\n"),
        "{run:?}"
    );
    let run = cargo_mcp_lint(&root, &["--workspace", "--exit-zero"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = cargo_mcp_lint(&root, &["--workspace", "-A", "MCP001", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(report["summary"]["errors"], 0);
    // Flags that only matter to a build are accepted (and ignored).
    let run = cargo_mcp_lint(
        &root,
        &[
            "--keep-going",
            "--all-targets",
            "--lib",
            "--bins",
            "--tests",
            "--examples",
            "--benches",
            "--features",
            "x",
            "--all-features",
            "--no-default-features",
            "--target",
            "wasm32-unknown-unknown",
            "--target-dir",
            "/nonexistent/target",
            "--frozen",
            "--locked",
            "--offline",
            "-q",
            "-j",
            "1",
        ],
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("src/tools.rs:9:13"), "{run:?}");
}

#[test]
fn nonstandard_target_paths_and_their_modules_are_linted() {
    let (_tmp, root) = project(&[
        (
            "Cargo.toml",
            "[package]\nname = \"odd\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\npath = \"lib.rs\"\n\n[dependencies]\nrmcp = \"0.8\"\n",
        ),
        ("lib.rs", "mod handlers;\n"),
        ("handlers/mod.rs", MCP001_TOOL),
        ("notes/unrelated.rs", "fn broken( {\n"),
    ]);
    let run = cargo_mcp_lint(&root, &["--message-format=json"]);
    let messages = compiler_messages(&run);
    assert_eq!(messages.len(), 1, "{run:?}");
    assert_eq!(messages[0].message.spans[0].file_name, "handlers/mod.rs");
    assert_eq!(messages[0].target.name, "odd");
}

#[test]
fn cargo_from_the_environment_is_used() {
    let (_tmp, root) = workspace();
    let log = root.join("cargo.log");
    let wrapper = root.join("fake-cargo.sh");
    write(
        &root,
        "fake-cargo.sh",
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            cargo_program().to_string_lossy()
        ),
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-lint"));
    cmd.args(["mcp-lint", "--offline", "-p", "server"]);
    quiet_env(&mut cmd, &root);
    cmd.env("CARGO", &wrapper);
    let run = capture(&mut cmd);
    assert_eq!(run.code, 1, "{run:?}");
    let calls = std::fs::read_to_string(&log).expect("the wrapper was called");
    assert_eq!(
        calls.trim(),
        "metadata --format-version 1 --no-deps --offline",
        "{run:?}"
    );
}

/// A crate with no dependencies, so `cargo check` is fast and offline. `src/lib.rs` has an
/// unused variable (a rustc warning); `examples/server.rs` is rmcp code in an example, a target
/// plain `cargo check` does not build (rustc never sees it, mcp-lint lints every target).
fn tiny_crate(lib: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    project(&[
        (
            "Cargo.toml",
            "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
        ),
        ("src/lib.rs", lib),
        ("examples/server.rs", MCP001_TOOL),
    ])
}

const UNUSED_VARIABLE: &str = "pub fn f() -> u32 {\n    let unused = 1;\n    2\n}\n";

fn codes(messages: &[CompilerMessage]) -> Vec<String> {
    messages
        .iter()
        .filter_map(|m| m.message.code.as_ref().map(|c| c.code.clone()))
        .collect()
}

#[test]
fn with_check_forwards_cargo_check_and_adds_ours() {
    let (_tmp, root) = tiny_crate(UNUSED_VARIABLE);
    let run = cargo_mcp_lint(&root, &["--message-format=json", "--with-check"]);
    assert_eq!(run.code, 1, "{run:?}");
    let all = messages(&run);
    assert!(
        all.iter()
            .any(|m| matches!(m, Message::CompilerArtifact(_))),
        "cargo check's artifact lines are forwarded: {run:?}"
    );
    assert_eq!(
        codes(&compiler_messages(&run)),
        [
            "unused_variables",
            "mcp_lint::tool_failure_as_protocol_error"
        ],
        "cargo check's messages first, then ours: {run:?}"
    );
    assert!(!build_finished(&run), "our error fails the run");

    // A compile error fails the run even when mcp-lint finds nothing.
    let (_tmp, root) = tiny_crate("pub fn f() -> u32 {\n    \"not a number\"\n}\n");
    let run = cargo_mcp_lint(
        &root,
        &[
            "--message-format=json",
            "--with-check",
            "-A",
            "all",
            "--exit-zero",
        ],
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(codes(&compiler_messages(&run)), ["E0308"], "{run:?}");
    assert!(!build_finished(&run));

    // Both clean: success.
    let (_tmp, root) = tiny_crate(CLEAN);
    let run = cargo_mcp_lint(
        &root,
        &["--message-format=json", "--with-check", "-A", "MCP001"],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(compiler_messages(&run).is_empty(), "{run:?}");
    assert!(build_finished(&run));
}

#[test]
fn with_check_clippy_runs_cargo_clippy() {
    let (_tmp, root) = tiny_crate("pub fn empty(v: &[u8]) -> bool {\n    v.len() == 0\n}\n");
    let run = cargo_mcp_lint(&root, &["--message-format=json", "--with-check=clippy"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        codes(&compiler_messages(&run)),
        [
            "clippy::len_zero",
            "mcp_lint::tool_failure_as_protocol_error"
        ],
        "{run:?}"
    );
}

#[test]
fn check_subcommand_prints_cargo_messages_in_a_package_and_bare_ones_elsewhere() {
    let (_tmp, root) = workspace();
    let meta = metadata(&root);
    let run = mcp_lint(&root.join("server"), &["check", "--message-format=json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(linted_packages(&run, &meta), set(&["server"]), "{run:?}");
    // Absolute paths: `check` may cover files of several workspaces.
    let m = &compiler_messages(&run)[0];
    assert_eq!(
        Path::new(&m.message.spans[0].file_name),
        root.join("server/src/lib.rs")
    );
    assert!(!build_finished(&run));

    // No Cargo.toml: bare rustc diagnostics (rust-analyzer's second parse), absolute paths.
    let (_tmp, loose) = project(&[("server.rs", MCP001_TOOL)]);
    let run = mcp_lint(&loose, &["check", "--message-format=json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{run:?}");
    let bare: Diagnostic = serde_json::from_str(lines[0]).expect("a bare rustc diagnostic");
    assert_eq!(
        bare.code.map(|c| c.code).as_deref(),
        Some("mcp_lint::tool_failure_as_protocol_error")
    );
    assert_eq!(Path::new(&bare.spans[0].file_name), loose.join("server.rs"));
    assert!(!build_finished(&Run {
        code: run.code,
        stdout: lines[1..].join("\n"),
        stderr: String::new()
    }));
}

#[test]
fn a_baseline_written_by_mcp_lint_applies_to_cargo_mcp_lint() {
    let (_tmp, root) = workspace();
    let run = mcp_lint(&root, &["baseline"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = cargo_mcp_lint(
        &root,
        &[
            "--workspace",
            "--baseline",
            "mcp-lint-baseline.json",
            "--message-format=json",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(compiler_messages(&run).is_empty(), "{run:?}");
    assert!(build_finished(&run));
    // A new finding is reported (in a new module of the library).
    write(&root, "plain/src/server.rs", MCP001_TOOL);
    write(&root, "plain/src/lib.rs", format!("{CLEAN}mod server;\n"));
    let run = cargo_mcp_lint(
        &root,
        &[
            "--workspace",
            "--baseline",
            "mcp-lint-baseline.json",
            "--message-format=json",
        ],
    );
    assert_eq!(run.code, 1, "{run:?}");
    let files: Vec<String> = compiler_messages(&run)
        .iter()
        .map(|m| m.message.spans[0].file_name.clone())
        .collect();
    assert_eq!(files, ["plain/src/server.rs"], "{run:?}");
}

#[test]
fn fix_and_diff_work_through_cargo() {
    let (_tmp, root) = workspace();
    let run = cargo_mcp_lint(&root, &["--workspace", "--diff"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("--- a/server/src/lib.rs\n+++ b/server/src/lib.rs\n"),
        "{run:?}"
    );
    // rmcp 0.8 in `server`, 2.x in `app`: each gets its generation's block type.
    assert!(
        run.stdout.contains(
            "+        Ok(CallToolResult::error(vec![Content::text(\n+            \"database"
        ),
        "{run:?}"
    );
    assert!(
        run.stdout.contains(
            "+        Ok(CallToolResult::error(vec![ContentBlock::text(\n+            \"database"
        ),
        "{run:?}"
    );
    assert_eq!(
        read(&root, "server/src/lib.rs"),
        MCP001_TOOL,
        "--diff wrote"
    );

    let run = cargo_mcp_lint(&root, &["--workspace", "--fix"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stderr.contains("fixed 2 findings in 2 files"),
        "{run:?}"
    );
    assert!(read(&root, "server/src/lib.rs").contains("Ok(CallToolResult::error("));
    // Test code is not linted, so it is not fixed either.
    assert_eq!(read(&root, "tests/it.rs"), MCP001_TOOL);
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).expect("read")
}

#[test]
fn cargo_runs_share_the_cache_and_thread_flags_with_check() {
    let (_tmp, root) = workspace();
    let cache = root.join("target/mcp-lint-cache");
    let uncached = cargo_mcp_lint(&root, &["--workspace", "--no-cache", "--threads", "1"]);
    assert_eq!(uncached.code, 1, "{uncached:?}");
    assert!(!cache.exists(), "--no-cache wrote {}", cache.display());
    let cold = cargo_mcp_lint(&root, &["--workspace"]);
    assert!(cache.is_dir(), "no cache under {}", cache.display());
    let warm = cargo_mcp_lint(&root, &["--workspace", "--threads", "2"]);
    for run in [&cold, &warm] {
        assert_eq!(
            (run.code, &run.stdout, &run.stderr),
            (uncached.code, &uncached.stdout, &uncached.stderr),
            "{run:?}"
        );
    }
    let run = cargo_mcp_lint(&root, &["--workspace", "--threads", "x"]);
    assert_eq!(run.code, 2, "{run:?}");
}

/// A rust-mcp-sdk 0.7 `CallToolRequest` arm answering failures with an `RpcError` (the ui
/// fixture; its `//@` lines are comments to cargo).
const RUST_MCP_SDK_0_7_TOOL: &str = include_str!(
    "../ui-tests/tool_failure_as_protocol_error/rust_mcp_sdk_0_7_schema_0_7_5_locked.rs"
);

/// `cargo mcp-lint` reads the versions from the workspace's Cargo.lock as `mcp-lint check` does
/// (`cargo metadata --no-deps` gives requirements): rust-mcp-sdk 0.7 gets its fix only when the
/// lock pins rust-mcp-schema 0.7.5 or later (`CallToolError::from_message`), not with 0.7.0.
#[test]
fn cargo_mcp_lint_reads_versions_from_the_lock() {
    for (schema, fixed) in [("0.7.5", true), ("0.7.0", false)] {
        let lock = format!(
            "version = 4\n\n[[package]]\nname = \"rust-mcp-sdk\"\nversion = \"0.7.4\"\n\n[[package]]\nname = \"rust-mcp-schema\"\nversion = \"{schema}\"\n"
        );
        let (_tmp, root) = project(&[
            (
                "Cargo.toml",
                "[package]\nname = \"srv\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nrust-mcp-sdk = \"0.7\"\n",
            ),
            ("Cargo.lock", &lock),
            ("src/lib.rs", RUST_MCP_SDK_0_7_TOOL),
        ]);
        let run = cargo_mcp_lint(&root, &["--fix", "--unsafe-fixes"]);
        let after = std::fs::read_to_string(root.join("src/lib.rs")).expect("read");
        assert_eq!(
            after.contains("CallToolError::from_message("),
            fixed,
            "schema {schema}: {run:?}\n{after}"
        );
    }
}
