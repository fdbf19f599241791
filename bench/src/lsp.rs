//! A language-server client for the benchmark: it starts `SERVER server` in a crate written by
//! `gen-names`, opens the file of `names::EDIT_FILE`, waits for its diagnostics, then makes
//! one-line edits (`textDocument/didChange`, incremental) and waits for the diagnostics of
//! each new version. LSP over stdio with Content-Length framing; every wait has a deadline.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::names::{edited_line, EDIT_FILE, EDIT_LINE};

pub struct Timings {
    /// From `didOpen` to the first `publishDiagnostics` of the file: wall time, and the CPU
    /// time the server used meanwhile (all its threads; `None` where /proc cannot tell).
    pub open: Interval,
    /// From each `didChange` to the `publishDiagnostics` of that version.
    pub changes: Vec<Interval>,
    /// Diagnostics published after the open and after the last change.
    pub open_diagnostics: usize,
    pub change_diagnostics: usize,
}

pub fn measure(
    server: &Path,
    root: &Path,
    edits: usize,
    timeout: Duration,
) -> Result<Timings, String> {
    let absolute = |p: &Path| {
        p.canonicalize()
            .map_err(|e| format!("{}: {e}", p.display()))
    };
    // The server runs in the crate's directory: a relative path would not name it there.
    let server = absolute(server)?;
    let root = absolute(root)?;
    let file = root.join(EDIT_FILE);
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let line = text
        .lines()
        .position(|l| l == EDIT_LINE)
        .ok_or_else(|| format!("{} has no line `{EDIT_LINE}`", file.display()))?;
    let mut client = Client::start(&server, &root, timeout)?;
    let result = session(&mut client, &root, &file, &text, line, edits);
    client.stop();
    result
}

pub struct Interval {
    pub wall: Duration,
    pub cpu: Option<Duration>,
}

/// Times an interval of the server's work.
struct Stopwatch {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Stopwatch {
    fn start(client: &Client) -> Stopwatch {
        Stopwatch {
            wall: Instant::now(),
            cpu: client.cpu_time(),
        }
    }

    fn stop(self, client: &Client) -> Interval {
        let wall = self.wall.elapsed();
        let cpu = self
            .cpu
            .zip(client.cpu_time())
            .map(|(before, after)| after.saturating_sub(before));
        Interval { wall, cpu }
    }
}

fn session(
    client: &mut Client,
    root: &Path,
    file: &Path,
    text: &str,
    line: usize,
    edits: usize,
) -> Result<Timings, String> {
    let root_uri = uri(root)?;
    let file_uri = uri(file)?;
    client.request(
        "initialize",
        json!({
            "processId": std::process::id(),
            "rootUri": root_uri,
            "workspaceFolders": [{ "uri": root_uri, "name": "bench" }],
            "capabilities": { "general": { "positionEncodings": ["utf-16"] } },
        }),
    )?;
    client.notify("initialized", json!({}))?;

    let watch = Stopwatch::start(client);
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": file_uri, "languageId": "rust", "version": 1, "text": text } }),
    )?;
    let open_diagnostics = client.diagnostics(&file_uri, 1)?;
    let open = watch.stop(client);

    let mut changes = Vec::new();
    let mut change_diagnostics = 0;
    let mut current = EDIT_LINE.to_string();
    for n in 1..=edits {
        let replacement = edited_line(n);
        let version = n as i64 + 1;
        let watch = Stopwatch::start(client);
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": file_uri, "version": version },
                "contentChanges": [{
                    "range": {
                        "start": { "line": line, "character": 0 },
                        "end": { "line": line, "character": current.encode_utf16().count() },
                    },
                    "text": replacement,
                }],
            }),
        )?;
        change_diagnostics = client.diagnostics(&file_uri, version)?;
        changes.push(watch.stop(client));
        current = replacement;
    }
    client.request("shutdown", Value::Null)?;
    client.notify("exit", Value::Null)?;
    Ok(Timings {
        open,
        changes,
        open_diagnostics,
        change_diagnostics,
    })
}

/// A `file:` URI; the benchmark's paths need no percent-encoding, and others are refused.
fn uri(path: &Path) -> Result<String, String> {
    let text = path.to_str().unwrap_or_default();
    if text.is_empty()
        || !text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b))
    {
        return Err(format!(
            "{}: the benchmark needs a plain ASCII path (letters, digits, `/._-`)",
            path.display()
        ));
    }
    Ok(format!("file://{text}"))
}

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Result<Value, String>>,
    next_id: i64,
    timeout: Duration,
}

impl Client {
    fn start(server: &Path, root: &Path, timeout: Duration) -> Result<Client, String> {
        let mut child = Command::new(server)
            .arg("server")
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {} server: {e}", server.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let message = read_message(&mut reader);
                let end = !matches!(message, Ok(Some(_)));
                if tx
                    .send(
                        message
                            .and_then(|m| m.ok_or_else(|| "the server closed stdout".to_string())),
                    )
                    .is_err()
                    || end
                {
                    return;
                }
            }
        });
        Ok(Client {
            child,
            stdin,
            messages,
            next_id: 0,
            timeout,
        })
    }

    fn send(&mut self, message: Value) -> Result<(), String> {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("cannot write to the server: {e}"))
    }

    fn notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }))
    }

    /// Send a request and wait for its response.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        self.wait(&format!("the response to {method}"), |m| {
            m.get("id") == Some(&json!(id)) && m.get("method").is_none()
        })
    }

    /// Wait for the diagnostics of `uri` at `version`; returns how many there are.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Result<usize, String> {
        let message = self.wait(&format!("the diagnostics of version {version}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        })?;
        Ok(message["params"]["diagnostics"]
            .as_array()
            .map_or(0, Vec::len))
    }

    /// The next message that `wanted` accepts; requests from the server are answered with
    /// `null`, other messages dropped.
    fn wait(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Result<Value, String> {
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = match self.messages.recv_timeout(left) {
                Ok(message) => message?,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no {what} within {} s", self.timeout.as_secs()))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the server stopped before {what}"))
                }
            };
            if wanted(&message) {
                return Ok(message);
            }
            if let (Some(id), Some(_)) = (message.get("id"), message.get("method")) {
                let id = id.clone();
                self.send(json!({ "jsonrpc": "2.0", "id": id, "result": null }))?;
            }
        }
    }

    /// The server's user + system CPU time so far, from /proc (Linux).
    fn cpu_time(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // The fields after the command name, which is in parentheses and may hold spaces:
        // utime and stime are the 14th and 15th fields of the line.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks: u64 =
            fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        // Linux reports these in USER_HZ, which is 100 on every architecture it runs on.
        Some(Duration::from_millis(ticks * 10))
    }

    /// Let the server exit after `exit`, or end it.
    fn stop(mut self) {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One framed message; `None` at a clean end of the stream.
fn read_message(reader: &mut impl BufRead) -> Result<Option<Value>, String> {
    let mut length = None;
    loop {
        let mut header = String::new();
        let read = reader
            .read_line(&mut header)
            .map_err(|e| format!("cannot read from the server: {e}"))?;
        if read == 0 {
            return Ok(None);
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some(value) = header.strip_prefix("Content-Length:") {
            length = Some(
                value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| format!("bad header `{header}`"))?,
            );
        }
    }
    let length = length.ok_or("a message without Content-Length")?;
    // A language server's message is small; more than this is a framing error.
    if length > 256 << 20 {
        return Err(format!("a message of {length} bytes"));
    }
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|e| format!("cannot read from the server: {e}"))?;
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| format!("a message that is not JSON: {e}"))
}
