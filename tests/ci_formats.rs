//! The CI formats through the binary and the clients' own parsers: SARIF checked by Microsoft's
//! SARIF validator (`@microsoft/sarif-multitool`, installed by `.ci/run`), GitHub annotations
//! line by line, JUnit parsed as XML.
//!
//! The validator is found through `MCP_LINT_SARIF_MULTITOOL`, else in the cache `.ci/run`
//! installs it to (`$XDG_CACHE_HOME` or `~/.cache`, then `mcp-lint/sarif-multitool`), else as
//! `sarif-multitool` on `PATH`. The validator tests are `#[ignore]`d, so a plain `cargo test`
//! lists them as ignored; `cargo test --test ci_formats -- --ignored` (which `.ci/run` runs)
//! runs them, and fails when the validator cannot be found.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use lints::{Applicability, Diagnostic, Edit, FileReport, Fix, SourceFile};
use serde_json::Value;

mod support;

use support::{mcp_lint, repository, write};

// ---------------------------------------------------------------- SARIF

/// The validator's command line, or `None` when it is not installed.
fn validator() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("MCP_LINT_SARIF_MULTITOOL") {
        return Some(PathBuf::from(path));
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")));
    if let Some(cache) = cache {
        let bin = cache.join("mcp-lint/sarif-multitool/node_modules/.bin/sarif-multitool");
        if bin.is_file() {
            return Some(bin);
        }
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("sarif-multitool"))
        .find(|p| p.is_file())
}

/// The validator; a test that needs it fails without it (it is `#[ignore]`d, so it runs only
/// when asked for).
fn validator_or_fail() -> PathBuf {
    validator().unwrap_or_else(|| {
        panic!(
            "the SARIF validator is not installed: install it with `npm install --prefix \
             ~/.cache/mcp-lint/sarif-multitool @microsoft/sarif-multitool` (or run `bash \
             .ci/run`), or point MCP_LINT_SARIF_MULTITOOL at the `sarif-multitool` binary"
        )
    })
}

/// One problem the validator reported.
#[derive(Debug)]
struct Problem {
    level: String,
    rule: String,
    message: String,
}

/// Run `sarif-multitool validate` on `file` and read its own SARIF output: every result at
/// level `error` (and, for the record, `warning`).
fn validate(validator: &Path, file: &Path) -> Vec<Problem> {
    let out = file.with_extension("validation.sarif");
    let output = Command::new(validator)
        .arg("validate")
        .arg(file)
        .arg("--output")
        .arg(&out)
        .args(["--log", "ForceOverwrite"])
        .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run the SARIF validator {}: {e}",
                validator.display()
            )
        });
    let console = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "the validator failed to run ({}):\n{console}",
        output.status
    );
    let text = std::fs::read_to_string(&out)
        .unwrap_or_else(|e| panic!("the validator wrote no log ({e}):\n{console}"));
    let log: Value = serde_json::from_str(&text).expect("the validator's log is JSON");
    let run = &log["runs"][0];
    assert_eq!(
        run["invocations"][0]["executionSuccessful"], true,
        "the validator did not complete:\n{console}"
    );
    let messages: Vec<String> = console
        .lines()
        .filter(|l| l.contains(": error ") || l.contains(": warning "))
        .map(str::to_string)
        .collect();
    run["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let rule = r["ruleId"].as_str().unwrap_or_default().to_string();
            Problem {
                level: r["level"].as_str().unwrap_or("warning").to_string(),
                message: messages
                    .iter()
                    .find(|m| m.contains(&rule))
                    .cloned()
                    .unwrap_or_default(),
                rule,
            }
        })
        .collect()
}

/// The validator found no errors in `file`; warnings are printed.
fn assert_valid(validator: &Path, file: &Path) {
    let problems = validate(validator, file);
    for p in problems.iter().filter(|p| p.level != "error") {
        let _ = writeln!(
            std::io::stderr(),
            "validator {}: {} {}",
            p.level,
            p.rule,
            p.message
        );
    }
    let errors: Vec<&Problem> = problems.iter().filter(|p| p.level == "error").collect();
    assert!(
        errors.is_empty(),
        "the SARIF validator reports errors in {}:\n{errors:#?}\n{}",
        file.display(),
        std::fs::read_to_string(file).unwrap_or_default()
    );
}

#[test]
#[ignore = "needs the SARIF validator; set MCP_LINT_SARIF_MULTITOOL (.ci/run installs it) and run with --ignored"]
fn sarif_passes_the_official_validator() {
    let validator = validator_or_fail();
    let repo = repository();
    let run = mcp_lint(&repo.path().join("server"), &["check", "--format", "sarif"]);
    assert_eq!(run.code, 1, "{run:?}");
    let file = repo.path().join("mcp-lint.sarif");
    std::fs::write(&file, &run.stdout).unwrap();
    assert_valid(&validator, &file);

    // A clean run is a valid log too.
    let clean = mcp_lint(
        &repo.path().join("server"),
        &["check", "--format", "sarif", "-A", "all", "src/lib.rs"],
    );
    assert_eq!(clean.code, 0, "{clean:?}");
    let file = repo.path().join("clean.sarif");
    std::fs::write(&file, &clean.stdout).unwrap();
    assert_valid(&validator, &file);
}

#[test]
#[ignore = "needs the SARIF validator; set MCP_LINT_SARIF_MULTITOOL (.ci/run installs it) and run with --ignored"]
fn sarif_with_fixes_and_the_demo_server_pass_the_validator() {
    let validator = validator_or_fail();
    let dir = tempfile::tempdir().unwrap();
    // A fix written by hand, on a non-ASCII line (UTF-16 columns); the demo server below carries
    // the lints' own fixes.
    let text = "fn f() {\n    let é = 1; Err(\"é\".into())\n}\n";
    write(dir.path(), "src/a.rs", text);
    let source = SourceFile::new("src/a.rs".into(), text.to_string());
    let start = text.find("Err").unwrap();
    let end = text.find(")\n}").unwrap() + 1;
    let lint = lints::registry::find("MCP001").unwrap();
    let mut d = Diagnostic::new(lint, source.span(start, end), "a failure").with_help("do this");
    d.fix = Some(Fix {
        message: "return a tool error".into(),
        applicability: Applicability::MaybeIncorrect,
        edits: vec![Edit {
            start,
            end,
            replacement: "Ok(CallToolResult::error(vec![]))".into(),
        }],
    });
    let reports = [FileReport {
        path: PathBuf::from("src/a.rs"),
        source: Some(Arc::new(source)),
        diagnostics: vec![d],
    }];
    let mut out = Vec::new();
    mcp_lint::report::sarif::write(&mut out, &reports, dir.path()).unwrap();
    let doc: Value = serde_json::from_slice(&out).unwrap();
    assert!(doc["runs"][0]["results"][0]["fixes"][0]["artifactChanges"].is_array());
    let file = dir.path().join("fix.sarif");
    std::fs::write(&file, &out).unwrap();
    assert_valid(&validator, &file);

    let demo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = mcp_lint(
        demo,
        &["check", "--format", "sarif", "examples/demo-server"],
    );
    assert_eq!(run.code, 1, "{run:?}");
    let file = dir.path().join("demo.sarif");
    std::fs::write(&file, &run.stdout).unwrap();
    assert_valid(&validator, &file);
}

#[test]
#[ignore = "needs the SARIF validator; set MCP_LINT_SARIF_MULTITOOL (.ci/run installs it) and run with --ignored"]
fn sarif_with_related_locations_in_the_same_and_another_file_passes_the_validator() {
    let validator = validator_or_fail();
    let dir = tempfile::tempdir().unwrap();
    let tools = "fn check() -> Result<(), McpError> {\n    Err(McpError::internal_error(\"x\", None))\n}\nfn read() { check()?; }\n";
    let helpers =
        "fn load() {\n    let _ = \"🦀\"; Err(McpError::invalid_params(\"[y]\", None))\n}\n";
    write(dir.path(), "src/tools.rs", tools);
    write(dir.path(), "src/helpers.rs", helpers);
    let source = |path: &str, text: &str| Arc::new(SourceFile::new(path.into(), text.into()));
    let (tools_src, helpers_src) = (
        source("src/tools.rs", tools),
        source("src/helpers.rs", helpers),
    );
    let span = |file: &SourceFile, needle: &str| {
        let start = file.text.find(needle).unwrap();
        file.span(start, start + needle.len())
    };
    let lint = lints::registry::find("MCP001").unwrap();
    let d = Diagnostic::new(lint, span(&tools_src, "check()?"), "a failure")
        .with_related(
            "src/tools.rs",
            span(&tools_src, "McpError::internal_error(\"x\", None)"),
            "`check` builds the error here",
        )
        .with_related(
            "src/helpers.rs",
            span(&helpers_src, "McpError::invalid_params(\"[y]\", None)"),
            "`load` builds the error [here]",
        );
    let reports = [
        FileReport {
            path: PathBuf::from("src/helpers.rs"),
            source: Some(helpers_src),
            diagnostics: Vec::new(),
        },
        FileReport {
            path: PathBuf::from("src/tools.rs"),
            source: Some(tools_src),
            diagnostics: vec![d],
        },
    ];
    let mut out = Vec::new();
    mcp_lint::report::sarif::write(&mut out, &reports, dir.path()).unwrap();
    let doc: Value = serde_json::from_slice(&out).unwrap();
    let related = &doc["runs"][0]["results"][0]["relatedLocations"];
    assert_eq!(related.as_array().map(Vec::len), Some(2), "{doc}");
    assert_eq!(
        related[1]["physicalLocation"]["artifactLocation"]["uri"],
        "src/helpers.rs"
    );
    let file = dir.path().join("related.sarif");
    std::fs::write(&file, &out).unwrap();
    assert_valid(&validator, &file);
}

/// The harness is not vacuous: the validator's errors reach the test.
#[test]
#[ignore = "needs the SARIF validator; set MCP_LINT_SARIF_MULTITOOL (.ci/run installs it) and run with --ignored"]
fn the_validator_harness_sees_errors() {
    let validator = validator_or_fail();
    let repo = repository();
    let run = mcp_lint(&repo.path().join("server"), &["check", "--format", "sarif"]);
    let mut doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let result = &mut doc["runs"][0]["results"][0];
    result["ruleIndex"] = 999.into();
    result["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into();
    let file = repo.path().join("broken.sarif");
    std::fs::write(&file, serde_json::to_string(&doc).unwrap()).unwrap();
    let problems = validate(&validator, &file);
    let errors: Vec<&str> = problems
        .iter()
        .filter(|p| p.level == "error")
        .map(|p| p.rule.as_str())
        .collect();
    assert!(errors.contains(&"SARIF1009"), "{problems:#?}");
    assert!(errors.contains(&"JSON1008"), "{problems:#?}");
}

#[test]
fn sarif_locations_are_repository_relative_with_utf16_columns() {
    let repo = repository();
    let run = mcp_lint(&repo.path().join("server"), &["check", "--format", "sarif"]);
    assert_eq!(run.code, 1, "{run:?}");
    let doc: Value = serde_json::from_str(&run.stdout).expect("SARIF is JSON");
    let run0 = &doc["runs"][0];
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    let found: Vec<(String, String, Value, String)> = run0["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
            assert_eq!(
                rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"],
                r["ruleId"]
            );
            (
                r["ruleId"].as_str().unwrap().to_string(),
                loc["artifactLocation"]["uri"].as_str().unwrap().to_string(),
                loc["region"].clone(),
                r["level"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let region = |l1: u64, c1: u64, l2: u64, c2: u64| serde_json::json!({"startLine": l1, "startColumn": c1, "endLine": l2, "endColumn": c2});
    assert_eq!(
        found,
        vec![
            (
                "parse_error".into(),
                "server/src/broken.rs".into(),
                region(1, 10, 1, 11),
                "error".into()
            ),
            // 37 characters in, but '🦀' is two UTF-16 units.
            (
                "tool_failure_as_protocol_error".into(),
                "server/src/lib.rs".into(),
                region(9, 38, 9, 120),
                "error".into()
            ),
            (
                "tool_failure_as_protocol_error".into(),
                "server/src/lib.rs".into(),
                region(14, 13, 17, 10),
                "error".into()
            ),
            (
                "vague_error_text".into(),
                "server/src/lib.rs".into(),
                region(22, 53, 22, 75),
                "warning".into()
            ),
        ]
    );
    // The base is declared, but the log names no path of the machine it was made on.
    let base = &run0["originalUriBaseIds"]["%SRCROOT%"];
    assert!(base.get("uri").is_none(), "{base}");
    let root = std::fs::canonicalize(repo.path()).unwrap();
    assert!(
        !run.stdout.contains(root.to_str().unwrap()),
        "{}",
        run.stdout
    );
    assert_eq!(
        run0["tool"]["driver"]["informationUri"],
        env!("CARGO_PKG_REPOSITORY")
    );

    // The same bytes every time.
    let again = mcp_lint(&repo.path().join("server"), &["check", "--format", "sarif"]);
    assert_eq!(again.stdout, run.stdout);
}

// ---------------------------------------------------------------- GitHub annotations

#[test]
fn github_annotations_from_a_subdirectory_name_repository_paths() {
    let repo = repository();
    let run = mcp_lint(
        &repo.path().join("server"),
        &["check", "--format", "github"],
    );
    assert_eq!(run.code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "::error title=mcp-lint (MCP900/parse_error),file=server/src/broken.rs,line=1,col=10,endLine=1,endColumn=11::src/broken.rs:1:10: could not parse this file: this `{` is never closed",
            "::error title=mcp-lint (MCP001/tool_failure_as_protocol_error),file=server/src/lib.rs,line=9,col=37,endLine=9,endColumn=119::src/lib.rs:9:37: tool `f` reports a tool failure as JSON-RPC error -32603 (Internal error)",
            "::error title=mcp-lint (MCP001/tool_failure_as_protocol_error),file=server/src/lib.rs,line=14,endLine=17::src/lib.rs:14:13: tool `g` reports a tool failure as JSON-RPC error -32603 (Internal error)",
            "::warning title=mcp-lint (MCP003/vague_error_text),file=server/src/lib.rs,line=22,col=53,endLine=22,endColumn=75::src/lib.rs:22:53: vague error text \"Something went wrong\"",
        ],
        "{run:?}"
    );
    assert_eq!(run.stderr, "");
}

// ---------------------------------------------------------------- JUnit

/// A JUnit test case: name, line and failure type.
type Case<'a> = (&'a str, &'a str, &'a str);

#[test]
fn junit_is_well_formed_with_a_suite_per_file() {
    let repo = repository();
    let run = mcp_lint(&repo.path().join("server"), &["check", "--format", "junit"]);
    assert_eq!(run.code, 1, "{run:?}");
    let doc = roxmltree::Document::parse(&run.stdout).unwrap_or_else(|e| panic!("{e}\n{run:?}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("tests"), Some("4"));
    assert_eq!(root.attribute("failures"), Some("4"));
    let suites: Vec<(&str, Vec<Case>)> = root
        .children()
        .filter(|n| n.is_element())
        .map(|suite| {
            let cases = suite
                .children()
                .filter(|n| n.is_element())
                .map(|case| {
                    let failure = case.first_element_child().expect("a failure per finding");
                    assert_eq!(failure.tag_name().name(), "failure");
                    (
                        case.attribute("name").unwrap(),
                        case.attribute("line").unwrap(),
                        failure.attribute("type").unwrap(),
                    )
                })
                .collect();
            (suite.attribute("name").unwrap(), cases)
        })
        .collect();
    assert_eq!(
        suites,
        vec![
            ("src/broken.rs", vec![("MCP900/parse_error", "1", "error")]),
            (
                "src/lib.rs",
                vec![
                    ("MCP001/tool_failure_as_protocol_error", "9", "error"),
                    ("MCP001/tool_failure_as_protocol_error", "14", "error"),
                    ("MCP003/vague_error_text", "22", "warning"),
                ]
            ),
        ]
    );

    let clean = mcp_lint(
        &repo.path().join("server"),
        &["check", "--format", "junit", "-A", "all", "src/lib.rs"],
    );
    assert_eq!(clean.code, 0, "{clean:?}");
    let doc = roxmltree::Document::parse(&clean.stdout).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
}

#[test]
fn statistics_with_a_ci_format_print_the_table() {
    let repo = repository();
    let run = mcp_lint(
        &repo.path().join("server"),
        &["check", "--format", "github", "--statistics"],
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("2  MCP001  tool_failure_as_protocol_error"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .trim_end()
            .ends_with("3 errors, 1 warning (2 files checked)"),
        "{run:?}"
    );
}
