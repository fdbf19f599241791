//! `mcp-lint mcp` as a coding agent meets it: the binary runs as a child process and rmcp's
//! client talks to it over the child's stdin/stdout.
//!
//! stdout purity: rmcp's client silently skips lines that are not JSON (its stdio codec ignores
//! unparsable input), so a stray `println!` would not fail a session by itself. The client
//! therefore reads the child's stdout through [`Tee`], which keeps every byte, and
//! [`assert_only_json_rpc`] checks that each line is a JSON-RPC 2.0 message.

use std::borrow::Cow;
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, Tool};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::ServiceExt;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};
use tokio::process::{Child, ChildStderr, Command};

/// The tools' limits, as documented in the README and `src/mcp/mod.rs`.
const MAX_FILES: usize = 250;
const MAX_FINDINGS: usize = 100;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Keeps a copy of everything read through it.
struct Tee<R> {
    inner: R,
    seen: Arc<Mutex<Vec<u8>>>,
}

impl<R: AsyncRead + Unpin> AsyncRead for Tee<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = &poll {
            let new = buf.filled()[before..].to_vec();
            self.seen.lock().expect("tee lock").extend_from_slice(&new);
        }
        poll
    }
}

/// A running `mcp-lint mcp` with an initialized client.
struct Session {
    client: RunningService<RoleClient, ()>,
    child: Child,
    stdout: Arc<Mutex<Vec<u8>>>,
    stderr: ChildStderr,
}

impl Session {
    async fn start(cwd: &Path) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
            .arg("mcp")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("mcp-lint mcp starts");
        let stdout = Arc::new(Mutex::new(Vec::new()));
        let reader = Tee {
            inner: child.stdout.take().expect("piped stdout"),
            seen: Arc::clone(&stdout),
        };
        let writer = child.stdin.take().expect("piped stdin");
        let stderr = child.stderr.take().expect("piped stderr");
        let client = ().serve((reader, writer)).await.expect("initialize");
        Session {
            client,
            child,
            stdout,
            stderr,
        }
    }

    async fn call(&self, tool: &str, arguments: Value) -> Result<CallToolResult, ServiceError> {
        let arguments: JsonObject = match arguments {
            Value::Object(map) => map,
            other => panic!("arguments must be an object, got {other}"),
        };
        let params =
            CallToolRequestParams::new(Cow::Owned(tool.to_string())).with_arguments(arguments);
        self.client.call_tool(params).await
    }

    /// A call that must produce a result (isError or not), with its text.
    async fn result(&self, tool: &str, arguments: Value) -> (CallToolResult, String) {
        let result = self
            .call(tool, arguments.clone())
            .await
            .unwrap_or_else(|e| panic!("{tool} {arguments}: protocol error {e}"));
        let text = text_of(&result);
        (result, text)
    }

    /// Close stdin, wait for the server to exit, and check what it wrote.
    async fn finish(mut self) -> String {
        self.client.cancel().await.expect("client closes");
        let status = tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .expect("the server exits when stdin closes")
            .expect("wait");
        let mut stderr = String::new();
        self.stderr
            .read_to_string(&mut stderr)
            .await
            .expect("stderr");
        assert!(status.success(), "exit status {status}; stderr:\n{stderr}");
        let stdout = self.stdout.lock().expect("tee lock").clone();
        assert_only_json_rpc(&stdout);
        stderr
    }
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every line the server wrote to stdout is one JSON-RPC 2.0 message.
fn assert_only_json_rpc(stdout: &[u8]) {
    let text = std::str::from_utf8(stdout).expect("stdout is UTF-8");
    assert!(!text.is_empty(), "the server answered on stdout");
    assert!(
        text.ends_with('\n'),
        "stdout ends with a complete message line"
    );
    for (i, line) in text.lines().enumerate() {
        let message: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("stdout line {} is not JSON ({e}): {line}", i + 1));
        assert_eq!(
            message["jsonrpc"],
            "2.0",
            "stdout line {} is not JSON-RPC 2.0: {line}",
            i + 1
        );
        let is_response = message.get("id").is_some()
            && (message.get("result").is_some() || message.get("error").is_some());
        let is_request_or_notification = message["method"].is_string();
        assert!(
            is_response || is_request_or_notification,
            "stdout line {} is neither a response nor a request: {line}",
            i + 1
        );
    }
}

/// A copy of examples/demo-server in a temporary directory, so the tools run on a crate of
/// their own (no repository config).
fn demo_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let demo = repo_root().join("examples/demo-server");
    std::fs::copy(demo.join("Cargo.toml"), dir.path().join("Cargo.toml")).expect("manifest");
    std::fs::create_dir(dir.path().join("src")).expect("src");
    for entry in std::fs::read_dir(demo.join("src")).expect("demo src") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), dir.path().join("src").join(entry.file_name()))
            .expect("copy source");
    }
    dir
}

/// `mcp-lint <args>` in `dir`, stdout parsed as JSON.
fn cli_json(dir: &Path, args: &[&str]) -> Value {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("mcp-lint runs");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "`mcp-lint {}` printed no JSON ({e}); stderr: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn tool<'a>(tools: &'a [Tool], name: &str) -> &'a Tool {
    tools
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("tools/list has no `{name}`"))
}

fn run<F: std::future::Future<Output = ()>>(test: F) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(300), test)
            .await
            .expect("the session finishes within 5 minutes");
    });
}

#[test]
fn initialize_list_and_call_every_tool_on_the_demo_server() {
    run(async {
        let demo = demo_copy();
        let session = Session::start(demo.path()).await;

        // initialize
        let info = session
            .client
            .peer_info()
            .expect("server info after initialize");
        let server = info.server_info.as_ref().expect("serverInfo");
        assert_eq!(server.name, "mcp-lint");
        assert!(info.capabilities.tools.is_some(), "tools capability");
        let instructions = info.instructions.as_deref().unwrap_or_default();
        assert!(instructions.contains("`lint`"), "{instructions}");

        // tools/list
        let tools = session.client.list_all_tools().await.expect("tools/list");
        let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        names.sort();
        assert_eq!(names, ["explain", "fix_preview", "lint", "rules"]);
        for t in &tools {
            assert_eq!(
                t.input_schema.get("type"),
                Some(&json!("object")),
                "{}: input schema",
                t.name
            );
            let description = t.description.as_deref().unwrap_or_default();
            assert!(
                description.contains("Call it"),
                "{}: the description says when to call it: {description}",
                t.name
            );
            let annotations = t.annotations.as_ref().expect("annotations");
            assert_eq!(annotations.read_only_hint, Some(true), "{}", t.name);
            assert_eq!(annotations.idempotent_hint, Some(true), "{}", t.name);
            assert_eq!(annotations.open_world_hint, Some(false), "{}", t.name);
        }
        let lint_properties = tool(&tools, "lint").input_schema["properties"].clone();
        for key in ["paths", "source", "source_path", "rmcp_version", "exclude"] {
            assert!(lint_properties.get(key).is_some(), "lint takes `{key}`");
        }
        let explain_schema = &tool(&tools, "explain").input_schema;
        assert_eq!(explain_schema.get("required"), Some(&json!(["lint"])));
        assert!(tool(&tools, "lint").output_schema.is_some());
        assert!(tool(&tools, "rules").output_schema.is_some());

        // lint: the findings as text, and the CLI's JSON document as structured content
        let (result, text) = session.result("lint", json!({ "paths": ["."] })).await;
        assert_eq!(result.is_error, Some(false), "{text}");
        let expected = cli_json(demo.path(), &["check", ".", "--format", "json"]);
        let structured = result
            .structured_content
            .clone()
            .expect("structuredContent");
        assert_eq!(
            structured, expected,
            "structuredContent is `check --format json`"
        );
        let schema = Value::Object((*tool(&tools, "lint").output_schema.clone().unwrap()).clone());
        assert_conforms(&schema, &structured);
        let diagnostics = expected["diagnostics"].as_array().expect("diagnostics");
        assert!(diagnostics.len() >= 5, "the demo's deliberate mistakes");
        assert!(text.starts_with(&format!(
            "{} errors, {} warnings",
            expected["summary"]["errors"], expected["summary"]["warnings"]
        )));
        for d in diagnostics {
            let block_head = format!(
                "{}:{}:{}: {}[{}/{}]: {}",
                d["path"].as_str().unwrap(),
                d["line"],
                d["column"],
                d["level"].as_str().unwrap(),
                d["code"].as_str().unwrap(),
                d["name"].as_str().unwrap(),
                d["message"].as_str().unwrap()
            );
            assert!(
                text.contains(&block_head),
                "missing `{block_head}` in\n{text}"
            );
            if let Some(help) = d["help"].as_str() {
                assert!(
                    text.contains(&format!("  help: {help}\n")),
                    "help for {block_head}"
                );
            }
        }
        assert!(text.contains("  70 | .map_err(|e| McpError::internal_error("));

        // lint, inline source: a file about to be written, against rmcp 3.11
        let source = std::fs::read_to_string(demo.path().join("src/notes.rs")).expect("notes");
        let (result, text) = session
            .result(
                "lint",
                json!({ "source": source, "source_path": "src/notes.rs", "rmcp_version": "3.11" }),
            )
            .await;
        assert_eq!(result.is_error, Some(false), "{text}");
        assert!(
            text.contains("src/notes.rs:70:26: error[MCP001/tool_failure_as_protocol_error]"),
            "{text}"
        );
        assert!(
            text.contains("ContentBlock::text(format!(\"cannot read note {name}: {e}\"))"),
            "rmcp 3.11 gets the 2.0+ fix: {text}"
        );

        // explain: a code, a group
        let (result, text) = session.result("explain", json!({ "lint": "MCP001" })).await;
        assert_eq!(result.is_error, Some(false));
        assert!(text.starts_with("MCP001 tool_failure_as_protocol_error (correctness"));
        assert!(text.contains("### What it does") && text.contains("### Spec"));
        let (_, text) = session
            .result("explain", json!({ "lint": "suspicious" }))
            .await;
        assert!(text.contains("tool_input_as_invalid_params"), "{text}");

        // fix_preview: the MachineApplicable fixes as one diff, then the findings it leaves;
        // nothing is written
        let notes = std::fs::read_to_string(demo.path().join("src/notes.rs")).expect("notes");
        let (result, text) = session
            .result("fix_preview", json!({ "paths": ["."] }))
            .await;
        assert_eq!(result.is_error, Some(false), "{text}");
        assert!(
            text.starts_with("4 automatic fixes in 2 files; nothing was written."),
            "{text}"
        );
        assert!(
            text.contains("--- a/src/calculator.rs\n+++ b/src/calculator.rs\n"),
            "{text}"
        );
        assert!(
            text.contains("+            other => Err(McpError::invalid_params(\n+                format!(\"Unknown tool: {other}\"),\n+                None,\n+            )),\n"),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "{} other findings have no automatic fix:",
                diagnostics.len() - 4
            )),
            "{text}"
        );
        // A MaybeIncorrect fix is listed, not applied.
        assert!(
            text.contains("  src/notes.rs:70:26: error[MCP001/"),
            "{text}"
        );
        let unchanged = std::fs::read_to_string(demo.path().join("src/notes.rs")).expect("notes");
        assert_eq!(unchanged, notes, "fix_preview wrote");

        // rules: the table, and `rules --format json` as structured content
        let (result, text) = session.result("rules", json!({})).await;
        assert_eq!(result.is_error, Some(false));
        let rules = cli_json(demo.path(), &["rules", "--format", "json"]);
        for rule in rules.as_array().expect("rules") {
            assert!(text.contains(rule["name"].as_str().unwrap()));
        }
        let structured = result.structured_content.expect("structuredContent");
        assert_eq!(structured, json!({ "rules": rules }));
        let schema = Value::Object((*tool(&tools, "rules").output_schema.clone().unwrap()).clone());
        assert_conforms(&schema, &structured);

        let stderr = session.finish().await;
        assert!(!stderr.contains("panicked"), "{stderr}");
    });
}

#[test]
fn mistakes_in_a_call_are_is_error_results_that_say_what_to_pass() {
    run(async {
        let demo = demo_copy();
        std::fs::write(
            demo.path().join("bad.toml"),
            "target-protocl = \"latest\"\n",
        )
        .expect("bad config");
        std::fs::create_dir(demo.path().join("scratch")).expect("scratch");
        std::fs::write(demo.path().join("scratch/broken.rs"), "fn main( {\n").expect("broken");
        std::fs::create_dir(demo.path().join("ghosts")).expect("ghosts");
        std::fs::write(demo.path().join("ghosts/here.rs"), "fn here() {}\n").expect("file");
        #[cfg(unix)]
        std::os::unix::fs::symlink("/nonexistent/gone.rs", demo.path().join("ghosts/gone.rs"))
            .expect("dangling symlink");
        let session = Session::start(demo.path()).await;

        // a missing path
        let (result, text) = session.result("lint", json!({ "paths": ["srcc"] })).await;
        assert_eq!(result.is_error, Some(true), "{text}");
        assert!(
            text.contains("path not found: `srcc`; did you mean `src`?"),
            "{text}"
        );
        assert!(text.contains("working directory"), "{text}");
        let (result, text) = session
            .result("fix_preview", json!({ "paths": ["src/nope.rs"] }))
            .await;
        assert_eq!(result.is_error, Some(true), "{text}");
        assert!(text.contains("path not found: `src/nope.rs`"), "{text}");

        // nothing to lint, or both kinds of input
        let (result, text) = session.result("lint", json!({})).await;
        assert_eq!(result.is_error, Some(true));
        assert!(text.contains("pass `paths`"), "{text}");
        let (result, text) = session
            .result("lint", json!({ "paths": ["src"], "source": "fn f() {}" }))
            .await;
        assert_eq!(result.is_error, Some(true));
        assert!(text.contains("not both"), "{text}");

        // an unknown lint name, with a suggestion
        let (result, text) = session
            .result("explain", json!({ "lint": "vage_error_text" }))
            .await;
        assert_eq!(result.is_error, Some(true), "{text}");
        assert!(
            text.starts_with("unknown lint `vage_error_text`; did you mean `vague_error_text`?"),
            "{text}"
        );
        assert!(text.contains("the `rules` tool lists every lint"), "{text}");

        // an unparsable file is a finding, not a failure
        let (result, text) = session
            .result("lint", json!({ "paths": ["scratch/broken.rs"] }))
            .await;
        assert_eq!(result.is_error, Some(false), "{text}");
        assert!(
            text.contains("scratch/broken.rs:1:10: error[MCP900/parse_error]"),
            "{text}"
        );

        // an unreadable file does not stop the call: it is listed, the rest is checked
        #[cfg(unix)]
        {
            let (result, text) = session.result("lint", json!({ "paths": ["ghosts"] })).await;
            assert_eq!(result.is_error, Some(false), "{text}");
            assert!(text.starts_with("no findings (1 file checked)"), "{text}");
            assert!(
                text.contains(
                    "\nnot checked (everything else was):\n  could not read ghosts/gone.rs"
                ),
                "{text}"
            );
            let structured = result.structured_content.expect("structuredContent");
            let problems = structured["problems"].as_array().expect("problems");
            assert_eq!(problems.len(), 1, "{problems:?}");
        }

        // a bad config, and a bad protocol version
        let (result, text) = session
            .result("lint", json!({ "paths": ["src"], "config": "bad.toml" }))
            .await;
        assert_eq!(result.is_error, Some(true), "{text}");
        assert!(
            text.contains("bad.toml: `target-protocl`: unknown key")
                && text.contains("did you mean `target-protocol`?")
                && text.contains("pass in `config`"),
            "{text}"
        );
        let (result, text) = session
            .result(
                "lint",
                json!({ "paths": ["src"], "target_protocol": "2025-06-81" }),
            )
            .await;
        assert_eq!(result.is_error, Some(true), "{text}");
        assert!(text.contains("did you mean `2025-06-18`?"), "{text}");

        // a misspelt argument is rejected, not ignored
        let (result, text) = session.result("lint", json!({ "path": "src" })).await;
        assert_eq!(result.is_error, Some(true), "{text}");
        assert!(text.contains("unknown field `path`"), "{text}");

        // an unknown tool is a protocol error, as the spec shows it
        match session.call("lnt", json!({ "paths": ["src"] })).await {
            Err(ServiceError::McpError(e)) => {
                assert_eq!(e.code.0, -32602);
                assert_eq!(e.message, "Unknown tool: lnt");
                assert_eq!(
                    e.data,
                    Some(json!({ "tools": ["explain", "fix_preview", "lint", "rules"] }))
                );
            }
            other => panic!("expected JSON-RPC error -32602, got {other:?}"),
        }

        let stderr = session.finish().await;
        assert!(!stderr.contains("panicked"), "{stderr}");
    });
}

#[test]
fn limits_narrow_the_call_or_cut_the_output_with_a_note() {
    run(async {
        let dir = tempfile::tempdir().expect("tempdir");
        for sub in ["big", "small"] {
            std::fs::create_dir(dir.path().join(sub)).expect("dir");
        }
        for i in 0..MAX_FILES {
            std::fs::write(dir.path().join(format!("big/f{i}.rs")), "fn f() {}\n").expect("file");
        }
        std::fs::write(dir.path().join("small/a.rs"), "fn a() {}\n").expect("file");
        // One tool with more vague error texts than a result lists.
        let mut source = String::from(
            "use rmcp::{ErrorData as McpError, model::*, tool, tool_router};\n\n#[tool_router]\n\
             impl S {\n    #[tool(description = \"d\")]\n    async fn t(&self, n: u32) -> \
             Result<CallToolResult, McpError> {\n",
        );
        for i in 0..MAX_FINDINGS + 20 {
            source.push_str(&format!(
                "        if n == {i} {{ return Ok(CallToolResult::error(vec![ContentBlock::text(\"error\")])); }}\n"
            ));
        }
        source.push_str("        Ok(CallToolResult::success(vec![]))\n    }\n}\n");
        let session = Session::start(dir.path()).await;

        let (result, text) = session.result("lint", json!({ "paths": ["."] })).await;
        assert_eq!(result.is_error, Some(true), "{text}");
        assert!(
            text.starts_with(&format!(
                "{} Rust files to check under `.`; one call checks at most {MAX_FILES}.",
                MAX_FILES + 1
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "files per directory: `big` {MAX_FILES}, `small` 1"
            )),
            "{text}"
        );
        assert!(text.contains("`exclude`"), "{text}");
        // Narrowed as the message says, the call goes through.
        let (result, text) = session
            .result("lint", json!({ "paths": ["."], "exclude": ["big"] }))
            .await;
        assert_eq!(result.is_error, Some(false), "{text}");
        assert!(text.starts_with("no findings (1 file checked)"), "{text}");

        let (result, text) = session
            .result(
                "lint",
                json!({ "source": source, "source_path": "src/lib.rs" }),
            )
            .await;
        assert_eq!(result.is_error, Some(false), "{text}");
        let total = MAX_FINDINGS + 20;
        assert!(
            text.starts_with(&format!("0 errors, {total} warnings (1 file checked)")),
            "{}",
            &text[..200]
        );
        assert!(
            text.contains(&format!(
                "showing the first {MAX_FINDINGS} of {total} findings (output limit)"
            )),
            "{text}"
        );
        assert_eq!(
            text.matches("warning[MCP003/vague_error_text]").count(),
            MAX_FINDINGS
        );
        let structured = result.structured_content.expect("structuredContent");
        assert_eq!(
            structured["diagnostics"].as_array().map(Vec::len),
            Some(MAX_FINDINGS)
        );
        assert_eq!(structured["summary"]["warnings"], json!(total));
        assert_eq!(
            structured["truncated"],
            json!({ "shown": MAX_FINDINGS, "total": total })
        );

        session.finish().await;
    });
}

/// The server follows the rules it teaches: mcp-lint, through its own `lint` tool, finds
/// nothing in src/mcp/.
#[test]
fn the_server_s_own_code_has_no_findings() {
    run(async {
        let root = repo_root();
        let session = Session::start(&root).await;
        let (result, text) = session
            .result("lint", json!({ "paths": ["src/mcp"] }))
            .await;
        assert_eq!(result.is_error, Some(false), "{text}");
        let structured = result.structured_content.expect("structuredContent");
        assert_eq!(structured["diagnostics"], json!([]), "{text}");
        assert!(structured["summary"]["files"].as_u64() >= Some(5), "{text}");
        session.finish().await;
    });
}

/// A workspace's packages that depend on each other by path are one program through the
/// `lint` tool too: the tool in `server` reaches the helper in `helpers`, reported there with the
/// tool's call attached.
#[test]
fn a_helper_in_another_workspace_package_is_reported_where_it_builds_the_error() {
    run(async {
        let dir = tempfile::tempdir().expect("tempdir");
        let files = [
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"server\", \"helpers\"]\n",
            ),
            (
                "helpers/Cargo.toml",
                "[package]\nname = \"helpers\"\nversion = \"0.1.0\"\n[dependencies]\nrmcp = \"0.8\"\n",
            ),
            (
                "helpers/src/lib.rs",
                "pub fn load(url: &str) -> Result<String, rmcp::ErrorData> {\n    \
                 Err(rmcp::ErrorData::internal_error(format!(\"cannot load {url}\"), None))\n}\n",
            ),
            (
                "server/Cargo.toml",
                "[package]\nname = \"server\"\nversion = \"0.1.0\"\n[dependencies]\n\
                 rmcp = \"0.8\"\nhelpers = { path = \"../helpers\" }\n",
            ),
            (
                "server/src/lib.rs",
                "use rmcp::{ErrorData as McpError, model::*, tool, tool_router};\npub struct S;\n\
                 #[tool_router]\nimpl S {\n    #[tool(description = \"Load\")]\n    \
                 async fn get(&self) -> Result<CallToolResult, McpError> {\n        \
                 let body = helpers::load(\"x\")?;\n        \
                 Ok(CallToolResult::success(vec![Content::text(body)]))\n    }\n}\n",
            ),
        ];
        for (rel, text) in files {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        let session = Session::start(dir.path()).await;
        let (result, text) = session.result("lint", json!({ "paths": ["."] })).await;
        assert_eq!(result.is_error, Some(false), "{text}");
        let structured = result.structured_content.expect("structuredContent");
        let found = &structured["diagnostics"];
        assert_eq!(found.as_array().map(Vec::len), Some(1), "{text}");
        assert_eq!(found[0]["code"], "MCP001", "{text}");
        assert_eq!(found[0]["path"], "helpers/src/lib.rs", "{text}");
        assert_eq!(found[0]["line"], 2, "{text}");
        assert_eq!(
            found[0]["related"][0]["path"], "server/src/lib.rs",
            "{text}"
        );
        assert_eq!(found[0]["related"][0]["line"], 7, "{text}");
        session.finish().await;
    });
}

/// Server mode cannot print: the only code that takes stdout is `run` in src/lib.rs, after
/// `mcp` (and `server`) have returned, and the colour check in src/commands/output.rs only asks whether
/// stdout is a terminal. Anything else in the front end or the analysis fails here.
#[test]
fn nothing_outside_the_printing_commands_writes_to_stdout() {
    // The `check` and `cargo mcp-lint` entry points own stdout; `mcp` never reaches them.
    // The servers' framing writes their protocol (src/lsp/framing.rs, src/mcp/transport.rs).
    const ALLOWED: [(&str, &str); 5] = [
        ("src/lib.rs", "let stdout = std::io::stdout();"),
        ("src/commands/output.rs", "std::io::stdout().is_terminal()"),
        ("src/lsp/framing.rs", "let mut out = io::stdout().lock();"),
        ("src/mcp/transport.rs", "let mut out = io::stdout().lock();"),
        (
            "src/commands/cargo/mod.rs",
            "let stdout = std::io::stdout();",
        ),
    ];
    let root = repo_root();
    let mut files = Vec::new();
    let mut dirs = vec![root.join("src"), root.join("lints/src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("source dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 20, "the scan found the sources");
    let mut found = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(&root)
            .expect("under root")
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&file).expect("source");
        for (i, line) in text.lines().enumerate() {
            let code = line.trim();
            if code.starts_with("//") {
                continue;
            }
            // `eprintln!`/`eprint!` write to stderr.
            let prints = ["println!", "print!(", "stdout()", "io::stdout", "Stdout"]
                .iter()
                .any(|p| {
                    code.match_indices(p)
                        .any(|(at, _)| !code[..at].ends_with('e'))
                });
            if prints && !ALLOWED.iter().any(|(f, l)| rel == *f && code == *l) {
                found.push(format!("{rel}:{}: {code}", i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "stdout writes outside the printing commands:\n{}",
        found.join("\n")
    );
}

/// rmcp's standard child-process transport works as well (the transport MCP hosts use).
#[test]
fn rmcp_child_process_transport_initializes_and_lists_tools() {
    run(async {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-lint"));
        command.arg("mcp").current_dir(repo_root());
        let transport =
            rmcp::transport::TokioChildProcess::new(command).expect("child process transport");
        let client = ().serve(transport).await.expect("initialize");
        let tools = client.list_all_tools().await.expect("tools/list");
        assert_eq!(tools.len(), 4);
        client.cancel().await.expect("close");
    });
}

/// The example session in docs/mcp.md is a real one: the request is sent as written, and the
/// response must match what the server answers (bless with `MCP_LINT_BLESS=1`).
#[test]
fn readme_example_session_is_real() {
    run(async {
        let readme_path = repo_root().join("docs/mcp.md");
        let mut readme = std::fs::read_to_string(&readme_path).expect("docs/mcp.md");
        let (_, request) = sample_block(&readme, "mcp-request");
        let request: Value = serde_json::from_str(&request).expect("the request is JSON");
        assert_eq!(request["method"], "tools/call");
        let session = Session::start(&repo_root()).await;
        let name = request["params"]["name"].as_str().expect("tool name");
        let before = session.stdout.lock().expect("tee").len();
        session
            .call(name, request["params"]["arguments"].clone())
            .await
            .expect("tools/call");
        let wire = session.stdout.lock().expect("tee")[before..].to_vec();
        let mut response: Value = serde_json::from_str(
            std::str::from_utf8(&wire)
                .expect("UTF-8")
                .lines()
                .find(|l| l.contains("\"result\""))
                .expect("a response line"),
        )
        .expect("JSON");
        response["id"] = request["id"].clone();
        let actual = serde_json::to_string_pretty(&response).expect("pretty") + "\n";
        session.finish().await;

        let (range, documented) = sample_block(&readme, "mcp-response");
        if documented == actual {
            return;
        }
        if std::env::var_os("MCP_LINT_BLESS").is_some_and(|v| v == "1") {
            readme.replace_range(range, &actual);
            std::fs::write(&readme_path, readme).expect("docs/mcp.md is writable");
            return;
        }
        panic!(
            "docs/mcp.md's example MCP response is stale; run `MCP_LINT_BLESS=1 cargo test \
             --test mcp_server`.\n--- docs/mcp.md:\n{documented}--- server:\n{actual}"
        );
    });
}

/// The body of the fenced block after `<!-- sample:NAME -->`, with its byte range.
fn sample_block(readme: &str, name: &str) -> (std::ops::Range<usize>, String) {
    let marker = format!("<!-- sample:{name} -->\n");
    let at = readme
        .find(&marker)
        .unwrap_or_else(|| panic!("docs/mcp.md has no `{}` marker", marker.trim_end()));
    let fence = at + marker.len();
    assert!(
        readme[fence..].starts_with("```"),
        "`{name}`: no fenced block"
    );
    let body_start = fence + readme[fence..].find('\n').expect("fence line") + 1;
    let mut end = body_start;
    for line in readme[body_start..].split_inclusive('\n') {
        if line.starts_with("```") {
            return (body_start..end, readme[body_start..end].to_string());
        }
        end += line.len();
    }
    panic!("the block after `{}` is never closed", marker.trim_end())
}

/// A minimal JSON Schema check for the keywords schemars emits here; an unknown keyword fails
/// the test, so a schema it cannot judge never passes silently.
fn assert_conforms(schema: &Value, value: &Value) {
    let mut errors = Vec::new();
    check_schema(schema, schema, value, "$", &mut errors);
    assert!(
        errors.is_empty(),
        "structuredContent does not match the outputSchema:\n{}",
        errors.join("\n")
    );
}

fn check_schema(root: &Value, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
    let Some(object) = schema.as_object() else {
        errors.push(format!("{at}: schema is not an object"));
        return;
    };
    for (keyword, rule) in object {
        match keyword.as_str() {
            "$schema" | "$defs" | "description" | "title" | "default" | "format" => {}
            "$ref" => {
                let name = rule
                    .as_str()
                    .and_then(|r| r.strip_prefix("#/$defs/"))
                    .unwrap_or_else(|| panic!("unsupported $ref {rule}"));
                check_schema(root, &root["$defs"][name], value, at, errors);
            }
            "type" => {
                let types: Vec<&str> = match rule {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => panic!("unsupported type {rule}"),
                };
                let fits = types.iter().any(|t| match *t {
                    "object" => value.is_object(),
                    "array" => value.is_array(),
                    "string" => value.is_string(),
                    "integer" => value.is_i64() || value.is_u64(),
                    "number" => value.is_number(),
                    "boolean" => value.is_boolean(),
                    "null" => value.is_null(),
                    other => panic!("unsupported type {other}"),
                });
                if !fits {
                    errors.push(format!("{at}: {value} is not {types:?}"));
                }
            }
            "minimum" => {
                if let (Some(v), Some(min)) = (value.as_f64(), rule.as_f64()) {
                    if v < min {
                        errors.push(format!("{at}: {v} < {min}"));
                    }
                }
            }
            "enum" => {
                if !rule.as_array().is_some_and(|a| a.contains(value)) {
                    errors.push(format!("{at}: {value} not in {rule}"));
                }
            }
            "anyOf" => {
                let fits = rule.as_array().expect("anyOf array").iter().any(|s| {
                    let mut sub = Vec::new();
                    check_schema(root, s, value, at, &mut sub);
                    sub.is_empty()
                });
                if !fits {
                    errors.push(format!("{at}: {value} matches no anyOf branch"));
                }
            }
            "required" => {
                if let Some(map) = value.as_object() {
                    for key in rule.as_array().expect("required array") {
                        let key = key.as_str().expect("key");
                        if !map.contains_key(key) {
                            errors.push(format!("{at}: missing required `{key}`"));
                        }
                    }
                }
            }
            "properties" => {
                if let Some(map) = value.as_object() {
                    for (key, sub) in rule.as_object().expect("properties object") {
                        if let Some(v) = map.get(key) {
                            check_schema(root, sub, v, &format!("{at}.{key}"), errors);
                        }
                    }
                }
            }
            "additionalProperties" => {
                if rule == &Value::Bool(false) {
                    let known = object.get("properties").and_then(Value::as_object);
                    for key in value.as_object().into_iter().flat_map(|m| m.keys()) {
                        if !known.is_some_and(|k| k.contains_key(key)) {
                            errors.push(format!("{at}: unexpected property `{key}`"));
                        }
                    }
                }
            }
            "items" => {
                for (i, item) in value.as_array().into_iter().flatten().enumerate() {
                    check_schema(root, rule, item, &format!("{at}[{i}]"), errors);
                }
            }
            other => panic!("the test's schema check does not know `{other}`"),
        }
    }
}

#[test]
fn the_schema_check_rejects_what_does_not_fit() {
    let schema = json!({
        "type": "object",
        "required": ["a"],
        "properties": { "a": { "type": "integer", "minimum": 0 }, "b": { "$ref": "#/$defs/B" } },
        "$defs": { "B": { "anyOf": [{ "type": "string" }, { "type": "null" }] } }
    });
    let mut errors = Vec::new();
    check_schema(
        &schema,
        &schema,
        &json!({ "a": 1, "b": "x" }),
        "$",
        &mut errors,
    );
    assert!(errors.is_empty(), "{errors:?}");
    check_schema(
        &schema,
        &schema,
        &json!({ "a": -1, "b": 2 }),
        "$",
        &mut errors,
    );
    assert_eq!(errors.len(), 2, "{errors:?}");
    errors.clear();
    check_schema(&schema, &schema, &json!({ "b": null }), "$", &mut errors);
    assert_eq!(errors, ["$: missing required `a`"]);
}
