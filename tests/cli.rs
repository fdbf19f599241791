//! Integration tests of the `mcp-lint` binary: exit codes, output formats, level flags, config,
//! discovery and hostile input. Each test builds a project in a temporary directory and runs the
//! real binary there.

mod support;

use std::path::Path;

use serde_json::Value;
use support::{mcp_lint, project, write, Run, MCP001_SERVER};

const CLEAN: &str = "pub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n";
const BROKEN: &str = "fn main( {\n";
const PACKAGE: &str =
    "[package]\nname = \"server\"\nversion = \"0.1.0\"\n\n[dependencies]\nrmcp = \"0.8\"\n";

// ---------------------------------------------------------------- exit codes and formats

#[test]
fn clean_crate_exits_zero_with_a_summary_line() {
    let p = project(&[
        ("Cargo.toml", PACKAGE),
        ("src/lib.rs", CLEAN),
        ("src/util.rs", CLEAN),
    ]);
    let run = mcp_lint(p.path(), &["check"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout.trim(),
        "no findings (2 files checked)",
        "{run:?}"
    );
    assert_eq!(run.stderr, "", "{run:?}");
}

#[test]
fn error_finding_exits_one_and_other_files_are_still_linted() {
    let p = project(&[
        ("Cargo.toml", PACKAGE),
        ("src/lib.rs", CLEAN),
        ("src/broken.rs", BROKEN),
        ("src/z.rs", CLEAN),
    ]);
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.findings(),
        vec![("MCP900".into(), "src/broken.rs".into(), 1)]
    );
    assert_eq!(run.json()["summary"]["files"], 3);
}

#[test]
fn missing_path_exits_two_but_the_other_paths_are_linted() {
    let p = project(&[("a.rs", BROKEN)]);
    let run = mcp_lint(p.path(), &["check", "--format", "concise", "nope", "a.rs"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("error: path not found: nope"),
        "{run:?}"
    );
    assert!(run.stdout.starts_with("a.rs:1:"), "{run:?}");
}

#[test]
fn only_a_missing_path_is_an_error_and_no_summary() {
    let p = project(&[("a.rs", BROKEN)]);
    let run = mcp_lint(p.path(), &["check", "nosuchdir"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("error: path not found: nosuchdir"),
        "{run:?}"
    );
    assert!(!run.stdout.contains("no findings"), "{run:?}");
    assert!(!run.stderr.contains("no findings"), "{run:?}");
}

#[test]
fn human_output_shows_identity_location_snippet_and_summary() {
    let p = project(&[("src/broken.rs", "// a comment\nfn main( {\n")]);
    let run = mcp_lint(p.path(), &["check", "--color", "never"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[MCP900/parse_error]: "),
        "{run:?}"
    );
    assert!(run.stdout.contains("╭─[src/broken.rs:2:"), "{run:?}");
    assert!(run.stdout.contains("fn main( {"), "{run:?}");
    assert!(
        run.stdout.contains("note: mcp-lint skipped this file"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .trim_end()
            .ends_with("1 error, 0 warnings (1 file checked)"),
        "{run:?}"
    );
    assert!(
        !run.stdout.contains('\u{1b}'),
        "no colour when asked: {run:?}"
    );
}

#[test]
fn colour_follows_the_flag_and_is_off_when_piped() {
    let p = project(&[("bad.rs", BROKEN)]);
    let always = mcp_lint(p.path(), &["check", "--color", "always"]);
    assert!(always.stdout.contains('\u{1b}'), "{always:?}");
    let auto = mcp_lint(p.path(), &["check"]);
    assert!(
        !auto.stdout.contains('\u{1b}'),
        "stdout is a pipe: {auto:?}"
    );
}

#[test]
fn concise_is_one_line_per_finding() {
    let p = project(&[("b.rs", BROKEN), ("a.rs", "\n\nfn x() -> {}\n")]);
    let run = mcp_lint(p.path(), &["check", "--format=concise"]);
    assert_eq!(run.code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{run:?}");
    assert!(lines[0].starts_with("a.rs:3:"), "{run:?}");
    assert!(lines[1].starts_with("b.rs:1:"), "{run:?}");
    for line in lines {
        assert!(
            line.contains(": error[MCP900/parse_error]: could not parse"),
            "{line}"
        );
    }
}

#[test]
fn json_carries_every_agreed_field_sorted_by_path_line_column() {
    let p = project(&[("z.rs", BROKEN), ("a/b.rs", "fn f() {}\nfn g( {\n")]);
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let doc = run.json();
    assert_eq!(doc["version"], 1);
    let diagnostics = doc["diagnostics"].as_array().expect("array");
    assert_eq!(diagnostics.len(), 2);
    let d = &diagnostics[0];
    assert_eq!(d["code"], "MCP900");
    assert_eq!(d["name"], "parse_error");
    assert_eq!(d["level"], "error");
    assert_eq!(d["path"], "a/b.rs");
    assert_eq!(d["line"], 2);
    assert!(d["column"].as_u64().expect("column") >= 1);
    assert!(d["end_line"].as_u64().expect("end_line") >= 2);
    assert!(d["end_column"].as_u64().is_some());
    assert!(d["message"]
        .as_str()
        .expect("message")
        .starts_with("could not parse"));
    assert!(
        d.get("help").is_some(),
        "help is present (null when absent)"
    );
    assert_eq!(diagnostics[1]["path"], "z.rs");
    assert_eq!(doc["summary"]["errors"], 2);
    assert_eq!(doc["summary"]["warnings"], 0);
    assert_eq!(doc["summary"]["files"], 2);
}

#[test]
fn json_is_valid_with_zero_findings_and_zero_files() {
    let p = project(&[("a.rs", CLEAN)]);
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["diagnostics"], Value::Array(vec![]));
    assert_eq!(run.json()["summary"]["files"], 1);
    let empty = project(&[("README.md", "# nothing")]);
    let run = mcp_lint(empty.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["summary"]["files"], 0);
    assert!(run.stderr.contains("no Rust files found"), "{run:?}");
}

#[test]
fn paths_are_relative_to_the_current_directory_or_as_given() {
    let p = project(&[("proj/src/bad.rs", BROKEN), ("elsewhere/keep", "")]);
    let run = mcp_lint(
        &p.path().join("proj"),
        &["check", "--format", "concise", "./src"],
    );
    assert!(run.stdout.starts_with("src/bad.rs:1:"), "{run:?}");
    let outside = p.path().join("proj/src");
    let outside = outside.to_str().expect("utf-8 path");
    let run = mcp_lint(
        &p.path().join("elsewhere"),
        &["check", "--format", "concise", outside],
    );
    assert!(
        run.stdout.starts_with(&format!("{outside}/bad.rs:1:")),
        "{run:?}"
    );
    let run = mcp_lint(
        &p.path().join("elsewhere"),
        &["check", "--format", "concise", "../proj"],
    );
    assert!(run.stdout.starts_with("../proj/src/bad.rs:1:"), "{run:?}");
}

#[test]
fn statistics_count_findings_per_lint() {
    let p = project(&[("a.rs", BROKEN), ("b.rs", BROKEN), ("c.rs", CLEAN)]);
    let run = mcp_lint(p.path(), &["check", "--statistics"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "2  MCP900  parse_error  error\n2 errors, 0 warnings (3 files checked)\n"
    );
    let json = mcp_lint(p.path(), &["check", "--statistics", "--format", "json"]).json();
    assert_eq!(json["statistics"][0]["name"], "parse_error");
    assert_eq!(json["statistics"][0]["count"], 2);
    assert_eq!(json["diagnostics"].as_array().expect("array").len(), 2);
}

// ---------------------------------------------------------------- levels and exit switches

fn level_of_parse_error(dir: &Path, flags: &[&str]) -> (i32, Vec<String>) {
    let mut args = vec!["check", "--format", "json"];
    args.extend_from_slice(flags);
    let run = mcp_lint(dir, &args);
    let levels = run.json()["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| d["level"].as_str().expect("level").to_string())
        .collect();
    (run.code, levels)
}

#[test]
fn level_flags_apply_left_to_right_across_flags() {
    let p = project(&[("bad.rs", BROKEN)]);
    assert_eq!(
        level_of_parse_error(p.path(), &["-W", "meta", "-D", "MCP900"]),
        (1, vec!["error".into()])
    );
    assert_eq!(
        level_of_parse_error(p.path(), &["-D", "MCP900", "-W", "meta"]),
        (0, vec!["warning".into()])
    );
    assert_eq!(
        level_of_parse_error(p.path(), &["-A", "parse_error"]),
        (0, vec![])
    );
    assert_eq!(
        level_of_parse_error(
            p.path(),
            &[
                "--allow",
                "parse_error",
                "--forbid",
                "mcp_lint::parse_error"
            ]
        ),
        (1, vec!["error".into()])
    );
    assert_eq!(
        level_of_parse_error(p.path(), &["-A", "all"]),
        (1, vec!["error".into()]),
        "`all` spares meta lints"
    );
}

#[test]
fn unknown_selector_on_the_command_line_exits_two_with_a_suggestion() {
    let p = project(&[("a.rs", CLEAN)]);
    let run = mcp_lint(p.path(), &["check", "-D", "tool_failure_as_protocol_eror"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("did you mean `tool_failure_as_protocol_error`"),
        "{run:?}"
    );
    let run = mcp_lint(p.path(), &["check", "--target-protocol", "2025-13-01"]);
    assert_eq!(run.code, 2, "{run:?}");
}

#[test]
fn exit_zero_and_deny_warnings() {
    let p = project(&[("bad.rs", BROKEN)]);
    assert_eq!(mcp_lint(p.path(), &["check", "--exit-zero"]).code, 0);
    assert_eq!(mcp_lint(p.path(), &["check", "-W", "parse_error"]).code, 0);
    assert_eq!(
        mcp_lint(p.path(), &["check", "-W", "parse_error", "--deny-warnings"]).code,
        1
    );
    let run = mcp_lint(p.path(), &["check", "--exit-zero", "missing.rs"]);
    assert_eq!(
        run.code, 2,
        "--exit-zero does not hide a tool failure: {run:?}"
    );
}

// ---------------------------------------------------------------- config

#[test]
fn config_in_mcp_lint_toml_sets_levels_and_the_command_line_wins() {
    let p = project(&[
        ("bad.rs", BROKEN),
        (
            "mcp-lint.toml",
            "target-protocol = \"2025-06-18\"\n[lints]\nparse_error = \"warn\"\n",
        ),
    ]);
    assert_eq!(
        level_of_parse_error(p.path(), &[]),
        (0, vec!["warning".into()])
    );
    assert_eq!(
        level_of_parse_error(p.path(), &["-D", "MCP900"]),
        (1, vec!["error".into()])
    );
}

/// A hand-rolled server that answers `initialize` with protocol version 2025-11-25 and sends
/// -32001, a legacy code only from 2026-07-28 on, and whose tool rejects an argument with
/// -32602 (a tool execution error since 2025-11-25).
const HAND_ROLLED: &str = r#"use serde_json::{json, Value};

const PROTOCOL_VERSION: &str = "2025-11-25";

pub fn handle(id: &Value, method: &str, params: &Value) -> Value {
    match method {
        "initialize" => json!({ "jsonrpc": "2.0", "id": id, "result": { "protocolVersion": PROTOCOL_VERSION } }),
        "tools/call" => call_tool(id, &params["arguments"]),
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32001, "message": "session expired" } }),
    }
}

fn call_tool(id: &Value, args: &Value) -> Value {
    if args["times"].as_u64().unwrap_or(0) > 10 {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "times must be at most 10" } });
    }
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": "ok" }] } })
}
"#;

#[test]
fn a_hand_rolled_server_is_judged_by_its_declared_version_unless_a_target_is_set() {
    let p = project(&[
        (
            "Cargo.toml",
            "[package]\nname = \"hand\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde_json = \"1\"\n",
        ),
        ("src/lib.rs", HAND_ROLLED),
    ]);
    let check = |args: &[&str]| {
        let mut all = vec!["check", "--exit-zero"];
        all.extend(args);
        let json = mcp_lint(p.path(), &[&all[..], &["--format", "json"]].concat());
        let codes: Vec<String> = json.findings().into_iter().map(|f| f.0).collect();
        // The JSON format has no notes; SARIF puts them in the message.
        let sarif = mcp_lint(p.path(), &[&all[..], &["--format", "sarif"]].concat());
        (codes, sarif.stdout)
    };
    let (codes, sarif) = check(&[]);
    assert_eq!(codes, ["MCP006"], "no MCP004 under 2025-11-25");
    assert!(
        sarif.contains(
            "judged against 2025-11-25, the protocolVersion this server declares \
             (src/lib.rs:3); set `target-protocol` to override"
        ),
        "{sarif}"
    );
    // The command line wins, and so does the config, `latest` included.
    let (codes, sarif) = check(&["--target-protocol", "2026-07-28"]);
    assert_eq!(codes, ["MCP004", "MCP006"]);
    assert!(!sarif.contains("this server declares ("), "{sarif}");
    let (codes, _) = check(&["--target-protocol", "2025-06-18"]);
    assert_eq!(codes, Vec::<String>::new());
    write(p.path(), "mcp-lint.toml", "target-protocol = \"latest\"\n");
    let (codes, _) = check(&[]);
    assert_eq!(codes, ["MCP004", "MCP006"]);
}

#[test]
fn config_is_found_from_a_subdirectory_and_excludes_are_relative_to_it() {
    let p = project(&[
        (
            "mcp-lint.toml",
            "exclude = [\"crate/generated/**\", \"*.gen.rs\"]\n",
        ),
        ("crate/generated/deep/bad.rs", BROKEN),
        ("crate/src/x.gen.rs", BROKEN),
        ("crate/src/bad.rs", BROKEN),
    ]);
    let run = mcp_lint(&p.path().join("crate"), &["check", "--format", "json"]);
    assert_eq!(
        run.findings(),
        vec![("MCP900".into(), "src/bad.rs".into(), 1)],
        "{run:?}"
    );
}

#[test]
fn explicit_config_flag_is_used() {
    let p = project(&[
        ("bad.rs", BROKEN),
        ("mcp-lint.toml", "[lints]\nparse_error = \"forbid\"\n"),
        ("other.toml", "[lints]\nmeta = \"allow\"\n"),
    ]);
    let run = mcp_lint(p.path(), &["check", "--config", "other.toml"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = mcp_lint(p.path(), &["check", "--config", "missing.toml"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("could not read missing.toml"),
        "{run:?}"
    );
}

#[test]
fn config_in_cargo_toml_package_and_workspace_metadata() {
    let p = project(&[
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"a\", \"b\"]\n\n[workspace.metadata.mcp-lint.lints]\nparse_error = \"warn\"\n",
        ),
        // An MCP server: crates that never mention an MCP SDK are not parsed at all.
        (
            "a/Cargo.toml",
            "[package]\nname = \"a\"\n[dependencies]\nrmcp = \"0.8\"\n",
        ),
        ("a/src/lib.rs", BROKEN),
        (
            "b/Cargo.toml",
            "[package]\nname = \"b\"\n[package.metadata.mcp-lint]\nlints = { parse_error = \"allow\" }\n",
        ),
        ("b/src/lib.rs", BROKEN),
    ]);
    assert_eq!(
        level_of_parse_error(&p.path().join("a"), &[]),
        (0, vec!["warning".into()])
    );
    assert_eq!(level_of_parse_error(&p.path().join("b"), &[]), (0, vec![]));
}

#[test]
fn unknown_config_keys_lints_and_levels_exit_two_naming_file_key_and_suggestion() {
    let cases = [
        (
            "include-test = true\n",
            "`include-test`",
            "did you mean `include-tests`?",
        ),
        (
            "[lints]\nvague_eror_text = \"deny\"\n",
            "`lints.vague_eror_text`",
            "did you mean `vague_error_text`?",
        ),
        (
            "[lints]\nMCP003 = \"warning\"\n",
            "`lints.MCP003`",
            "did you mean `warn`?",
        ),
        (
            "target-protocol = \"2025-11-52\"\n",
            "`target-protocol`",
            "did you mean `2025-11-25`?",
        ),
        (
            "[lints]\nMCP003 = { extra-phrase = [\"x\"] }\n",
            "`lints.MCP003.extra-phrase`",
            "did you mean `extra-phrases`?",
        ),
    ];
    for (config, key, suggestion) in cases {
        let p = project(&[("a.rs", CLEAN), ("mcp-lint.toml", config)]);
        let run = mcp_lint(p.path(), &["check"]);
        assert_eq!(run.code, 2, "{config}: {run:?}");
        assert!(
            run.stderr.starts_with("error: mcp-lint.toml: "),
            "{config}: {run:?}"
        );
        assert!(run.stderr.contains(key), "{config}: {run:?}");
        assert!(run.stderr.contains(suggestion), "{config}: {run:?}");
        assert_eq!(run.stdout, "", "nothing is linted with a bad config");
    }
    let p = project(&[
        (
            "Cargo.toml",
            "[package]\nname = \"x\"\n[package.metadata.mcp-lint]\nexclud = []\n",
        ),
        ("src/lib.rs", CLEAN),
    ]);
    let run = mcp_lint(p.path(), &["check"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("Cargo.toml: `package.metadata.mcp-lint.exclud`"),
        "{run:?}"
    );
    assert!(run.stderr.contains("did you mean `exclude`?"), "{run:?}");
}

#[test]
fn options_for_the_wrong_lint_are_rejected() {
    let p = project(&[
        ("a.rs", CLEAN),
        (
            "mcp-lint.toml",
            "[lints]\nempty_error_content = { server-fault-markers = [\"x\"] }\n",
        ),
    ]);
    let run = mcp_lint(p.path(), &["check"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("applies only to `tool_failure_as_protocol_error`"),
        "{run:?}"
    );
}

// ---------------------------------------------------------------- discovery

#[test]
fn build_output_hidden_and_vendored_directories_are_skipped() {
    let p = project(&[
        ("src/ok.rs", CLEAN),
        ("target/debug/build/bad.rs", BROKEN),
        (".git/bad.rs", BROKEN),
        ("vendor/dep/bad.rs", BROKEN),
        ("third_party/bad.rs", BROKEN),
        ("web/node_modules/bad.rs", BROKEN),
    ]);
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["summary"]["files"], 1);
}

#[test]
fn explicit_files_read_their_crate_but_report_only_themselves() {
    let p = project(&[
        ("Cargo.toml", PACKAGE),
        ("src/lib.rs", CLEAN),
        ("src/other.rs", BROKEN),
        ("tests/it.rs", BROKEN),
    ]);
    let run = mcp_lint(p.path(), &["check", "--format", "json", "src/lib.rs"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["summary"]["files"], 1);
    let run = mcp_lint(
        p.path(),
        &["check", "--format", "json", "src/other.rs", "src/lib.rs"],
    );
    assert_eq!(
        run.findings(),
        vec![("MCP900".into(), "src/other.rs".into(), 1)]
    );
}

#[test]
fn broken_cargo_toml_exits_two_but_other_crates_are_linted() {
    let p = project(&[
        ("good/Cargo.toml", PACKAGE),
        ("good/src/lib.rs", BROKEN),
        ("bad/Cargo.toml", "[package\nname = \"bad\""),
        ("bad/src/lib.rs", CLEAN),
    ]);
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("could not parse bad/Cargo.toml"),
        "{run:?}"
    );
    assert_eq!(
        run.findings(),
        vec![("MCP900".into(), "good/src/lib.rs".into(), 1)]
    );
    assert_eq!(
        run.json()["summary"]["files"],
        2,
        "the broken crate's files are still linted"
    );
}

/// A tool that fails with a -32603 error, its SDK spelled `$root::`.
fn renamed_sdk_tool(root: &str) -> String {
    format!(
        "use {root}::{{model::CallToolResult, tool, tool_router}};\n\npub struct S;\n\n#[tool_router]\nimpl S {{\n    #[tool(description = \"d\")]\n    async fn f(&self) -> Result<CallToolResult, {root}::ErrorData> {{\n        Err({root}::ErrorData::internal_error(\"the archive is read-only\", None))\n    }}\n}}\n"
    )
}

#[test]
fn dependencies_renamed_in_cargo_toml_are_their_crate() {
    let p = project(&[
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"server\", \"examples_only\", \"other\"]\n\n[workspace.dependencies]\nmcp = { package = \"rmcp\", version = \"0.8\" }\n",
        ),
        // Inherited from the workspace, renamed there.
        (
            "server/Cargo.toml",
            "[package]\nname = \"server\"\nversion = \"0.1.0\"\n\n[dependencies]\nmcp.workspace = true\n",
        ),
        ("server/src/lib.rs", &renamed_sdk_tool("mcp")),
        // A dev-dependency, renamed, that only an example uses.
        (
            "examples_only/Cargo.toml",
            "[package]\nname = \"examples_only\"\nversion = \"0.1.0\"\n\n[dev-dependencies]\nsdk = { package = \"rmcp\", version = \"0.8\" }\n",
        ),
        ("examples_only/src/lib.rs", CLEAN),
        ("examples_only/examples/demo.rs", &renamed_sdk_tool("sdk")),
        // `rmcp` is another crate's key here: not an MCP server.
        (
            "other/Cargo.toml",
            "[package]\nname = \"other\"\nversion = \"0.1.0\"\n\n[target.'cfg(unix)'.dependencies]\nrmcp = { package = \"my-rpc\", version = \"1\" }\n",
        ),
        ("other/src/lib.rs", &renamed_sdk_tool("rmcp")),
    ]);
    let expected = vec![
        (
            "MCP001".to_string(),
            "examples_only/examples/demo.rs".to_string(),
            9,
        ),
        ("MCP001".to_string(), "server/src/lib.rs".to_string(), 9),
    ];
    for prefilter in [&[][..], &["--no-prefilter"][..]] {
        let mut args = vec!["check", "--format", "json"];
        args.extend(prefilter);
        let run = mcp_lint(p.path(), &args);
        assert_eq!(run.findings(), expected, "{prefilter:?}: {run:?}");
    }
    let run = mcp_lint(p.path(), &["check", "--diff", "server"]);
    assert!(run.stdout.contains("+use mcp::model::Content;"), "{run:?}");
}

// ---------------------------------------------------------------- hostile input

#[test]
fn non_utf8_and_binary_files_are_parse_errors_not_crashes() {
    let p = project(&[("ok.rs", CLEAN)]);
    write(p.path(), "latin1.rs", b"// caf\xe9\nfn main() {}\n");
    write(
        p.path(),
        "blob.rs",
        b"\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe",
    );
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let doc = run.json();
    let messages: Vec<(&str, &str)> = doc["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| {
            (
                d["path"].as_str().expect("path"),
                d["message"].as_str().expect("message"),
            )
        })
        .collect();
    assert_eq!(messages.len(), 2, "{run:?}");
    assert_eq!(messages[0].0, "blob.rs");
    assert!(messages[0].1.contains("binary"), "{run:?}");
    assert_eq!(messages[1].0, "latin1.rs");
    assert!(messages[1].1.contains("not valid UTF-8"), "{run:?}");
    let human = mcp_lint(p.path(), &["check"]);
    assert!(human.stdout.contains("╭─[blob.rs"), "{human:?}");
}

#[test]
fn empty_and_inner_attribute_only_files_are_clean() {
    let p = project(&[
        ("empty.rs", ""),
        ("attrs.rs", "#![allow(dead_code)]\n#![deny(unsafe_code)]\n"),
    ]);
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["summary"]["files"], 2);
}

#[test]
fn a_hundred_thousand_levels_of_nesting_is_a_parse_error() {
    let deep = format!(
        "fn f() {{ {}0{} }}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let p = project(&[("deep.rs", &deep), ("ok.rs", CLEAN)]);
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(run.findings(), vec![("MCP900".into(), "deep.rs".into(), 1)]);
    assert!(run.stdout.contains("nesting deeper"), "{run:?}");
}

#[cfg(unix)]
#[test]
fn symlink_loop_is_a_warning_and_the_rest_is_linted() {
    let p = project(&[("src/bad.rs", BROKEN)]);
    std::os::unix::fs::symlink(p.path().join("src"), p.path().join("src/loop")).expect("symlink");
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    // No file was lost (the loop's files are reached through `src`): the exit code is the
    // findings' own.
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr.contains("warning: symlink loop: src/loop"),
        "{run:?}"
    );
    assert_eq!(
        run.findings(),
        vec![("MCP900".into(), "src/bad.rs".into(), 1)]
    );
}

#[cfg(unix)]
#[test]
fn unreadable_files_and_directories_are_errors_and_the_rest_is_linted() {
    use std::os::unix::fs::PermissionsExt;
    let p = project(&[
        ("a.rs", BROKEN),
        ("secret.rs", CLEAN),
        ("locked/inner.rs", CLEAN),
    ]);
    let set_mode = |rel: &str, mode: u32| {
        std::fs::set_permissions(p.path().join(rel), std::fs::Permissions::from_mode(mode))
            .expect("chmod")
    };
    set_mode("secret.rs", 0o000);
    set_mode("locked", 0o000);
    let root_reads_anyway = std::fs::read(p.path().join("secret.rs")).is_ok();
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    set_mode("locked", 0o755);
    set_mode("secret.rs", 0o644);
    assert!(
        run.findings()
            .contains(&("MCP900".into(), "a.rs".into(), 1)),
        "{run:?}"
    );
    if root_reads_anyway {
        eprintln!(
            "running as root: permissions do not stop reads, skipping the unreadable assertions"
        );
        return;
    }
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("error: could not read secret.rs: Permission denied"),
        "{run:?}"
    );
    assert!(
        run.stderr
            .contains("error: could not read locked: Permission denied"),
        "{run:?}"
    );
}

// ---------------------------------------------------------------- rules and explain

#[test]
fn rules_lists_every_lint_in_three_formats() {
    let p = project(&[]);
    let run = mcp_lint(p.path(), &["rules"]);
    assert_eq!(run.code, 0, "{run:?}");
    let first = run.stdout.lines().next().expect("a line");
    assert!(
        first.starts_with("MCP001  tool_failure_as_protocol_error  correctness  deny "),
        "{run:?}"
    );
    for code in ["MCP001", "MCP005", "MCP010", "MCP900", "MCP903"] {
        assert!(run.stdout.contains(code), "{code}: {run:?}");
    }
    let json: Value =
        serde_json::from_str(&mcp_lint(p.path(), &["rules", "--format", "json"]).stdout)
            .expect("json");
    let rules = json.as_array().expect("array");
    assert_eq!(rules.len(), run.stdout.lines().count());
    let mcp003 = rules
        .iter()
        .find(|r| r["code"] == "MCP003")
        .expect("MCP003");
    assert_eq!(mcp003["name"], "vague_error_text");
    assert_eq!(mcp003["group"], "style");
    assert_eq!(mcp003["default_level"], "warn");
    assert!(mcp003["summary"].as_str().is_some_and(|s| !s.is_empty()));
    let md = mcp_lint(p.path(), &["rules", "--format", "markdown"]).stdout;
    assert!(
        md.starts_with("| Code | Name | Group | Default | Summary |\n|---|"),
        "{md}"
    );
    assert!(
        md.contains("| MCP010 | `panic_in_tool` | restriction | allow |"),
        "{md}"
    );
}

#[test]
fn explain_accepts_names_and_codes_and_suggests_on_typos() {
    let p = project(&[]);
    let by_code = mcp_lint(p.path(), &["explain", "mcp001"]);
    assert_eq!(by_code.code, 0, "{by_code:?}");
    assert!(
        by_code
            .stdout
            .starts_with("MCP001 tool_failure_as_protocol_error (correctness, deny by default"),
        "{by_code:?}"
    );
    assert!(by_code.stdout.contains("### What it does"), "{by_code:?}");
    let by_name = mcp_lint(p.path(), &["explain", "tool_failure_as_protocol_error"]);
    assert_eq!(by_name.stdout, by_code.stdout);
    let typo = mcp_lint(p.path(), &["explain", "vague_eror_text"]);
    assert_eq!(typo.code, 2, "{typo:?}");
    assert!(
        typo.stderr
            .contains("unknown lint `vague_eror_text`; did you mean `vague_error_text`?"),
        "{typo:?}"
    );
    let group = mcp_lint(p.path(), &["explain", "suspicious"]);
    assert_eq!(group.code, 0, "{group:?}");
    assert!(
        group.stdout.contains("MCP006") && !group.stdout.contains("MCP001"),
        "{group:?}"
    );
}

// ---------------------------------------------------------------- SDK versions

/// A turbomcp `#[tool]` whose `Err` is a JSON-RPC error in 2.x and an isError result in 3.x.
const TURBOMCP_TOOL: &str = "use turbomcp::prelude::*;\n\n#[derive(Clone)]\nstruct Calc;\n\n#[server(name = \"calc\", version = \"1.0.0\")]\nimpl Calc {\n    #[tool(\"Divide two numbers\")]\n    async fn divide(&self, a: f64, b: f64) -> McpResult<f64> {\n        if b == 0.0 {\n            return Err(McpError::invalid_request(\"b must not be 0\"));\n        }\n        Ok(a / b)\n    }\n}\n";

#[test]
fn the_sdk_version_is_the_one_cargo_lock_pins() {
    let manifest =
        "[package]\nname = \"calc\"\nversion = \"0.1.0\"\n\n[dependencies]\nturbomcp = \"*\"\n";
    let lock = |version: &str| {
        format!("version = 4\n\n[[package]]\nname = \"turbomcp\"\nversion = \"{version}\"\n")
    };
    let locked_2 = lock("2.3.7");
    let p = project(&[
        ("Cargo.toml", manifest),
        ("Cargo.lock", locked_2.as_str()),
        ("src/lib.rs", TURBOMCP_TOOL),
    ]);
    let run = mcp_lint(p.path(), &["check", "--format", "json", "--no-cache"]);
    assert_eq!(
        run.findings(),
        vec![("MCP001".into(), "src/lib.rs".into(), 11)],
        "{run:?}"
    );
    // The same server pinned at 3.x, or with no lock (`*`: the newest behaviour): no finding.
    write(p.path(), "Cargo.lock", lock("3.6.0"));
    let run = mcp_lint(p.path(), &["check", "--format", "json", "--no-cache"]);
    assert_eq!(run.findings(), vec![], "{run:?}");
    std::fs::remove_file(p.path().join("Cargo.lock")).expect("remove Cargo.lock");
    let run = mcp_lint(p.path(), &["check", "--format", "json", "--no-cache"]);
    assert_eq!(run.findings(), vec![], "{run:?}");
}

// ---------------------------------------------------------------- real MCP findings

fn assert_one_mcp001(run: &Run, path: &str) {
    assert_eq!(run.code, 1, "{run:?}");
    let doc = run.json();
    let diagnostics = doc["diagnostics"].as_array().expect("array");
    assert_eq!(diagnostics.len(), 1, "{run:?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "MCP001");
    assert_eq!(d["name"], "tool_failure_as_protocol_error");
    assert_eq!(d["level"], "error");
    assert_eq!(d["path"], path);
    assert_eq!(d["line"], 9, "the `McpError::internal_error(..)` line");
    assert_eq!(d["column"], 13, "the span starts at `McpError`");
}

#[test]
fn tool_failure_sent_as_protocol_error_in_a_crate() {
    let p = project(&[("Cargo.toml", PACKAGE), ("src/lib.rs", MCP001_SERVER)]);
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_one_mcp001(&run, "src/lib.rs");
    let concise = mcp_lint(p.path(), &["check", "--format", "concise"]);
    assert!(
        concise
            .stdout
            .starts_with("src/lib.rs:9:13: error[MCP001/tool_failure_as_protocol_error]: "),
        "{concise:?}"
    );
    let allowed = mcp_lint(p.path(), &["check", "-A", "MCP001"]);
    assert_eq!(allowed.code, 0, "{allowed:?}");
}

#[test]
fn tool_failure_sent_as_protocol_error_in_a_single_file() {
    let p = project(&[("server.rs", MCP001_SERVER)]);
    let run = mcp_lint(p.path(), &["check", "--format", "json", "server.rs"]);
    assert_one_mcp001(&run, "server.rs");
}
