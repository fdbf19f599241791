//! The `mcp-lint` binary under a memory cap and a time limit, for the hostile-input tests: an
//! unbounded read or allocation fails the test (the allocation fails, the process aborts)
//! instead of taking the machine's memory, and a hang fails it instead of blocking the suite.
//! The servers (`server`, `mcp`) run the same way, with their framed stdout parsed as it comes.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::common::{quiet_env, Run};

/// Address space per run: what mcp-lint needs with a few analysis threads (each reserves a
/// 256 MiB stack) and then some; reading `/dev/zero` to the end or honouring a
/// `Content-Length: 1000000000000` goes far beyond.
pub const MEMORY_CAP_KIB: u64 = 3 << 20;
/// Every run here finishes in seconds; a hang fails after this.
pub const TIME_LIMIT: Duration = Duration::from_secs(90);

/// `mcp-lint args…` in `dir` under the caps, through `sh -c 'ulimit -v …; exec …'`.
pub fn command(dir: &Path, args: &[&str]) -> Command {
    command_after("", dir, args)
}

/// [`command`], with the shell commands `setup` run first (`trap '' XFSZ; ulimit -f 0; `).
pub fn command_after(setup: &str, dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!(
            "{setup}ulimit -v {MEMORY_CAP_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args);
    quiet_env(&mut cmd, dir);
    cmd.env("MCP_LINT_CACHE_DIR", dir.join(".cache"));
    cmd
}

/// The exit code, or 128 + the signal that ended the process (134: aborted).
pub fn code(status: ExitStatus) -> i32 {
    status
        .code()
        .unwrap_or_else(|| 128 + status.signal().unwrap_or(0))
}

/// Wait for `child`, killing it and failing after [`TIME_LIMIT`].
pub fn wait(child: &mut Child, what: &str) -> ExitStatus {
    let deadline = Instant::now() + TIME_LIMIT;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {TIME_LIMIT:?}, killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn drain(mut from: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        bytes
    })
}

/// Run `mcp-lint args…` with `stdin`, under the caps.
pub fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    run_command(command(dir, args), stdin)
}

/// Run `cmd` (made by [`command`], then adjusted) with `stdin`.
pub fn run_command(mut cmd: Command, stdin: &[u8]) -> Run {
    let what = format!("{:?}", cmd.get_args().collect::<Vec<_>>());
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mcp-lint");
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let stdout = drain(child.stdout.take().expect("stdout"));
    let stderr = drain(child.stderr.take().expect("stderr"));
    let status = wait(&mut child, &what);
    let _ = writer.join();
    Run {
        code: code(status),
        stdout: String::from_utf8_lossy(&stdout.join().expect("stdout")).into_owned(),
        stderr: String::from_utf8_lossy(&stderr.join().expect("stderr")).into_owned(),
    }
}

/// How a server frames its messages on stdout.
#[derive(Clone, Copy)]
pub enum Framing {
    /// LSP: `Content-Length` headers.
    Lsp,
    /// MCP over stdio: one JSON message per line.
    Lines,
}

impl Framing {
    /// Frame `message` for the server's stdin.
    pub fn frame(self, message: &Value) -> Vec<u8> {
        let body = message.to_string();
        match self {
            Framing::Lsp => format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes(),
            Framing::Lines => format!("{body}\n").into_bytes(),
        }
    }

    /// The next message on stdout, `None` at its end; a message that is not JSON fails.
    fn read(self, reader: &mut impl BufRead) -> Option<Value> {
        let body = match self {
            Framing::Lines => {
                let mut line = String::new();
                (reader.read_line(&mut line).ok()? > 0).then_some(line.into_bytes())?
            }
            Framing::Lsp => {
                let mut length = None;
                loop {
                    let mut header = String::new();
                    if reader.read_line(&mut header).ok()? == 0 {
                        return None;
                    }
                    let header = header.trim_end();
                    if header.is_empty() {
                        break;
                    }
                    if let Some(n) = header.strip_prefix("Content-Length: ") {
                        length = Some(n.parse::<usize>().expect("a Content-Length"));
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                reader.read_exact(&mut body).ok()?;
                body
            }
        };
        Some(serde_json::from_slice(&body).unwrap_or_else(|e| {
            panic!(
                "the server wrote a message that is not JSON ({e}): {}",
                String::from_utf8_lossy(&body)
            )
        }))
    }
}

/// A server (`mcp-lint server` or `mcp-lint mcp`) under the caps.
pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    framing: Framing,
    messages: Receiver<Value>,
    stderr: Option<std::thread::JoinHandle<Vec<u8>>>,
    deadline: Instant,
}

impl Server {
    pub fn start(dir: &Path, args: &[&str], framing: Framing) -> Server {
        let mut child = command(dir, args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the server");
        let stdin = child.stdin.take();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (send, messages) = mpsc::channel();
        std::thread::spawn(move || {
            while let Some(message) = framing.read(&mut stdout) {
                if send.send(message).is_err() {
                    break;
                }
            }
        });
        let stderr = Some(drain(child.stderr.take().expect("stderr")));
        Server {
            child,
            stdin,
            framing,
            messages,
            stderr,
            deadline: Instant::now() + TIME_LIMIT,
        }
    }

    /// Write raw bytes to the server's stdin (a write error means it is gone: not a failure
    /// here, the next read says what happened).
    pub fn write(&mut self, bytes: &[u8]) {
        if let Some(stdin) = &mut self.stdin {
            let _ = stdin.write_all(bytes).and_then(|()| stdin.flush());
        }
    }

    pub fn send(&mut self, message: &Value) {
        let framed = self.framing.frame(message);
        self.write(&framed);
    }

    /// The next message the server writes that `matches`, skipping others (logs,
    /// notifications); fails when the server ends or the time runs out first.
    pub fn wait_for(&mut self, what: &str, matches: impl Fn(&Value) -> bool) -> Value {
        loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if matches(&message) => return message,
                Ok(_) => {}
                Err(e) => panic!(
                    "no {what} from the server ({e}); stderr:\n{}",
                    self.close_and_stderr()
                ),
            }
        }
    }

    /// The answer to request `id` (any JSON id: `null` for errors without one).
    pub fn answer(&mut self, id: &Value) -> Value {
        let id = id.clone();
        self.wait_for(&format!("answer to id {id}"), move |m| {
            m.get("id") == Some(&id) && (m.get("result").is_some() || m.get("error").is_some())
        })
    }

    /// Close stdin and wait for the exit; the exit code.
    pub fn close(&mut self) -> i32 {
        drop(self.stdin.take());
        code(wait(&mut self.child, "the server after stdin closed"))
    }

    pub fn close_and_stderr(&mut self) -> String {
        let code = self.close();
        let stderr = self.stderr.take().map(|h| h.join().unwrap_or_default());
        format!(
            "exit {code}\n{}",
            String::from_utf8_lossy(&stderr.unwrap_or_default())
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
