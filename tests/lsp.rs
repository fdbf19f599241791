//! `mcp-lint server` driven the way an editor drives it: the real binary as a child process,
//! LSP messages with Content-Length framing on its stdin and stdout, a temporary rmcp crate (its
//! Cargo.toml depends on rmcp; nothing is built). Every wait has a deadline, so a server that
//! stops answering fails the test instead of hanging it.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const TIMEOUT: Duration = Duration::from_secs(60);

const CARGO_TOML: &str = r#"[package]
name = "files"
version = "0.1.0"
edition = "2021"

[dependencies]
rmcp = { version = "1.8", features = ["server"] }
"#;

/// The tool's failure goes out as -32603; the comment before it puts non-ASCII text (an emoji
/// is two UTF-16 units and four bytes) in front of the finding on its line.
const BAD_LINE: &str = "        let text = std::fs::read_to_string(&args.path) /* 📄 ünïcode */ .map_err(|e| McpError::internal_error(e.to_string(), None))?;";
const FIXED_LINE: &str = "        let text = match std::fs::read_to_string(&args.path) { Ok(t) => t, Err(e) => return Ok(CallToolResult::error(vec![ContentBlock::text(format!(\"could not read {}: {e}\", args.path))])) };";
const FINDING: &str = "McpError::internal_error(e.to_string(), None)";
/// 0-based line of BAD_LINE in the file.
const LINE: u64 = 8;

fn main_rs(line: &str) -> String {
    format!(
        "use rmcp::{{handler::server::wrapper::Parameters, model::*, tool, tool_router, ErrorData as McpError}};

pub struct Files;

#[tool_router]
impl Files {{
    #[tool(description = \"Read a UTF-8 text file\")]
    async fn read_file(&self, Parameters(args): Parameters<ReadFile>) -> Result<CallToolResult, McpError> {{
{line}
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }}
}}

fn main() {{}}
"
    )
}

fn utf16_len(s: &str) -> u64 {
    s.encode_utf16().count() as u64
}

fn uri(path: &Path) -> String {
    // Test paths are plain ASCII temp directories: no percent-encoding needed.
    format!("file://{}", path.display())
}

/// A running `mcp-lint server` and what it has said.
struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    /// Messages read while waiting for another one.
    backlog: Vec<Value>,
    stderr: Arc<Mutex<String>>,
    next_id: u64,
}

impl Server {
    fn start(dir: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
            .arg("server")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mcp-lint server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr_pipe = child.stderr.take().expect("stderr");
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr_pipe.read_to_string(&mut text);
            sink.lock().expect("stderr lock").push_str(&text);
        });
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                match read_message(&mut reader) {
                    Ok(Some(message)) => {
                        if tx.send(message).is_err() {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(e) => {
                        let _ = tx.send(json!({ "framing error": e }));
                        return;
                    }
                }
            }
        });
        Server {
            child,
            stdin,
            messages,
            backlog: Vec::new(),
            stderr,
            next_id: 0,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Send a request; returns its id.
    fn request(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    /// The first message (kept back or new) that `matches`; the others stay in the backlog.
    fn wait_for(&mut self, what: &str, matches: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&matches) {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) => {
                    assert!(
                        message.get("framing error").is_none(),
                        "stdout carried something that is not an LSP message: {message}"
                    );
                    if matches(&message) {
                        return message;
                    }
                    self.backlog.push(message);
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "no {what} within {TIMEOUT:?}; got {:#?}\nstderr:\n{}",
                    self.backlog,
                    self.stderr()
                ),
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "the server closed stdout while we waited for {what}; got {:#?}\nstderr:\n{}",
                    self.backlog,
                    self.stderr()
                ),
            }
        }
    }

    /// The result of request `id` (a JSON-RPC error fails the test).
    fn response(&mut self, id: u64) -> Value {
        let response = self.wait_for(&format!("response {id}"), |m| {
            m["id"] == json!(id) && m.get("method").is_none()
        });
        assert!(response.get("error").is_none(), "{response:#}");
        response["result"].clone()
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params);
        self.response(id)
    }

    /// A request from the server.
    fn server_request(&mut self, method: &str) -> Value {
        self.wait_for(method, |m| m["method"] == method && m.get("id").is_some())
    }

    fn reply(&mut self, request: &Value, result: Value) {
        self.send(json!({ "jsonrpc": "2.0", "id": request["id"], "result": result }));
    }

    /// The diagnostics published for `uri` at document `version` (`None`: no version).
    fn diagnostics(&mut self, uri: &str, version: Option<i64>) -> Vec<Value> {
        let message = self.wait_for(&format!("diagnostics for {uri} v{version:?}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == json!(version)
        });
        message["params"]["diagnostics"]
            .as_array()
            .expect("diagnostics array")
            .clone()
    }

    fn stderr(&self) -> String {
        self.stderr.lock().expect("stderr lock").clone()
    }

    /// Wait for the process to end.
    fn exit_status(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not exit within {TIMEOUT:?}\nstderr:\n{}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// One LSP message: headers, a blank line, then Content-Length bytes of JSON.
fn read_message(reader: &mut impl BufRead) -> Result<Option<Value>, String> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Ok(None);
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        match line.split_once(": ") {
            Some(("Content-Length", n)) => length = n.parse::<usize>().ok(),
            Some(("Content-Type", _)) => {}
            _ => return Err(format!("not an LSP header: {line:?}")),
        }
    }
    let length = length.ok_or("no Content-Length header")?;
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(|e| e.to_string())?;
    serde_json::from_slice(&body).map_err(|e| format!("body is not JSON: {e}"))
}

fn project() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().canonicalize().expect("canonical");
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(root.join("Cargo.toml"), CARGO_TOML).expect("write");
    std::fs::write(root.join("src/main.rs"), main_rs(BAD_LINE)).expect("write");
    std::fs::write(root.join("src/util.rs"), "pub fn helper() {}\n").expect("write");
    (tmp, root)
}

fn initialize(server: &mut Server, root: &Path, encodings: &[&str]) -> Value {
    server.call(
        "initialize",
        json!({
            "processId": null,
            "rootUri": uri(root),
            "workspaceFolders": [{ "uri": uri(root), "name": "files" }],
            "capabilities": {
                "general": { "positionEncodings": encodings },
                "textDocument": {
                    "publishDiagnostics": { "versionSupport": true },
                    "codeAction": {
                        "codeActionLiteralSupport": { "codeActionKind": { "valueSet": ["quickfix"] } }
                    }
                },
                "workspace": {
                    "workspaceFolders": true,
                    "workspaceEdit": { "documentChanges": true },
                    "didChangeWatchedFiles": { "dynamicRegistration": true }
                },
                "window": { "showDocument": { "support": true } }
            }
        }),
    )
}

fn open(server: &mut Server, uri: &str, text: &str) {
    server.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "rust", "version": 1, "text": text } }),
    );
}

fn change(server: &mut Server, uri: &str, version: i64, changes: Value) {
    server.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes }),
    );
}

fn position(line: u64, character: u64) -> Value {
    json!({ "line": line, "character": character })
}

fn range(start: (u64, u64), end: (u64, u64)) -> Value {
    json!({ "start": position(start.0, start.1), "end": position(end.0, end.1) })
}

/// Insert `text` at the start of 0-based `line`.
fn insert_line(text: &str, line: usize, new: &str) -> String {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    lines.insert(line, new);
    lines.concat()
}

#[test]
fn diagnostics_quick_fixes_config_reload_and_shutdown_over_stdio() {
    let (_tmp, root) = project();
    let main = uri(&root.join("src/main.rs"));
    let util = uri(&root.join("src/util.rs"));
    let mut server = Server::start(&root);

    let init = initialize(&mut server, &root, &["utf-16"]);
    let caps = &init["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["textDocumentSync"]["openClose"], true);
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental");
    assert!(caps["textDocumentSync"]["save"].is_object());
    assert_eq!(
        caps["codeActionProvider"]["codeActionKinds"],
        json!(["quickfix"])
    );
    assert_eq!(caps["workspace"]["workspaceFolders"]["supported"], true);
    assert_eq!(init["serverInfo"]["name"], "mcp-lint");

    server.notify("initialized", json!({}));
    let registration = server.server_request("client/registerCapability");
    let registered = &registration["params"]["registrations"][0];
    assert_eq!(registered["method"], "workspace/didChangeWatchedFiles");
    let globs: Vec<&str> = registered["registerOptions"]["watchers"]
        .as_array()
        .expect("watchers")
        .iter()
        .filter_map(|w| w["globPattern"].as_str())
        .collect();
    assert!(
        globs.contains(&"**/mcp-lint.toml") && globs.contains(&"**/Cargo.toml"),
        "{globs:?}"
    );
    server.reply(&registration, Value::Null);

    // didOpen: the finding, with its range in UTF-16 code units.
    open(&mut server, &main, &main_rs(BAD_LINE));
    let found = server.diagnostics(&main, Some(1));
    assert_eq!(found.len(), 1, "{found:#?}");
    let d = &found[0];
    let start = BAD_LINE.find(FINDING).expect("finding");
    let start_col = utf16_len(&BAD_LINE[..start]);
    let end_col = start_col + utf16_len(FINDING);
    assert_ne!(
        start_col, start as u64,
        "the line has non-ASCII text before the finding"
    );
    assert_eq!(d["range"], range((LINE, start_col), (LINE, end_col)));
    assert_eq!(d["code"], "tool_failure_as_protocol_error");
    assert_eq!(d["severity"], 1, "error");
    assert_eq!(d["source"], "mcp-lint");
    let message = d["message"].as_str().expect("message");
    assert!(
        message.starts_with(
            "tool `read_file` reports a tool failure as JSON-RPC error -32603 (Internal error)"
        ) && message.contains("\nhelp: return `Ok(CallToolResult::error("),
        "{message}"
    );

    // didChange (incremental) fixing it, then back.
    let bad_end = (LINE, utf16_len(BAD_LINE));
    change(
        &mut server,
        &main,
        2,
        json!([{ "range": range((LINE, 0), bad_end), "text": FIXED_LINE }]),
    );
    assert_eq!(server.diagnostics(&main, Some(2)), Vec::<Value>::new());
    let fixed_end = (LINE, utf16_len(FIXED_LINE));
    change(
        &mut server,
        &main,
        3,
        json!([{ "range": range((LINE, 0), fixed_end), "text": BAD_LINE }]),
    );
    let found = server.diagnostics(&main, Some(3));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["range"], range((LINE, start_col), (LINE, end_col)));

    // codeAction at the finding: the suppression, as a versioned edit plus the cursor command.
    let actions = server.call(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": main },
            "range": found[0]["range"],
            "context": { "diagnostics": [found[0]], "only": ["quickfix"] }
        }),
    );
    let actions = actions.as_array().expect("actions");
    assert_eq!(
        actions.len(),
        2,
        "the finding's fix, then the suppression: {actions:#?}"
    );
    // The fix rewrites `.map_err(..)?` into a `match`: MaybeIncorrect (the value's type is not
    // evident), so offered but not preferred.
    let fix = &actions[0];
    assert_eq!(
        fix["title"],
        "return the failure as an isError tool result the model can read"
    );
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["isPreferred"], false);
    let fix_edits = &fix["edit"]["documentChanges"][0]["edits"];
    let receiver = utf16_len("        let text = ");
    assert_eq!(
        fix_edits[0],
        json!({ "range": range((LINE, receiver), (LINE, receiver)), "newText": "match " })
    );
    assert!(
        fix_edits[1]["newText"]
            .as_str()
            .is_some_and(|t| t.contains("return Ok(CallToolResult::error(")
                && t.contains("\"read_to_string({:?}) failed: {e}\",\n")),
        "{fix_edits:#?}"
    );
    let action = &actions[1];
    assert_eq!(
        action["title"],
        "Suppress `tool_failure_as_protocol_error` on this line (then write why)"
    );
    assert_eq!(action["kind"], "quickfix");
    let directive = "        // mcp-lint: allow(tool_failure_as_protocol_error) ";
    let document_edit = &action["edit"]["documentChanges"][0];
    assert_eq!(
        document_edit["textDocument"],
        json!({ "uri": main, "version": 3 })
    );
    assert_eq!(
        document_edit["edits"],
        json!([{ "range": range((LINE, 0), (LINE, 0)), "newText": format!("{directive}\n") }])
    );
    let cursor = position(LINE, utf16_len(directive));
    assert_eq!(action["command"]["command"], "mcp-lint.placeCursor");
    assert_eq!(action["command"]["arguments"], json!([main, cursor]));

    // Apply it as the editor would: the finding is suppressed, and the missing reason reported.
    let suppressed = insert_line(&main_rs(BAD_LINE), LINE as usize, &format!("{directive}\n"));
    change(&mut server, &main, 4, json!([{ "text": suppressed }]));
    let found = server.diagnostics(&main, Some(4));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["code"], "suppression_without_reason");
    assert_eq!(found[0]["severity"], 2, "warning");
    assert_eq!(found[0]["range"]["start"]["line"], LINE);

    // The command puts the cursor where the reason goes.
    let id = server.request("workspace/executeCommand", action["command"].clone());
    let show = server.server_request("window/showDocument");
    assert_eq!(show["params"]["uri"], main);
    assert_eq!(show["params"]["takeFocus"], true);
    assert_eq!(
        show["params"]["selection"],
        json!({ "start": cursor, "end": cursor })
    );
    server.reply(&show, json!({ "success": true }));
    assert_eq!(server.response(id), Value::Null);
    change(
        &mut server,
        &main,
        5,
        json!([{ "range": { "start": cursor, "end": cursor }, "text": "this test wants it silenced" }]),
    );
    assert_eq!(server.diagnostics(&main, Some(5)), Vec::<Value>::new());

    // Back to the mistake; a second open document of the crate is published with it.
    change(
        &mut server,
        &main,
        6,
        json!([{ "text": main_rs(BAD_LINE) }]),
    );
    assert_eq!(server.diagnostics(&main, Some(6)).len(), 1);
    open(&mut server, &util, "pub fn helper() {}\n");
    assert_eq!(server.diagnostics(&util, Some(1)), Vec::<Value>::new());
    assert_eq!(server.diagnostics(&main, Some(6)).len(), 1, "re-published");

    // mcp-lint.toml allows the lint: diagnostics are cleared once the change is announced.
    let config = root.join("mcp-lint.toml");
    std::fs::write(
        &config,
        "[lints]\ntool_failure_as_protocol_error = \"allow\"\n",
    )
    .expect("write");
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&config), "type": 1 }] }),
    );
    assert_eq!(server.diagnostics(&main, Some(6)), Vec::<Value>::new());

    // A broken configuration is shown to the user, not swallowed.
    std::fs::write(
        &config,
        "[lints]\ntool_failure_as_protocol_error = \"alow\"\n",
    )
    .expect("write");
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&config), "type": 2 }] }),
    );
    let shown = server.wait_for("window/showMessage", |m| {
        m["method"] == "window/showMessage"
    });
    assert_eq!(shown["params"]["type"], 1, "error");
    let text = shown["params"]["message"].as_str().expect("message");
    assert!(
        text.contains("mcp-lint.toml") && text.contains("did you mean `allow`"),
        "{text}"
    );

    // didClose clears the document's diagnostics.
    std::fs::remove_file(&config).expect("remove");
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&config), "type": 3 }] }),
    );
    let found = loop {
        let found = server.diagnostics(&main, Some(6));
        if !found.is_empty() {
            break found;
        }
    };
    assert_eq!(found[0]["code"], "tool_failure_as_protocol_error");
    server.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": main } }),
    );
    assert_eq!(server.diagnostics(&main, None), Vec::<Value>::new());

    assert_eq!(server.call("shutdown", Value::Null), Value::Null);
    server.notify("exit", Value::Null);
    let status = server.exit_status();
    let stderr = server.stderr();
    assert_eq!(status.code(), Some(0), "stderr:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn utf8_positions_when_offered_unknown_requests_and_exit_without_shutdown() {
    let (_tmp, root) = project();
    let main = uri(&root.join("src/main.rs"));
    let mut server = Server::start(&root);
    let init = initialize(&mut server, &root, &["utf-8", "utf-16"]);
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    server.notify("initialized", json!({}));

    open(&mut server, &main, &main_rs(BAD_LINE));
    let found = server.diagnostics(&main, Some(1));
    let start = BAD_LINE.find(FINDING).expect("finding") as u64;
    assert_eq!(
        found[0]["range"],
        range((LINE, start), (LINE, start + FINDING.len() as u64))
    );

    // An unbalanced file is a parse_error finding, and the server goes on.
    change(&mut server, &main, 2, json!([{ "text": "fn main() {\n" }]));
    let found = server.diagnostics(&main, Some(2));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["code"], "parse_error");

    let id = server.request("textDocument/hover", json!({}));
    let response = server.wait_for("hover response", |m| m["id"] == json!(id));
    assert_eq!(response["error"]["code"], -32601, "{response:#}");

    server.notify("exit", Value::Null);
    assert_eq!(
        server.exit_status().code(),
        Some(1),
        "exit without shutdown"
    );
}
