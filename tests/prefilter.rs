//! The prefilter must not change what mcp-lint finds: the same corpus, linted with and
//! without `--no-prefilter`, gives the same findings. The one documented difference is that a
//! package which never mentions an MCP SDK is not parsed, so its syntax errors are not
//! reported (`parse_error`); the test pins that difference exactly.

mod support;

use std::collections::BTreeSet;
use std::path::Path;

use support::{copy_tree, mcp_lint, write, MCP001_SERVER};

/// A package: name, Cargo.toml, files.
type Package<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// Real servers, mcp-lint's own sources, loose fixtures, and packages built to sit right at
/// the prefilter's edges.
fn corpus() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_tree(&repo.join("tests/eval"), &root.join("eval"));
    copy_tree(&repo.join("examples/demo-server"), &root.join("demo"));
    copy_tree(&repo.join("ui-tests"), &root.join("ui"));
    // mcp-lint itself: big, and it names rmcp in strings, comments and docs.
    copy_tree(&repo.join("src"), &root.join("self/src"));
    copy_tree(&repo.join("lints/src"), &root.join("self/lints/src"));
    write(root, "self/Cargo.toml", "[package]\nname = \"self\"\n");
    write(
        root,
        "self/lints/Cargo.toml",
        "[package]\nname = \"lints\"\n",
    );

    let tool_code = MCP001_SERVER.replace("use rmcp::{", "use sdk::{");
    let edges: [Package; 8] = [
        // rmcp only in prose: no dialect, so nothing to find even in tool-shaped code.
        (
            "comment-only",
            "[package]\nname = \"comment-only\"\n",
            &[("src/lib.rs", "// Follows rmcp-style naming; see the rmcp 0.8 docs.\n")],
        ),
        // A renamed dependency: the manifest names the SDK, the code never does.
        (
            "renamed",
            "[package]\nname = \"renamed\"\n[dependencies]\nsdk = { package = \"rmcp\", version = \"0.8\" }\n",
            &[("src/lib.rs", &tool_code)],
        ),
        // `use rmcp as sdk;` in one file, the tools in another.
        (
            "alias-only",
            "[package]\nname = \"alias-only\"\n",
            &[
                ("src/lib.rs", "mod tools;\nuse rmcp as sdk;\n"),
                ("src/tools.rs", &tool_code),
            ],
        ),
        // `rmcp::` in a doc comment is enough for the dialect.
        (
            "doc-path",
            "[package]\nname = \"doc-path\"\n",
            &[(
                "src/lib.rs",
                "//! Tools over rmcp::model.\nuse sdk::*;\npub fn f() -> Result<CallToolResult, McpError> {\n    Err(McpError::internal_error(\"x\", None))\n}\n",
            )],
        ),
        // A suppression but no SDK: unused_suppression still applies.
        (
            "suppressed",
            "[package]\nname = \"suppressed\"\n",
            &[(
                "src/lib.rs",
                "// mcp-lint: allow(vague_error_text) kept on purpose\npub fn f() {}\n",
            )],
        ),
        // The SDK's own crates are not servers.
        (
            "rmcp-macros",
            "[package]\nname = \"rmcp-macros\"\n[dependencies]\nrmcp = \"0.8\"\n",
            &[("src/lib.rs", MCP001_SERVER)],
        ),
        // An MCP server with a broken file: reported either way.
        (
            "broken-server",
            "[package]\nname = \"broken-server\"\n[dependencies]\nrmcp = \"0.8\"\n",
            &[("src/lib.rs", MCP001_SERVER), ("src/bad.rs", "fn main( {\n")],
        ),
        // No SDK anywhere and a syntax error: parsed only with --no-prefilter.
        (
            "broken-plain",
            "[package]\nname = \"broken-plain\"\n",
            &[("src/lib.rs", "pub fn ok() {}\n"), ("src/bad.rs", "fn main( {\n")],
        ),
    ];
    for (name, manifest, files) in edges {
        write(root, &format!("{name}/Cargo.toml"), manifest);
        for (rel, text) in files {
            write(root, &format!("{name}/{rel}"), text);
        }
    }
    tmp
}

fn findings(dir: &Path, extra: &[&str]) -> (support::Run, BTreeSet<String>) {
    let mut args = vec!["check", "--format", "json", "--no-cache", "-W", "all"];
    args.extend(extra);
    let run = mcp_lint(dir, &args);
    let set = run.json()["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| d.to_string())
        .collect();
    (run, set)
}

#[test]
fn the_prefilter_changes_no_finding() {
    let tmp = corpus();
    let (on, with) = findings(tmp.path(), &[]);
    let (off, without) = findings(tmp.path(), &["--no-prefilter"]);
    assert_eq!(on.stderr, off.stderr);
    assert_eq!(
        on.json()["summary"]["files"],
        off.json()["summary"]["files"]
    );
    assert!(with.len() > 100, "too few findings to mean much: {on:?}");
    assert!(with.is_subset(&without), "the prefilter added findings");
    let only_without: Vec<&String> = without.difference(&with).collect();
    assert_eq!(only_without.len(), 1, "{only_without:#?}");
    let d: serde_json::Value = serde_json::from_str(only_without[0]).expect("json");
    assert_eq!(d["name"], "parse_error");
    assert_eq!(d["path"], "broken-plain/src/bad.rs");
    // The edges did what they are there for.
    let doc = on.json();
    let paths: BTreeSet<&str> = doc["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| d["path"].as_str().expect("path"))
        .collect();
    for expected in [
        "renamed/src/lib.rs",
        "alias-only/src/tools.rs",
        "suppressed/src/lib.rs",
        "broken-server/src/bad.rs",
        "broken-server/src/lib.rs",
    ] {
        assert!(paths.contains(expected), "{expected}: {paths:?}");
    }
    for quiet in ["comment-only/", "rmcp-macros/", "broken-plain/"] {
        assert!(!paths.iter().any(|p| p.starts_with(quiet)), "{quiet}");
    }
}
