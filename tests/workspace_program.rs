//! The workspace as one program: a tool in one package calling a helper in another package of
//! the workspace, which it depends on by path, is one call graph. Each test writes a small
//! workspace and runs the real binary on it (`MCP_LINT_BINARY` runs another build instead, to
//! show what it did), both ways: the finding that needs the dependency's names resolved, and
//! the same-shaped tree where matching fns by name would report and resolution does not.

#![cfg(unix)]

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{bounded, write, Run};

/// The binary under test.
fn binary() -> PathBuf {
    std::env::var_os("MCP_LINT_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_mcp-lint")))
}

/// `mcp-lint check --format json --no-cache <path>` in `dir`, failing the test on a hang (a
/// cycle of path dependencies must end).
fn check(dir: &Path, path: &str) -> Run {
    let mut cmd = Command::new(binary());
    cmd.args(["check", "--format", "json", "--no-cache", path])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("MCP_LINT_CACHE_DIR", dir.join(".cache"));
    bounded::run_command(cmd, b"")
}

/// `(code, path, line)` of every finding, and `(path, line)` of every related location.
type Found = (Vec<(String, String, u64)>, Vec<(String, u64)>);

fn findings(run: &Run) -> Found {
    let related = run.json()["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .flat_map(|d| d["related"].as_array().cloned().unwrap_or_default())
        .map(|r| {
            (
                r["path"].as_str().expect("path").to_string(),
                r["line"].as_u64().expect("line"),
            )
        })
        .collect();
    (run.findings(), related)
}

fn tree(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (rel, text) in files {
        write(tmp.path(), rel, text);
    }
    let root = tmp.path().canonicalize().expect("canonical");
    (tmp, root)
}

const WORKSPACE: &str = r#"[workspace]
members = ["server", "helpers"]

[workspace.dependencies]
helpers = { path = "helpers" }
rmcp = "0.8"
"#;

const HELPERS_MANIFEST: &str = r#"[package]
name = "helpers"
version = "0.1.0"

[dependencies]
rmcp.workspace = true
"#;

/// `helpers::fetch` is a facade for `net::fetch`; `startup::fetch` has the same name.
const HELPERS_LIB: &str = "pub mod net;\npub mod startup;\npub use net::fetch;\n";

/// Builds JSON-RPC -32603 (line 4).
const NET_INTERNAL: &str = r#"use rmcp::ErrorData as McpError;

pub fn fetch(url: &str) -> Result<String, McpError> {
    Err(McpError::internal_error(format!("cannot fetch {url}"), None))
}
"#;

/// Never fails.
const NET_OK: &str = r#"use rmcp::ErrorData as McpError;

pub fn fetch(url: &str) -> Result<String, McpError> {
    Ok(format!("fetched {url}"))
}
"#;

/// Builds -32603 too, but only start-up code calls it: a protocol error is right there.
const STARTUP: &str = r#"use rmcp::ErrorData as McpError;

pub fn fetch(url: &str) -> Result<String, McpError> {
    Err(McpError::internal_error(format!("no config at {url}"), None))
}

pub fn init() -> Result<String, McpError> {
    fetch("config")
}
"#;

fn server_manifest(helpers: &str) -> String {
    format!(
        "[package]\nname = \"server\"\nversion = \"0.1.0\"\n\n[dependencies]\nrmcp.workspace = true\n{helpers}\n"
    )
}

/// A tool that calls `<path>(..)?` (line 9).
fn server(path: &str, extra: &str) -> String {
    format!(
        r#"use rmcp::{{ErrorData as McpError, model::*, tool, tool_router}};
{extra}
pub struct S;

#[tool_router]
impl S {{
    #[tool(description = "Fetch a page")]
    async fn get(&self) -> Result<CallToolResult, McpError> {{
        let body = {path}("https://example.org")?;
        Ok(CallToolResult::success(vec![Content::text(body)]))
    }}
}}
"#
    )
}

fn workspace(helpers_dep: &str, server_src: &str, net: &str) -> (tempfile::TempDir, PathBuf) {
    tree(&[
        ("Cargo.toml", WORKSPACE),
        ("helpers/Cargo.toml", HELPERS_MANIFEST),
        ("helpers/src/lib.rs", HELPERS_LIB),
        ("helpers/src/net.rs", net),
        ("helpers/src/startup.rs", STARTUP),
        ("server/Cargo.toml", &server_manifest(helpers_dep)),
        ("server/src/lib.rs", server_src),
    ])
}

fn mcp001_at_the_helper() -> Found {
    (
        vec![("MCP001".into(), "helpers/src/net.rs".into(), 4)],
        vec![("server/src/lib.rs".into(), 9)],
    )
}

#[test]
fn a_tool_calling_a_workspace_dependency_through_its_facade_is_reported_at_the_helper() {
    let (_tmp, root) = workspace(
        "helpers.workspace = true",
        &server("helpers::fetch", ""),
        NET_INTERNAL,
    );
    let run = check(&root, ".");
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(findings(&run), mcp001_at_the_helper(), "{run:?}");
    assert!(run.stdout.contains("called from tool code here"), "{run:?}");
    // `--fix` lints the same program: the finding (which has no automatic fix) stays.
    let mut cmd = Command::new(binary());
    cmd.args(["check", "--fix", "--format", "json", "--no-cache", "."])
        .current_dir(&root)
        .env("MCP_LINT_CACHE_DIR", root.join(".cache"));
    let fixed = bounded::run_command(cmd, b"");
    assert_eq!(findings(&fixed), mcp001_at_the_helper(), "{fixed:?}");
}

#[test]
fn a_renamed_path_dependency_resolves_by_the_name_the_code_uses() {
    let (_tmp, root) = workspace(
        "bee = { package = \"helpers\", path = \"../helpers\" }",
        &server("bee::net::fetch", ""),
        NET_INTERNAL,
    );
    let run = check(&root, ".");
    assert_eq!(findings(&run), mcp001_at_the_helper(), "{run:?}");
    // Linted from inside the server, the helper's package is read as context (a workspace
    // member), not reported: the finding belongs to the helper's file.
    let run = check(&root.join("server"), ".");
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(findings(&run), (vec![], vec![]), "{run:?}");
    // Linted from there with the whole workspace named, it is reported, paths as shown.
    let run = check(&root.join("server"), "..");
    assert_eq!(
        findings(&run),
        (
            vec![("MCP001".into(), "../helpers/src/net.rs".into(), 4)],
            vec![("src/lib.rs".into(), 9)],
        ),
        "{run:?}"
    );
}

#[test]
fn the_same_named_fn_of_another_module_is_not_the_one_called() {
    // `helpers::fetch` is `net::fetch`, which never fails; `startup::fetch` builds -32603 and
    // only start-up code calls it.
    let (_tmp, root) = workspace(
        "helpers.workspace = true",
        &server("helpers::fetch", ""),
        NET_OK,
    );
    let run = check(&root, ".");
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(findings(&run), (vec![], vec![]), "{run:?}");
}

#[test]
fn a_local_fn_shadows_the_dependency_glob() {
    let local = "use helpers::*;\n\nfn fetch(url: &str) -> Result<String, McpError> {\n    Ok(url.to_string())\n}\n";
    let (_tmp, root) = workspace(
        "helpers.workspace = true",
        &server("fetch", local),
        NET_INTERNAL,
    );
    let run = check(&root, ".");
    assert_eq!(findings(&run), (vec![], vec![]), "{run:?}");
    // Without the local fn, the glob brings the facade's `fetch`.
    let glob = "use helpers::*;\n";
    let (_tmp, root) = workspace(
        "helpers.workspace = true",
        &server("fetch", glob),
        NET_INTERNAL,
    );
    let run = check(&root, ".");
    assert_eq!(
        findings(&run),
        (
            vec![("MCP001".into(), "helpers/src/net.rs".into(), 4)],
            vec![("server/src/lib.rs".into(), 10)],
        ),
        "{run:?}"
    );
}

#[test]
fn a_registry_dependency_of_the_same_name_stays_another_crate() {
    // The workspace holds a `helpers` package, but the server depends on the registry's.
    let (_tmp, root) = workspace(
        "helpers = \"0.1\"",
        &server("helpers::fetch", ""),
        NET_INTERNAL,
    );
    let run = check(&root, ".");
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(findings(&run), (vec![], vec![]), "{run:?}");
}

#[test]
fn a_cycle_of_path_dependencies_ends_and_is_one_program() {
    let helpers_manifest =
        format!("{HELPERS_MANIFEST}\n[dev-dependencies]\nserver = {{ path = \"../server\" }}\n");
    let (_tmp, root) = tree(&[
        ("Cargo.toml", WORKSPACE),
        ("helpers/Cargo.toml", &helpers_manifest),
        ("helpers/src/lib.rs", HELPERS_LIB),
        ("helpers/src/net.rs", NET_INTERNAL),
        ("helpers/src/startup.rs", STARTUP),
        (
            "server/Cargo.toml",
            &server_manifest("helpers.workspace = true"),
        ),
        ("server/src/lib.rs", &server("helpers::fetch", "")),
    ]);
    let run = check(&root, ".");
    assert_eq!(findings(&run), mcp001_at_the_helper(), "{run:?}");
    let run = check(&root.join("server"), ".");
    assert_eq!(run.code, 0, "{run:?}");
}

#[test]
fn the_helper_package_linted_alone_is_linted_with_the_members_that_call_it() {
    let (_tmp, root) = workspace(
        "helpers.workspace = true",
        &server("helpers::fetch", ""),
        NET_INTERNAL,
    );
    // The server is read as context: the finding is the helper's, the call the server's.
    let run = check(&root, "helpers");
    assert_eq!(findings(&run), mcp001_at_the_helper(), "{run:?}");
    assert_eq!(run.json()["summary"]["files"], 3, "{run:?}");
    let run = check(&root, "helpers/src/startup.rs");
    assert_eq!(findings(&run), (vec![], vec![]), "{run:?}");
}

#[test]
fn a_member_no_server_depends_on_is_not_analysed_with_the_program() {
    // `cli` uses the helpers too but holds no MCP server: as when it was linted alone, the
    // prefilter leaves it unparsed (its syntax error is cargo's to report), while the server's
    // finding at the helper stands.
    let (_tmp, root) = workspace(
        "helpers.workspace = true",
        &server("helpers::fetch", ""),
        NET_INTERNAL,
    );
    write(
        &root,
        "Cargo.toml",
        WORKSPACE.replace("\"helpers\"]", "\"helpers\", \"cli\"]"),
    );
    write(
        &root,
        "cli/Cargo.toml",
        "[package]\nname = \"cli\"\nversion = \"0.1.0\"\n\n[dependencies]\nhelpers.workspace = true\n",
    );
    write(&root, "cli/src/main.rs", "fn main( {\n");
    let run = check(&root, ".");
    assert_eq!(findings(&run), mcp001_at_the_helper(), "{run:?}");
    let run = check(&root, "cli");
    assert_eq!(findings(&run), (vec![], vec![]), "{run:?}");
}

/// What `cargo package` writes at the top of a published crate's Cargo.toml.
const NORMALISED: &str = "# THIS FILE IS AUTOMATICALLY GENERATED BY CARGO\n#\n# When uploading crates to the registry Cargo will automatically\n# \"normalize\" Cargo.toml files\n\n";

/// A repository's crates as published, side by side without a workspace: the server depends on
/// the registry's `helpers` by `requirement`; `helpers` is published at 0.1.0 when `published`.
fn published_crates(requirement: &str, published: bool) -> (tempfile::TempDir, PathBuf) {
    let notice = if published { NORMALISED } else { "" };
    let helpers_manifest = format!(
        "{notice}[package]\nname = \"helpers\"\nversion = \"0.1.0\"\n\n[dependencies.rmcp]\nversion = \"0.8\"\n"
    );
    let server_manifest = format!(
        "{NORMALISED}[package]\nname = \"server\"\nversion = \"0.1.0\"\n\n[dependencies.helpers]\nversion = \"{requirement}\"\n\n[dependencies.rmcp]\nversion = \"0.8\"\n"
    );
    tree(&[
        ("helpers-0.1.0/Cargo.toml", &helpers_manifest),
        ("helpers-0.1.0/src/lib.rs", HELPERS_LIB),
        ("helpers-0.1.0/src/net.rs", NET_INTERNAL),
        ("helpers-0.1.0/src/startup.rs", STARTUP),
        ("server-0.1.0/Cargo.toml", &server_manifest),
        ("server-0.1.0/src/lib.rs", &server("helpers::fetch", "")),
    ])
}

#[test]
fn a_registry_dependency_resolves_into_its_published_copy_in_the_run() {
    let (_tmp, root) = published_crates("0.1.0", true);
    let run = check(&root, ".");
    assert_eq!(
        findings(&run),
        (
            vec![("MCP001".into(), "helpers-0.1.0/src/net.rs".into(), 4)],
            vec![("server-0.1.0/src/lib.rs".into(), 9)],
        ),
        "{run:?}"
    );
    // A requirement the copy's version does not meet names another crate.
    let (_tmp, root) = published_crates("0.2", true);
    let run = check(&root, ".");
    assert_eq!(findings(&run), (vec![], vec![]), "{run:?}");
    // Nor is an unpublished package of that name the registry's crate.
    let (_tmp, root) = published_crates("0.1.0", false);
    let run = check(&root, ".");
    assert_eq!(findings(&run), (vec![], vec![]), "{run:?}");
}

/// A code const of the dependency (`ErrorCode(-32009)`), named by path from a tool (line 8).
const NET_CODES: &str = r#"use rmcp::model::ErrorCode;

pub const CONFLICT: ErrorCode = ErrorCode(-32009);
"#;

#[test]
fn a_code_const_of_a_workspace_dependency_is_the_code_sent() {
    let server_src = r#"use rmcp::{ErrorData as McpError, model::*, tool, tool_router};

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "Reserve a slot")]
    async fn reserve(&self) -> Result<CallToolResult, McpError> {
        Err(McpError::new(helpers::net::CONFLICT, "slot 3 is taken; list_slots shows free ones", None))
    }
}
"#;
    let (_tmp, root) = workspace("helpers.workspace = true", server_src, NET_CODES);
    let run = check(&root, ".");
    let (found, _) = findings(&run);
    assert!(
        found.contains(&("MCP001".into(), "server/src/lib.rs".into(), 9)),
        "{run:?}"
    );
    assert!(run.stdout.contains("-32009"), "{run:?}");
}
