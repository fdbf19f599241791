//! `mcp-lint check --fix`, `--unsafe-fixes` and `--diff` through the binary: which fixes apply,
//! exit codes after fixing, idempotence, files that do not parse, permissions, the diff, and the
//! fixes in JSON and SARIF output.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const MANIFEST: &str = "[package]\nname = \"notes\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nrmcp = \"1.8\"\n";

/// A tool with one certain fix (`return Err(..)`, line 12) and one uncertain one
/// (`.map_err(..)?` on a std call, line 14).
const TOOLS: &str = r#"use rmcp::{model::{CallToolResult, Content}, tool, tool_router, ErrorData as McpError};

pub struct Notes;

#[tool_router]
impl Notes {
    #[tool(description = "Read a note")]
    async fn read(&self, path: String) -> Result<CallToolResult, McpError> {
        if path.contains("..") {
            // The model can fix this.
            let hint = "use a path inside the notes directory";
            return Err(McpError::internal_error(format!("{path} leaves the notes directory; {hint}"), None));
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| McpError::internal_error(format!("cannot read {path}: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
"#;

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

fn check(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .arg("check")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("mcp-lint runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn server(files: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::write(tmp.path().join("Cargo.toml"), MANIFEST).expect("manifest");
    std::fs::create_dir_all(tmp.path().join("src")).expect("src");
    for (name, text) in files {
        std::fs::write(tmp.path().join(name), text).expect("source");
    }
    tmp
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).expect("read")
}

#[test]
fn fix_applies_certain_fixes_and_unsafe_fixes_the_rest() {
    let tmp = server(&[("src/lib.rs", TOOLS)]);
    let dir = tmp.path();

    let run = check(dir, &["--fix", "--format", "concise"]);
    // The uncertain fix is left: its finding remains, and the exit code says so.
    assert_eq!(run.code, Some(1), "{run:?}");
    assert_eq!(run.stderr, "fixed 1 finding in 1 file\n", "{run:?}");
    assert_eq!(
        run.stdout,
        "src/lib.rs:17:26: error[MCP001/tool_failure_as_protocol_error]: tool `read` reports a tool failure as JSON-RPC error -32603 (Internal error)\n"
    );
    let once = read(dir, "src/lib.rs");
    assert!(
        once.contains(
            r#"            return Ok(CallToolResult::error(vec![Content::text(format!(
                "{path} leaves the notes directory; {hint}"
            ))]));"#
        ),
        "{once}"
    );
    // The comment and the statement before the edit are kept as written.
    assert!(
        once.contains("            // The model can fix this.\n            let hint"),
        "{once}"
    );

    // The human report says what is left to fix, and how.
    let run = check(dir, &[]);
    assert!(
        run.stdout.ends_with(
            "1 error, 0 warnings (1 file checked)\n1 fix available with `--fix --unsafe-fixes`\n"
        ),
        "{run:?}"
    );

    let run = check(dir, &["--fix", "--unsafe-fixes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stderr, "fixed 1 finding in 1 file\n", "{run:?}");
    assert_eq!(run.stdout, "no findings (1 file checked)\n");
    let twice = read(dir, "src/lib.rs");
    assert!(
        twice.contains(
            "        let text = match std::fs::read_to_string(&path) {\n            Ok(value) => value,\n            Err(e) => {\n                return Ok(CallToolResult::error(vec![Content::text(format!(\n                    \"cannot read {path}: {e}\"\n                ))]))\n            }\n        };\n"
        ),
        "{twice}"
    );

    // A second run changes nothing and says nothing about fixing.
    let run = check(dir, &["--fix", "--unsafe-fixes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stderr, "", "{run:?}");
    assert_eq!(read(dir, "src/lib.rs"), twice);
}

#[test]
fn diff_prints_the_changes_and_writes_nothing() {
    let tmp = server(&[("src/lib.rs", TOOLS)]);
    let dir = tmp.path();
    let run = check(dir, &["--diff"]);
    assert_eq!(run.code, Some(1), "changes to make: {run:?}");
    assert_eq!(run.stderr, "would fix 1 finding in 1 file\n", "{run:?}");
    assert_eq!(
        run.stdout,
        "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -9,7 +9,9 @@\n         if path.contains(\"..\") {\n             // The model can fix this.\n             let hint = \"use a path inside the notes directory\";\n-            return Err(McpError::internal_error(format!(\"{path} leaves the notes directory; {hint}\"), None));\n+            return Ok(CallToolResult::error(vec![Content::text(format!(\n+                \"{path} leaves the notes directory; {hint}\"\n+            ))]));\n         }\n         let text = std::fs::read_to_string(&path)\n             .map_err(|e| McpError::internal_error(format!(\"cannot read {path}: {e}\"), None))?;\n"
    );
    assert_eq!(read(dir, "src/lib.rs"), TOOLS, "--diff wrote the file");

    let run = check(dir, &["--diff", "--unsafe-fixes"]);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stdout
            .contains("+        let text = match std::fs::read_to_string(&path) {\n"),
        "{run:?}"
    );
    assert_eq!(read(dir, "src/lib.rs"), TOOLS);

    // Nothing to fix: an empty diff and exit 0, even with findings left.
    let clean = server(&[("src/lib.rs", "pub fn f() {}\n")]);
    let run = check(clean.path(), &["--diff"]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), ""), "{run:?}");
}

#[test]
fn unsafe_fixes_needs_fix_or_diff() {
    let tmp = server(&[("src/lib.rs", TOOLS)]);
    let run = check(tmp.path(), &["--unsafe-fixes"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("--fix"), "{run:?}");
    assert_eq!(read(tmp.path(), "src/lib.rs"), TOOLS);
}

#[test]
fn a_file_that_does_not_parse_is_never_touched() {
    let broken = "use rmcp::ErrorData as McpError;\nfn f() -> Result<(), McpError> { Err(McpError::internal_error(\"x\", None) \n";
    let tmp = server(&[("src/lib.rs", TOOLS), ("src/broken.rs", broken)]);
    let dir = tmp.path();
    let run = check(dir, &["--fix", "--unsafe-fixes", "--format", "concise"]);
    assert_eq!(run.code, Some(1), "the parse error remains: {run:?}");
    assert!(run.stdout.contains("src/broken.rs:"), "{run:?}");
    assert!(run.stdout.contains("parse_error"), "{run:?}");
    assert_eq!(read(dir, "src/broken.rs"), broken);
    assert!(read(dir, "src/lib.rs").contains("Ok(CallToolResult::error("));
}

#[cfg(unix)]
#[test]
fn fixing_keeps_permissions_and_leaves_no_temporary_files() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = server(&[("src/lib.rs", TOOLS)]);
    let dir = tmp.path();
    let file = dir.join("src/lib.rs");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let run = check(dir, &["--fix"]);
    assert_eq!(run.code, Some(1), "{run:?}");
    let mode = std::fs::metadata(&file)
        .expect("metadata")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let names: Vec<String> = std::fs::read_dir(dir.join("src"))
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["lib.rs"]);
}

#[test]
fn json_and_sarif_carry_the_fixes() {
    let tmp = server(&[("src/lib.rs", TOOLS)]);
    let dir = tmp.path();
    let run = check(dir, &["--format", "json"]);
    let doc: Value = serde_json::from_str(&run.stdout).expect("json");
    let fixes: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| &d["fix"])
        .collect();
    assert_eq!(fixes.len(), 2, "{doc:#}");
    assert_eq!(fixes[0]["applicability"], "MachineApplicable");
    assert_eq!(
        fixes[0]["message"],
        "return the failure as an isError tool result the model can read"
    );
    assert_eq!(
        fixes[0]["edits"],
        serde_json::json!([{
            "line": 12, "column": 20, "end_line": 12, "end_column": 109,
            "content": "Ok(CallToolResult::error(vec![Content::text(format!(\n                \"{path} leaves the notes directory; {hint}\"\n            ))]))"
        }])
    );
    assert_eq!(fixes[1]["applicability"], "MaybeIncorrect");
    assert_eq!(fixes[1]["edits"][0]["content"], "match ");
    assert_eq!(
        (
            &fixes[1]["edits"][0]["line"],
            &fixes[1]["edits"][0]["column"]
        ),
        (&serde_json::json!(14), &serde_json::json!(20))
    );

    let run = check(dir, &["--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&run.stdout).expect("sarif");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let replacement = &results[0]["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(
        replacement["deletedRegion"],
        serde_json::json!({ "startLine": 12, "startColumn": 20, "endLine": 12, "endColumn": 109 })
    );
    assert!(replacement["insertedContent"]["text"]
        .as_str()
        .is_some_and(|t| t.starts_with("Ok(CallToolResult::error(")));
    assert_eq!(
        results[1]["fixes"][0]["artifactChanges"][0]["replacements"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
}

/// A method called on a field (or a local) whose declared type is another crate's is that crate's method,
/// even when a tool of the server has the same name: the `match` a `.map_err(..)` fix writes
/// rests on the receiver returning a `Result`, which the source does not show here, so the fix
/// is MaybeIncorrect at both calls (a name matcher took `self.memory.list_sessions(..)` for the
/// `list_sessions` tool itself, which does return a `Result`, and applied it by plain `--fix`).
#[test]
fn a_foreign_fields_method_is_not_the_tool_of_the_same_name() {
    const MEMORY: &str = r#"use std::sync::Arc;
use rmcp::{model::{CallToolResult, Content}, tool, tool_router, ErrorData as McpError};

pub struct Server {
    memory: Arc<memsdk::Client>,
}

#[tool_router]
impl Server {
    #[tool(description = "List sessions")]
    async fn list_sessions(&self) -> Result<CallToolResult, McpError> {
        let v = self.memory.list_sessions(10).await
            .map_err(|e| McpError::internal_error(format!("memory: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(v)]))
    }

    #[tool(description = "List agents")]
    async fn agents(&self) -> Result<CallToolResult, McpError> {
        let v = self.memory.list_agents(10).await
            .map_err(|e| McpError::internal_error(format!("memory: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(v)]))
    }

    #[tool(description = "Recent sessions")]
    async fn recent(&self) -> Result<CallToolResult, McpError> {
        let client: Arc<memsdk::Client> = self.memory.clone();
        let v = client.list_sessions(3).await
            .map_err(|e| McpError::internal_error(format!("memory: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(v)]))
    }
}
"#;
    let tmp = server(&[("src/lib.rs", MEMORY)]);
    let manifest = format!("{MANIFEST}memsdk = \"0.1\"\n");
    std::fs::write(tmp.path().join("Cargo.toml"), manifest).expect("manifest");
    let run = check(tmp.path(), &["--format", "json"]);
    let doc: Value = serde_json::from_str(&run.stdout).expect("json");
    let applicability: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| &d["fix"]["applicability"])
        .collect();
    assert_eq!(
        applicability,
        ["MaybeIncorrect", "MaybeIncorrect", "MaybeIncorrect"],
        "{doc:#}"
    );
}
