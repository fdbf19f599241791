//! `mcp-lint baseline` and `check --baseline` through the binary: counts per file and lint,
//! line moves, new findings, other working directories, pruning, broken files.

mod support;

use std::path::Path;

use support::{mcp_lint, repository, write, SERVER};

const RECORDED: &str = r#"{
  "version": 1,
  "files": {
    "src/broken.rs": {
      "parse_error": {
        "count": 1
      }
    },
    "src/lib.rs": {
      "tool_failure_as_protocol_error": {
        "count": 2
      },
      "vague_error_text": {
        "count": 1
      }
    }
  }
}
"#;

/// Another tool at the end of the impl with `body` as its body.
fn with_tool(source: &str, name: &str, body: &str) -> String {
    let end = source.rfind("}\n").expect("impl end");
    format!(
        "{}\n    #[tool(description = \"{name}\")]\n    async fn {name}(&self) -> Result<CallToolResult, McpError> {{\n        {body}\n    }}\n{}",
        &source[..end],
        &source[end..]
    )
}

const PROTOCOL_ERROR: &str =
    "Err(McpError::internal_error(\"upstream rejected the order id\", None))";
const VAGUE: &str = "Ok(CallToolResult::error(vec![Content::text(\"Oops\")]))";

/// `check --format concise --baseline mcp-lint-baseline.json` in `dir`.
fn check_with_baseline(dir: &Path) -> support::Run {
    mcp_lint(
        dir,
        &[
            "check",
            "--format",
            "concise",
            "--baseline",
            "mcp-lint-baseline.json",
        ],
    )
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn baseline_records_counts_and_check_then_reports_nothing() {
    let repo = repository();
    let server = repo.path().join("server");
    let run = mcp_lint(&server, &["baseline"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        "wrote `mcp-lint-baseline.json`: 4 findings in 2 files\n"
    );
    assert_eq!(read(&server.join("mcp-lint-baseline.json")), RECORDED);

    let check = mcp_lint(&server, &["check", "--baseline", "mcp-lint-baseline.json"]);
    assert_eq!(check.code, 0, "{check:?}");
    assert_eq!(check.stdout, "no findings (2 files checked)\n");
    assert_eq!(
        check.stderr,
        "note: 4 findings recorded in the baseline `mcp-lint-baseline.json` not reported\n"
    );
    // Without it, the findings are back.
    assert_eq!(mcp_lint(&server, &["check"]).code, 1);
}

#[test]
fn moved_lines_do_not_break_the_baseline() {
    let repo = repository();
    let server = repo.path().join("server");
    assert_eq!(mcp_lint(&server, &["baseline"]).code, 0);
    // Code above the findings, and the tools in another order.
    let f_start = SERVER.find("    #[tool(description = \"d\")]").unwrap();
    let g_start = SERVER.find("    #[tool(description = \"g\")]").unwrap();
    let moved = format!(
        "// a header\n// that moves every line\n\n{}{}\n{}",
        &SERVER[..f_start],
        &SERVER[g_start..SERVER.rfind("}\n").unwrap()],
        &SERVER[f_start..g_start].trim_end()
    ) + "\n}\n";
    write(&server, "src/lib.rs", &moved);
    let check = check_with_baseline(&server);
    assert_eq!(check.code, 0, "{check:?}");
    assert_eq!(check.stdout, "", "{check:?}");
    let unbaselined = mcp_lint(&server, &["check", "--format", "concise"]);
    assert_eq!(unbaselined.stdout.lines().count(), 4, "{unbaselined:?}");
}

#[test]
fn only_the_excess_is_reported_and_it_is_the_last_by_position() {
    let repo = repository();
    let server = repo.path().join("server");
    assert_eq!(mcp_lint(&server, &["baseline"]).code, 0);
    let source = with_tool(SERVER, "z", PROTOCOL_ERROR);
    let new_line = source
        .lines()
        .position(|l| l.contains("upstream rejected"))
        .unwrap()
        + 1;
    write(&server, "src/lib.rs", &source);
    let check = check_with_baseline(&server);
    assert_eq!(check.code, 1, "{check:?}");
    let lines: Vec<&str> = check.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{check:?}");
    assert!(
        lines[0].starts_with(&format!("src/lib.rs:{new_line}:13: error[MCP001/")),
        "{check:?}"
    );
    assert!(
        check
            .stderr
            .contains("note: 4 findings recorded in the baseline"),
        "{check:?}"
    );

    // A new finding above the recorded ones: still one reported (the counts cannot tell which
    // one is new; the last by position is).
    let above = SERVER.replacen(
        "        let _café",
        &format!("        if true {{ return {PROTOCOL_ERROR}; }}\n        let _café"),
        1,
    );
    write(&server, "src/lib.rs", &above);
    let check = check_with_baseline(&server);
    assert_eq!(check.code, 1, "{check:?}");
    let lines: Vec<&str> = check.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{check:?}");
    assert!(
        lines[0].starts_with("src/lib.rs:15:13: error[MCP001/"),
        "{check:?}"
    );

    // A lint the file never had is new in full.
    write(&server, "src/lib.rs", with_tool(SERVER, "z", VAGUE));
    let check = check_with_baseline(&server);
    assert_eq!(check.code, 0, "warnings only: {check:?}");
    assert_eq!(check.stdout.lines().count(), 1, "{check:?}");
    assert!(
        check.stdout.contains("warning[MCP003/vague_error_text]"),
        "{check:?}"
    );
}

#[test]
fn the_baseline_works_from_any_working_directory() {
    let repo = repository();
    let root = repo.path();
    // Written from the repository root into another directory: paths are relative to it.
    let run = mcp_lint(
        root,
        &["baseline", "server", "--output", "ci/baseline.json"],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let text = read(&root.join("ci/baseline.json"));
    assert!(text.contains("\"../server/src/lib.rs\""), "{text}");
    assert!(text.contains("\"../server/src/broken.rs\""), "{text}");

    for (cwd, args) in [
        (
            root.to_path_buf(),
            vec!["check", "server", "--baseline", "ci/baseline.json"],
        ),
        (
            root.join("server"),
            vec!["check", "--baseline", "../ci/baseline.json"],
        ),
        (
            root.join("server/src"),
            vec!["check", "..", "--baseline", "../../ci/baseline.json"],
        ),
        (
            root.join("ci"),
            vec![
                "check",
                "../server/src/lib.rs",
                "--baseline",
                "baseline.json",
            ],
        ),
    ] {
        let check = mcp_lint(&cwd, &args);
        assert_eq!(check.code, 0, "{args:?} in {}: {check:?}", cwd.display());
        assert!(check.stdout.starts_with("no findings"), "{check:?}");
    }
}

#[test]
fn missing_and_broken_baselines_are_errors() {
    let repo = repository();
    let server = repo.path().join("server");
    let run = mcp_lint(&server, &["check", "--baseline", "nope.json"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: baseline file `nope.json` not found (write one with `mcp-lint baseline --output nope.json`)\n"
    );
    assert_eq!(run.stdout, "", "nothing is linted: {run:?}");

    for (text, expected) in [
        (
            "{ not json",
            "is not a valid mcp-lint baseline: key must be a string at line 1 column 3",
        ),
        (
            "{\"version\": 2, \"files\": {}}",
            "is not a valid mcp-lint baseline: version 2 is not supported",
        ),
        (
            "{\"version\": 1, \"files\": {\"a.rs\": {\"x\": 3}}}",
            "is not a valid mcp-lint baseline: invalid type: integer `3`",
        ),
    ] {
        write(&server, "bad.json", text);
        let run = mcp_lint(&server, &["check", "--baseline", "bad.json"]);
        assert_eq!(run.code, 2, "{run:?}");
        assert!(run.stderr.starts_with("error: `bad.json` "), "{run:?}");
        assert!(run.stderr.contains(expected), "{expected}: {run:?}");

        // `baseline` does not overwrite a file it cannot read.
        let run = mcp_lint(&server, &["baseline", "--output", "bad.json"]);
        assert_eq!(run.code, 2, "{run:?}");
        assert_eq!(read(&server.join("bad.json")), text);
    }

    let run = mcp_lint(&server, &["baseline", "--prune"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("baseline file `mcp-lint-baseline.json` not found"),
        "{run:?}"
    );
    assert!(!server.join("mcp-lint-baseline.json").exists());

    // A path that does not exist: nothing is written.
    let run = mcp_lint(&server, &["baseline", "nope"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(!server.join("mcp-lint-baseline.json").exists(), "{run:?}");
}

#[test]
fn prune_lowers_fixed_counts_and_never_admits_new_findings() {
    let repo = repository();
    let server = repo.path().join("server");
    assert_eq!(mcp_lint(&server, &["baseline"]).code, 0);

    // Fix tool `g` (one MCP001 fewer), add a vague message (one MCP003 more), delete the broken
    // file.
    let g_start = SERVER.find("    #[tool(description = \"g\")]").unwrap();
    let h_start = SERVER.find("    #[tool(description = \"h\")]").unwrap();
    let fixed = format!("{}{}", &SERVER[..g_start], &SERVER[h_start..]);
    write(&server, "src/lib.rs", with_tool(&fixed, "z", VAGUE));
    std::fs::remove_file(server.join("src/broken.rs")).unwrap();

    let check = check_with_baseline(&server);
    assert_eq!(check.code, 0, "{check:?}");
    assert_eq!(check.stdout.lines().count(), 1, "the new MCP003: {check:?}");
    assert!(
        check.stderr.contains(
            "note: 1 finding recorded in the baseline `mcp-lint-baseline.json` no longer occurs; \
             lower the counts with `mcp-lint baseline --prune --output mcp-lint-baseline.json`"
        ),
        "{check:?}"
    );

    let prune = mcp_lint(&server, &["baseline", "--prune"]);
    assert_eq!(prune.code, 0, "{prune:?}");
    assert_eq!(
        prune.stderr,
        "pruned `mcp-lint-baseline.json`: 2 findings fewer, it now records 2 findings in 1 file\n"
    );
    assert_eq!(
        read(&server.join("mcp-lint-baseline.json")),
        r#"{
  "version": 1,
  "files": {
    "src/lib.rs": {
      "tool_failure_as_protocol_error": {
        "count": 1
      },
      "vague_error_text": {
        "count": 1
      }
    }
  }
}
"#
    );
    // The new MCP003 is still reported.
    let check = mcp_lint(
        &server,
        &[
            "check",
            "--format",
            "concise",
            "--deny-warnings",
            "--baseline",
            "mcp-lint-baseline.json",
        ],
    );
    assert_eq!(check.code, 1, "{check:?}");
    assert!(
        check.stdout.contains("MCP003/vague_error_text"),
        "{check:?}"
    );
    assert!(!check.stderr.contains("no longer occur"), "{check:?}");
}

#[test]
fn a_partial_baseline_run_keeps_the_other_files_entries() {
    let repo = repository();
    let server = repo.path().join("server");
    assert_eq!(mcp_lint(&server, &["baseline"]).code, 0);
    write(
        &server,
        "src/lib.rs",
        with_tool(SERVER, "z", PROTOCOL_ERROR),
    );
    let run = mcp_lint(&server, &["baseline", "src/lib.rs"]);
    assert_eq!(run.code, 0, "{run:?}");
    let text = read(&server.join("mcp-lint-baseline.json"));
    assert_eq!(
        text,
        RECORDED.replace(
            "\"tool_failure_as_protocol_error\": {\n        \"count\": 2",
            "\"tool_failure_as_protocol_error\": {\n        \"count\": 3"
        )
    );
    // Prune on a partial run only judges the files checked.
    write(&server, "src/lib.rs", SERVER);
    let run = mcp_lint(&server, &["baseline", "--prune", "src/lib.rs"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(read(&server.join("mcp-lint-baseline.json")), RECORDED);
}
