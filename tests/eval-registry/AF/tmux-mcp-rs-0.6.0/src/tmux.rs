//! Local and SSH-wrapped tmux process adapter, output parsers, and buffer search.
//!
//! Owns socket/SSH resolution, bounded concurrency for tmux spawns, tabular
//! list parsers, create/split/send operations, paste-buffer IO, and windowed
//! buffer search used by MCP tools. Prefer isolated sockets via
//! `TMUX_MCP_SOCKET` or per-call overrides when running multi-agent workloads.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::process::Stdio;

use once_cell::sync::Lazy;
use regex::Regex;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;
use tokio::sync::Semaphore;
use uuid::Uuid;

use crate::errors::{Error, Result};
use crate::types::{
    BufferInfo, BufferSearchMatch, BufferSearchOutput, ClientInfo, Pane, PaneInfo, SearchMode,
    Session, Window, WindowInfo,
};

/// Cap concurrent local/SSH tmux spawns so multi-tool bursts do not fork-bomb.
/// Long `wait-for` side-channel waits intentionally bypass this semaphore.
const TMUX_MAX_CONCURRENCY: usize = 8;
const DEFAULT_SHOW_MAX_BYTES: u64 = 65_536;
const DEFAULT_SEARCH_CONTEXT_BYTES: u32 = 40;
const DEFAULT_SEARCH_MAX_MATCHES: u32 = 50;
const DEFAULT_SEARCH_MAX_SCAN_BYTES: u64 = 65_536;
/// Extra bytes loaded past a logical page so an edge cannot split a UTF-8 scalar.
const UTF8_WINDOW_SLACK_BYTES: u64 = 4;
/// Prefer tempfile rewrite for append when local buffer exceeds this size.
const APPEND_INLINE_MAX_BYTES: u64 = 262_144;
const PARALLEL_BUFFER_THRESHOLD: usize = 10;
/// Fuzzy scoring skips individual lines larger than this to bound CPU.
const FUZZY_MAX_LINE_BYTES: usize = 4_096;

static TMUX_SEMAPHORE: Lazy<Semaphore> = Lazy::new(|| Semaphore::new(TMUX_MAX_CONCURRENCY));

#[derive(Clone)]
struct BufferText {
    name: String,
    text: String,
    base_offset: usize,
    full_len: usize,
}

/// Budgets and scoring flags for multi-buffer paste-buffer search.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// Bytes of surrounding text kept with each match snippet.
    pub context_bytes: Option<u32>,
    /// Hard stop on matches returned for the whole request.
    pub max_matches: Option<u32>,
    /// Per-buffer byte budget for literal match starts. Regex/fuzzy search
    /// requires this budget to cover the full buffer so paging stays stateless.
    pub max_scan_bytes: Option<u64>,
    /// Attach similarity scores when the fuzzy feature stack is enabled.
    pub include_similarity: bool,
    /// Prefer fuzzy line scoring over exact mode when supported.
    pub fuzzy_match: bool,
    /// Drop fuzzy hits below this score when similarity is requested.
    pub similarity_threshold: Option<f32>,
    /// Per-buffer byte cursor to resume after a truncated scan.
    pub resume_from_offset: Option<BTreeMap<String, u64>>,
}

/// Budgets for searching inside a window around a prior match anchor.
#[derive(Clone, Debug)]
pub struct SubsearchOptions {
    /// Half-window of context around the anchor used as the scan range.
    pub context_bytes: u32,
    pub max_matches: Option<u32>,
    pub include_similarity: bool,
    pub fuzzy_match: bool,
    pub similarity_threshold: Option<f32>,
    /// Resume cursor within the anchor window for paged subsearch.
    pub resume_from_offset: Option<u64>,
}

struct BufferScanResult {
    name: String,
    matches: Vec<BufferSearchMatch>,
    scan_end: usize,
    full_len: usize,
    truncated_by_scan: bool,
    fuzzy_skipped_lines: u32,
    fuzzy_skipped_bytes: u64,
    zero_length_regex_offset: Option<u64>,
}

#[derive(Clone, Copy)]
struct MatchRange {
    /// Bytes inspected by the matcher. This may include finite lookahead.
    search_start: usize,
    search_end: usize,
    /// Match starts eligible for this page. The end is exclusive.
    eligible_start: usize,
    eligible_end: usize,
    /// Bounds applied to returned snippets.
    context_start: usize,
    context_end: usize,
}

impl MatchRange {
    fn contains_start(self, offset: usize) -> bool {
        offset >= self.eligible_start && offset < self.eligible_end
    }
}

#[derive(Clone)]
struct BufferScanPlan {
    buffer: BufferText,
    range: MatchRange,
    /// Absolute byte cursor immediately after the logical page.
    scan_end: usize,
    truncated_by_scan: bool,
}

struct ScanExecution<'a> {
    query: &'a str,
    context_bytes: usize,
    include_similarity: bool,
    mode: SearchMode,
    regex: Option<&'a Regex>,
    fuzzy_enabled: bool,
    similarity_threshold: f32,
}

/// Return tmux's default Unix socket path for the current user.
///
/// tmux uses `$TMUX_TMPDIR` when set, otherwise `/tmp`, with sockets stored
/// under a `tmux-$UID` directory and the default socket named `default`.
/// Non-Unix targets have no equivalent UID socket convention, so callers must
/// use an explicit socket or let tmux choose its native default.
#[cfg(unix)]
pub fn default_socket_path() -> Option<String> {
    let base = std::env::var("TMUX_TMPDIR")
        .ok()
        .filter(|path| !path.is_empty())
        .unwrap_or_else(|| "/tmp".to_string());
    let uid = unsafe { libc::getuid() };
    Some(
        Path::new(&base)
            .join(format!("tmux-{uid}"))
            .join("default")
            .to_string_lossy()
            .into_owned(),
    )
}

#[cfg(not(unix))]
pub fn default_socket_path() -> Option<String> {
    None
}

/// Resolve the effective tmux socket path from an override, environment variable,
/// or tmux's default socket path.
pub fn resolve_socket(socket: Option<&str>) -> Option<String> {
    if let Some(socket) = socket.filter(|socket| !socket.is_empty()) {
        return Some(socket.to_string());
    }
    match std::env::var("TMUX_MCP_SOCKET") {
        Ok(socket) if !socket.is_empty() => Some(socket),
        _ => default_socket_path(),
    }
}

/// Get socket arguments for tmux commands.
fn get_socket_args(socket: Option<&str>) -> Vec<String> {
    match resolve_socket(socket) {
        Some(socket) => vec!["-S".to_string(), socket],
        None => vec![],
    }
}

/// Parse a `TMUX_MCP_SSH` value into SSH argv tokens.
pub fn parse_ssh_args(value: &str) -> Result<Option<Vec<String>>> {
    if value.trim().is_empty() {
        return Ok(None);
    }
    let parts = shell_words::split(value).map_err(|e| Error::InvalidArgument {
        message: format!("invalid TMUX_MCP_SSH: {e}"),
    })?;
    if parts.is_empty() {
        Ok(None)
    } else {
        Ok(Some(parts))
    }
}

/// Get SSH arguments for tmux commands.
fn get_ssh_args() -> Result<Option<Vec<String>>> {
    match std::env::var("TMUX_MCP_SSH") {
        Ok(value) => parse_ssh_args(&value),
        Err(_) => Ok(None),
    }
}

/// True when `TMUX_MCP_SSH` is set to a non-empty connection string.
pub fn ssh_enabled() -> Result<bool> {
    Ok(get_ssh_args()?.is_some())
}

fn quote_remote_arg(arg: &str) -> String {
    if arg.is_empty() {
        return "''".to_string();
    }

    if arg.chars().all(|c| {
        c.is_ascii_alphanumeric()
            || matches!(c, '_' | '-' | '.' | '/' | ':' | '@' | '%' | '=' | '+')
    }) {
        return arg.to_string();
    }

    let mut quoted = String::with_capacity(arg.len() + 2);
    quoted.push('\'');
    for ch in arg.chars() {
        if ch == '\'' {
            quoted.push_str("'\"'\"'");
        } else {
            quoted.push(ch);
        }
    }
    quoted.push('\'');
    quoted
}

fn build_remote_tmux_command(socket_args: &[String], args: &[&str]) -> String {
    std::iter::once("tmux")
        .chain(socket_args.iter().map(String::as_str))
        .chain(args.iter().copied())
        .map(quote_remote_arg)
        .collect::<Vec<_>>()
        .join(" ")
}

fn build_remote_command(program: &str, args: &[&str]) -> String {
    std::iter::once(program)
        .chain(args.iter().copied())
        .map(quote_remote_arg)
        .collect::<Vec<_>>()
        .join(" ")
}

fn build_tmux_command(args: &[&str], socket: Option<&str>) -> Result<Command> {
    let socket_args = get_socket_args(socket);

    if let Some(mut ssh_args) = get_ssh_args()? {
        ssh_args.push(build_remote_tmux_command(&socket_args, args));
        let mut cmd = Command::new("ssh");
        cmd.args(&ssh_args);
        Ok(cmd)
    } else {
        let mut tmux_args = socket_args;
        tmux_args.extend(args.iter().map(|arg| (*arg).to_string()));
        let mut cmd = Command::new("tmux");
        cmd.args(&tmux_args);
        Ok(cmd)
    }
}

/// Spawn local or SSH-wrapped tmux under the global concurrency semaphore.
async fn run_tmux_with_socket(
    args: &[&str],
    socket: Option<&str>,
    stdin: Option<&[u8]>,
) -> Result<std::process::Output> {
    let _permit = TMUX_SEMAPHORE.acquire().await.map_err(|e| Error::Tmux {
        message: format!("tmux semaphore closed: {e}"),
    })?;

    let mut command = build_tmux_command(args, socket)?;

    let output = if let Some(input) = stdin {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::Tmux {
                message: format!("failed to spawn tmux: {e}"),
            })?;
        if let Some(mut child_stdin) = child.stdin.take() {
            child_stdin
                .write_all(input)
                .await
                .map_err(|e| Error::Tmux {
                    message: format!("failed to write tmux stdin: {e}"),
                })?;
        }
        child.wait_with_output().await.map_err(|e| Error::Tmux {
            message: format!("failed to wait for tmux: {e}"),
        })?
    } else {
        command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .await
            .map_err(|e| Error::Tmux {
                message: format!("failed to spawn tmux: {e}"),
            })?
    };

    Ok(output)
}

/// Collect successful tmux stdout bytes; fall back to stderr when stdout is empty.
///
/// tmux 3.6a can print some `-P` format results on stderr only.
async fn execute_tmux_with_socket_bytes(
    args: &[&str],
    socket: Option<&str>,
    stdin: Option<&[u8]>,
) -> Result<Vec<u8>> {
    let output = run_tmux_with_socket(args, socket, stdin).await?;
    let std::process::Output {
        status,
        stdout,
        stderr,
    } = output;
    if status.success() {
        if !stdout.is_empty() {
            Ok(stdout)
        } else if !stderr.is_empty() {
            Ok(stderr)
        } else {
            Ok(stdout)
        }
    } else {
        let stderr = String::from_utf8_lossy(&stderr).trim().to_string();
        Err(Error::Tmux { message: stderr })
    }
}

async fn execute_tmux_with_socket_to_file(
    args: &[&str],
    socket: Option<&str>,
    path: &Path,
) -> Result<()> {
    let _permit = TMUX_SEMAPHORE.acquire().await.map_err(|e| Error::Tmux {
        message: format!("tmux semaphore closed: {e}"),
    })?;

    let mut command = build_tmux_command(args, socket)?;

    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::Tmux {
            message: format!("failed to spawn tmux: {e}"),
        })?;

    let stdout = child.stdout.take().ok_or_else(|| Error::Tmux {
        message: "failed to capture tmux stdout".to_string(),
    })?;
    let stderr = child.stderr.take().ok_or_else(|| Error::Tmux {
        message: "failed to capture tmux stderr".to_string(),
    })?;

    let mut file = tokio::fs::File::create(path)
        .await
        .map_err(|e| Error::Tmux {
            message: format!("failed to create temp buffer file: {e}"),
        })?;

    let stdout_task = tokio::spawn(async move {
        tokio::io::copy(&mut tokio::io::BufReader::new(stdout), &mut file).await
    });
    let stderr_task = tokio::spawn(async move {
        let mut buf = Vec::new();
        let mut reader = tokio::io::BufReader::new(stderr);
        reader.read_to_end(&mut buf).await?;
        Ok::<Vec<u8>, std::io::Error>(buf)
    });

    let status = child.wait().await.map_err(|e| Error::Tmux {
        message: format!("failed to wait for tmux: {e}"),
    })?;

    let stdout_result = stdout_task.await.map_err(|e| Error::Tmux {
        message: format!("failed to drain tmux stdout: {e}"),
    })?;
    stdout_result.map_err(|e| Error::Tmux {
        message: format!("failed to write temp buffer file: {e}"),
    })?;

    let stderr_bytes = stderr_task
        .await
        .map_err(|e| Error::Tmux {
            message: format!("failed to drain tmux stderr: {e}"),
        })?
        .map_err(|e| Error::Tmux {
            message: format!("failed to read tmux stderr: {e}"),
        })?;

    if status.success() {
        Ok(())
    } else {
        let stderr = String::from_utf8_lossy(&stderr_bytes).trim().to_string();
        Err(Error::Tmux { message: stderr })
    }
}

/// Run a tmux (or SSH-wrapped tmux) argv list under the process semaphore and return stdout.
///
/// Lossy UTF-8 decode; use the bytes helpers when binary buffer content matters.
pub async fn execute_tmux_with_socket(args: &[&str], socket: Option<&str>) -> Result<String> {
    let stdout = execute_tmux_with_socket_bytes(args, socket, None).await?;
    Ok(String::from_utf8_lossy(&stdout).to_string())
}

/// Run tmux on the process-default socket (`TMUX_MCP_SOCKET` / platform default).
pub async fn execute_tmux(args: &[&str]) -> Result<String> {
    execute_tmux_with_socket(args, None).await
}

/// Resolve a remote path with `realpath` over SSH (requires `TMUX_MCP_SSH`).
pub async fn canonicalize_remote_path(path: &str) -> Result<String> {
    let mut ssh_args = get_ssh_args()?.ok_or_else(|| Error::InvalidArgument {
        message: "remote path canonicalization requires TMUX_MCP_SSH".to_string(),
    })?;
    ssh_args.push(build_remote_command("realpath", &["--", path]));

    let output = Command::new("ssh")
        .args(&ssh_args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .await
        .map_err(|e| Error::Tmux {
            message: format!("failed to spawn ssh for remote path validation: {e}"),
        })?;

    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    } else {
        Err(Error::Tmux {
            message: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        })
    }
}

/// Check whether a remote path is a symlink (`test -L`) over SSH.
pub async fn remote_path_is_symlink(path: &str) -> Result<bool> {
    let mut ssh_args = get_ssh_args()?.ok_or_else(|| Error::InvalidArgument {
        message: "remote symlink check requires TMUX_MCP_SSH".to_string(),
    })?;
    ssh_args.push(build_remote_command("test", &["-L", path]));

    let output = Command::new("ssh")
        .args(&ssh_args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .await
        .map_err(|e| Error::Tmux {
            message: format!("failed to spawn ssh for remote symlink validation: {e}"),
        })?;

    Ok(output.status.success())
}

/// Create a remote directory with `mkdir -p` over SSH.
pub async fn create_remote_dir(path: &str) -> Result<()> {
    let mut ssh_args = get_ssh_args()?.ok_or_else(|| Error::InvalidArgument {
        message: "remote directory creation requires TMUX_MCP_SSH".to_string(),
    })?;
    ssh_args.push(build_remote_command("mkdir", &["-p", "--", path]));

    let output = Command::new("ssh")
        .args(&ssh_args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .await
        .map_err(|e| Error::Tmux {
            message: format!("failed to spawn ssh for remote directory creation: {e}"),
        })?;

    if output.status.success() {
        Ok(())
    } else {
        Err(Error::Tmux {
            message: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        })
    }
}

/// Probe whether a tmux server answers on the effective socket.
///
/// Distinguishes "no server" from "server up but empty session list".
pub async fn is_tmux_running() -> Result<bool> {
    match execute_tmux(&["list-sessions", "-F", "#{session_name}"]).await {
        Ok(_) => Ok(true),
        Err(Error::Tmux { ref message }) if message.contains("no server running") => Ok(false),
        Err(Error::Tmux { ref message }) if message.contains("no sessions") => Ok(true),
        Err(e) => Err(e),
    }
}

/// Parse `tmux -V` output like `tmux 3.4` or `tmux 3.6b` into `(major, minor)`.
///
/// Letter/rc suffixes on the minor field are stripped (`6b` → `6`). Returns
/// `None` when the version cannot be parsed.
pub fn parse_tmux_version(output: &str) -> Option<(u32, u32)> {
    let version = output.trim().strip_prefix("tmux ")?.trim();
    let mut parts = version.split('.');
    let major: u32 = parts.next()?.parse().ok()?;
    let minor_raw = parts.next().unwrap_or("0");
    let minor_digits: String = minor_raw
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let minor: u32 = minor_digits.parse().unwrap_or(0);
    Some((major, minor))
}

/// Query the running tmux version via `tmux -V`, honoring the socket/SSH path so
/// a remote tmux reports its own version. Returns None if it cannot be determined.
pub async fn tmux_version() -> Option<(u32, u32)> {
    let output = execute_tmux(&["-V"]).await.ok()?;
    parse_tmux_version(&output)
}

/// Parse `list-sessions -F '#{session_id}\t#{session_name}\t#{?session_attached,1,0}\t#{session_windows}'`
pub fn parse_sessions(output: &str) -> Vec<Session> {
    if output.is_empty() {
        return Vec::new();
    }

    output
        .lines()
        .filter_map(|line| {
            let parts: Vec<&str> = line.split('\t').collect();
            if parts.len() == 4 {
                Some(Session {
                    id: parts[0].to_string(),
                    name: parts[1].to_string(),
                    attached: parts[2] == "1",
                    windows: parts[3].parse().unwrap_or(0),
                })
            } else {
                None
            }
        })
        .collect()
}

/// Parse `list-windows -F '#{window_id}\t#{window_name}\t#{?window_active,1,0}'`
pub fn parse_windows(output: &str, session_id: &str) -> Vec<Window> {
    if output.is_empty() {
        return Vec::new();
    }

    output
        .lines()
        .filter_map(|line| {
            let parts: Vec<&str> = line.split('\t').collect();
            if parts.len() == 3 {
                Some(Window {
                    id: parts[0].to_string(),
                    name: parts[1].to_string(),
                    active: parts[2] == "1",
                    session_id: session_id.to_string(),
                })
            } else {
                None
            }
        })
        .collect()
}

/// Parse `list-panes -F '#{pane_id}\t#{pane_title}\t#{?pane_active,1,0}'`
pub fn parse_panes(output: &str, window_id: &str) -> Vec<Pane> {
    if output.is_empty() {
        return Vec::new();
    }

    output
        .lines()
        .filter_map(|line| {
            let parts: Vec<&str> = line.split('\t').collect();
            if parts.len() == 3 {
                Some(Pane {
                    id: parts[0].to_string(),
                    title: parts[1].to_string(),
                    active: parts[2] == "1",
                    window_id: window_id.to_string(),
                })
            } else {
                None
            }
        })
        .collect()
}

/// Parse `split-window -P -F` output (`pane_id`, `title`, `active`, optional `window_id`).
fn parse_created_pane_line(output: &str, fallback_window_id: &str) -> Option<Pane> {
    let line = output.lines().next()?.trim();
    if line.is_empty() {
        return None;
    }
    let parts: Vec<&str> = line.split('\t').collect();
    match parts.as_slice() {
        [id, title, active] => Some(Pane {
            id: (*id).to_string(),
            title: (*title).to_string(),
            active: *active == "1",
            window_id: fallback_window_id.to_string(),
        }),
        [id, title, active, window_id] => Some(Pane {
            id: (*id).to_string(),
            title: (*title).to_string(),
            active: *active == "1",
            window_id: (*window_id).to_string(),
        }),
        _ => None,
    }
}

/// Parse `break-pane -P -F` output (`window_id`, `name`, `active`, optional `session_id`).
fn parse_created_window_line(output: &str, fallback_session_id: &str) -> Option<Window> {
    let line = output.lines().next()?.trim();
    if line.is_empty() {
        return None;
    }
    let parts: Vec<&str> = line.split('\t').collect();
    match parts.as_slice() {
        [id, name, active] => Some(Window {
            id: (*id).to_string(),
            name: (*name).to_string(),
            active: *active == "1",
            session_id: fallback_session_id.to_string(),
        }),
        [id, name, active, session_id] => Some(Window {
            id: (*id).to_string(),
            name: (*name).to_string(),
            active: *active == "1",
            session_id: (*session_id).to_string(),
        }),
        _ => None,
    }
}

/// Parse `list-clients -F '#{client_tty}\t#{client_name}\t#{client_session}\t#{client_pid}\t#{?client_attached,1,0}'`
pub fn parse_clients(output: &str) -> Vec<ClientInfo> {
    if output.is_empty() {
        return Vec::new();
    }

    output
        .lines()
        .filter_map(|line| {
            let parts: Vec<&str> = line.split('\t').collect();
            if parts.len() == 5 {
                Some(ClientInfo {
                    tty: parts[0].to_string(),
                    name: parts[1].to_string(),
                    session_name: parts[2].to_string(),
                    pid: parts[3].parse().ok(),
                    attached: parts[4] == "1",
                })
            } else {
                None
            }
        })
        .collect()
}

/// Parse `list-buffers -F '#{buffer_name}\t#{buffer_size}\t#{buffer_created}'`
pub fn parse_buffers(output: &str) -> Vec<BufferInfo> {
    if output.is_empty() {
        return Vec::new();
    }

    output
        .lines()
        .enumerate()
        .filter_map(|(idx, line)| {
            let parts: Vec<&str> = line.split('\t').collect();
            if parts.len() == 3 {
                let size_u64: u64 = parts[1].parse().unwrap_or(0);
                let size = std::cmp::min(size_u64, u32::MAX as u64) as u32;
                Some(BufferInfo {
                    name: parts[0].to_string(),
                    size,
                    size_bytes: size_u64,
                    order_index: idx as u32,
                    created: parts[2].parse().ok(),
                })
            } else {
                None
            }
        })
        .collect()
}

/// Enumerate sessions on a socket via tab-formatted `list-sessions`.
pub async fn list_sessions(socket: Option<&str>) -> Result<Vec<Session>> {
    let format = "#{session_id}\t#{session_name}\t#{?session_attached,1,0}\t#{session_windows}";
    let output = execute_tmux_with_socket(&["list-sessions", "-F", format], socket).await?;
    Ok(parse_sessions(output.trim()))
}

/// Locate the first session whose name equals `name` (exact match).
pub async fn find_session_by_name(name: &str, socket: Option<&str>) -> Result<Option<Session>> {
    let sessions = list_sessions(socket).await?;
    Ok(sessions.into_iter().find(|s| s.name == name))
}

/// Enumerate windows for a session target (`-t session_id`).
pub async fn list_windows(session_id: &str, socket: Option<&str>) -> Result<Vec<Window>> {
    let format = "#{window_id}\t#{window_name}\t#{?window_active,1,0}";
    let output =
        execute_tmux_with_socket(&["list-windows", "-t", session_id, "-F", format], socket).await?;
    Ok(parse_windows(output.trim(), session_id))
}

/// Enumerate panes for a window target (`-t window_id`).
pub async fn list_panes(window_id: &str, socket: Option<&str>) -> Result<Vec<Pane>> {
    let format = "#{pane_id}\t#{pane_title}\t#{?pane_active,1,0}";
    let output =
        execute_tmux_with_socket(&["list-panes", "-t", window_id, "-F", format], socket).await?;
    Ok(parse_panes(output.trim(), window_id))
}

/// Capture pane scrollback/history as text for tools and partial command output.
pub async fn capture_pane(
    pane_id: &str,
    lines: Option<u32>,
    colors: bool,
    start: Option<i32>,
    end: Option<i32>,
    join: bool,
    socket: Option<&str>,
) -> Result<String> {
    let mut args: Vec<String> = vec![
        "capture-pane".into(),
        "-p".into(),
        "-t".into(),
        pane_id.into(),
    ];

    if colors {
        args.push("-e".into());
    }
    if join {
        args.push("-J".into());
    }

    if start.is_some() || end.is_some() {
        let start_val = start.unwrap_or(0);
        args.push("-S".into());
        args.push(start_val.to_string());
        args.push("-E".into());
        if let Some(end_val) = end {
            args.push(end_val.to_string());
        } else {
            args.push("-".into());
        }
    } else {
        let lines_val = lines.unwrap_or(200);
        args.push("-S".into());
        args.push(format!("-{lines_val}"));
        args.push("-E".into());
        args.push("-".into());
    }

    let arg_refs: Vec<&str> = args.iter().map(|arg| arg.as_str()).collect();
    execute_tmux_with_socket(&arg_refs, socket).await
}

/// List attached clients; maps tmux "no clients" to an empty vec rather than error.
pub async fn list_clients(socket: Option<&str>) -> Result<Vec<ClientInfo>> {
    let format =
        "#{client_tty}\t#{client_name}\t#{client_session}\t#{client_pid}\t#{?client_attached,1,0}";
    match execute_tmux_with_socket(&["list-clients", "-F", format], socket).await {
        Ok(output) => Ok(parse_clients(output.trim())),
        Err(Error::Tmux { ref message }) if message.contains("no clients") => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// Detach one client by TTY target (observer disconnect, not session kill).
pub async fn detach_client(client_tty: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["detach-client", "-t", client_tty], socket).await?;
    Ok(())
}

/// List named paste buffers; maps tmux "no buffers" to an empty vec.
pub async fn list_buffers(socket: Option<&str>) -> Result<Vec<BufferInfo>> {
    let format = "#{buffer_name}\t#{buffer_size}\t#{buffer_created}";
    match execute_tmux_with_socket(&["list-buffers", "-F", format], socket).await {
        Ok(output) => Ok(parse_buffers(output.trim())),
        Err(Error::Tmux { ref message }) if message.contains("no buffers") => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// Read a paste buffer as lossy UTF-8 (`None` name selects the top buffer).
pub async fn show_buffer(name: Option<&str>, socket: Option<&str>) -> Result<String> {
    let mut args = vec!["show-buffer"];
    if let Some(name) = name {
        args.push("-b");
        args.push(name);
    }
    let stdout = execute_tmux_with_socket_bytes(&args, socket, None).await?;
    Ok(String::from_utf8_lossy(&stdout).to_string())
}

/// Read a paste buffer as raw bytes without UTF-8 validation.
pub async fn show_buffer_bytes(name: Option<&str>, socket: Option<&str>) -> Result<Vec<u8>> {
    let mut args = vec!["show-buffer"];
    if let Some(name) = name {
        args.push("-b");
        args.push(name);
    }
    execute_tmux_with_socket_bytes(&args, socket, None).await
}

/// Stream paste-buffer contents to a local file (used for large search windows).
pub async fn show_buffer_to_file(
    name: Option<&str>,
    path: &Path,
    socket: Option<&str>,
) -> Result<()> {
    let mut args = vec!["show-buffer"];
    if let Some(name) = name {
        args.push("-b");
        args.push(name);
    }
    execute_tmux_with_socket_to_file(&args, socket, path).await
}

/// Read a paste-buffer byte window and decode lossily for tool previews.
pub async fn show_buffer_slice(
    name: Option<&str>,
    offset_bytes: Option<u64>,
    max_bytes: Option<u64>,
    socket: Option<&str>,
) -> Result<String> {
    let bytes = show_buffer_bytes(name, socket).await?;
    let offset = offset_bytes.unwrap_or(0) as usize;
    let max = max_bytes.unwrap_or(DEFAULT_SHOW_MAX_BYTES) as usize;
    if max == 0 || offset >= bytes.len() {
        return Ok(String::new());
    }
    let end = std::cmp::min(bytes.len(), offset.saturating_add(max));
    let slice = &bytes[offset..end];
    Ok(String::from_utf8_lossy(slice).to_string())
}

fn read_window_from_file(path: &Path, start: u64, len: u64) -> Result<Vec<u8>> {
    if len == 0 {
        return Ok(Vec::new());
    }
    let mut file = std::fs::File::open(path).map_err(|e| Error::Tmux {
        message: format!("failed to open temp buffer file: {e}"),
    })?;
    file.seek(SeekFrom::Start(start)).map_err(|e| Error::Tmux {
        message: format!("failed to seek temp buffer file: {e}"),
    })?;
    let mut buf = vec![0u8; len as usize];
    let mut read_total = 0usize;
    while read_total < buf.len() {
        let n = file.read(&mut buf[read_total..]).map_err(|e| Error::Tmux {
            message: format!("failed to read temp buffer file: {e}"),
        })?;
        if n == 0 {
            break;
        }
        read_total = read_total.saturating_add(n);
    }
    buf.truncate(read_total);
    Ok(buf)
}

/// Write a paste buffer to a filesystem path (caller must pass a policy-resolved path).
pub async fn save_buffer(name: &str, path: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["save-buffer", "-b", name, "--", path], socket).await?;
    Ok(())
}

/// Replace a paste buffer from a filesystem path (caller must pass a policy-resolved path).
pub async fn load_buffer(name: &str, path: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["load-buffer", "-b", name, "--", path], socket).await?;
    Ok(())
}

/// Remove a named paste buffer.
pub async fn delete_buffer(name: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["delete-buffer", "-b", name], socket).await?;
    Ok(())
}

/// Replace a paste buffer via `load-buffer` stdin (avoids argv size limits).
pub async fn set_buffer_bytes(name: &str, content: &[u8], socket: Option<&str>) -> Result<()> {
    let load_args = ["load-buffer", "-b", name, "-"];
    execute_tmux_with_socket_bytes(&load_args, socket, Some(content)).await?;
    Ok(())
}

/// Replace a paste buffer from UTF-8 text.
pub async fn set_buffer(name: &str, content: &str, socket: Option<&str>) -> Result<()> {
    set_buffer_bytes(name, content.as_bytes(), socket).await
}

/// Append UTF-8 text to an existing paste buffer (creates the buffer when missing).
///
/// Large local buffers spill through a temp file; remote SSH always rewrites in memory.
pub async fn append_buffer(name: &str, content: &str, socket: Option<&str>) -> Result<()> {
    let buffers = list_buffers(socket).await?;
    let existing = buffers.iter().find(|b| b.name == name);
    if existing.is_none() {
        return set_buffer(name, content, socket).await;
    }

    let size_bytes = existing.map(|b| b.size_bytes).unwrap_or(0);
    let use_tempfile = size_bytes > APPEND_INLINE_MAX_BYTES && !ssh_enabled()?;

    if use_tempfile {
        let temp = tempfile::NamedTempFile::new().map_err(|e| Error::Tmux {
            message: format!("failed to create temp file: {e}"),
        })?;
        let path = temp.path().to_string_lossy().to_string();
        save_buffer(name, &path, socket).await?;
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut file| std::io::Write::write_all(&mut file, content.as_bytes()))
            .map_err(|e| Error::Tmux {
                message: format!("failed to append temp buffer: {e}"),
            })?;
        execute_tmux_with_socket(&["load-buffer", "-b", name, "--", &path], socket).await?;
        Ok(())
    } else {
        let mut existing_bytes = show_buffer_bytes(Some(name), socket).await?;
        existing_bytes.extend_from_slice(content.as_bytes());
        set_buffer_bytes(name, &existing_bytes, socket).await
    }
}

/// Rename a paste buffer by copy+delete (tmux has no atomic rename for buffers).
pub async fn rename_buffer(from: &str, to: &str, socket: Option<&str>) -> Result<()> {
    let bytes = show_buffer_bytes(Some(from), socket).await?;
    set_buffer_bytes(to, &bytes, socket).await?;
    delete_buffer(from, socket).await?;
    Ok(())
}

fn clamp_char_boundary(text: &str, idx: usize, forward: bool) -> usize {
    if idx >= text.len() {
        return text.len();
    }
    if text.is_char_boundary(idx) {
        return idx;
    }
    let mut i = idx;
    if forward {
        while i < text.len() && !text.is_char_boundary(i) {
            i += 1;
        }
    } else {
        while i > 0 && !text.is_char_boundary(i) {
            i -= 1;
        }
    }
    i
}

fn is_utf8_continuation(byte: u8) -> bool {
    (byte & 0b1100_0000) == 0b1000_0000
}

/// Decode a byte window as UTF-8, trimming incomplete sequences at either edge.
///
/// Incomplete multi-byte sequences at the end (`error_len() == None`) shrink the
/// window; mid-window invalid bytes are hard errors.
fn decode_window(buffer: &str, bytes: &[u8], base_offset: usize) -> Result<(String, usize)> {
    if bytes.is_empty() {
        return Ok((String::new(), base_offset));
    }

    let mut start = 0usize;
    while start < bytes.len() && is_utf8_continuation(bytes[start]) {
        start += 1;
    }

    let mut end = bytes.len();

    loop {
        if start >= end {
            return Ok((String::new(), base_offset.saturating_add(start)));
        }

        let slice = &bytes[start..end];
        match std::str::from_utf8(slice) {
            Ok(text) => return Ok((text.to_string(), base_offset.saturating_add(start))),
            Err(err) => {
                if err.error_len().is_none() {
                    let valid = err.valid_up_to();
                    end = start.saturating_add(valid);
                    continue;
                }
                return Err(Error::InvalidArgument {
                    message: format!(
                        "buffer '{buffer}' contains non-UTF-8 bytes; search requires UTF-8"
                    ),
                });
            }
        }
    }
}

#[cfg(feature = "rapidfuzz")]
fn similarity_score(query: &str, matched: &str) -> f32 {
    rapidfuzz::fuzz::ratio(query.chars(), matched.chars()).clamp(0.0, 1.0) as f32
}

#[cfg(not(feature = "rapidfuzz"))]
fn similarity_score(_query: &str, _matched: &str) -> f32 {
    0.0
}

fn best_fuzzy_window(query: &str, line: &str) -> (f32, usize, usize) {
    if line.is_empty() {
        return (0.0, 0, 0);
    }
    let query_chars = query.chars().count();
    if query_chars == 0 {
        return (0.0, 0, 0);
    }

    let line_chars: Vec<usize> = line.char_indices().map(|(i, _)| i).collect();
    if query_chars >= line_chars.len() {
        return (similarity_score(query, line), 0, line.len());
    }

    let mut best_score = 0.0;
    let mut best_start = 0;
    let mut best_len = line.len();
    for i in 0..=line_chars.len().saturating_sub(query_chars) {
        let start = line_chars[i];
        let end = if i + query_chars < line_chars.len() {
            line_chars[i + query_chars]
        } else {
            line.len()
        };
        let window = &line[start..end];
        let score = similarity_score(query, window);
        if score > best_score {
            best_score = score;
            best_start = start;
            best_len = end.saturating_sub(start);
        }
    }

    (best_score, best_start, best_len)
}

struct MatchContext<'a> {
    buffer: &'a str,
    text: &'a str,
    query: &'a str,
    context_bytes: usize,
    include_similarity: bool,
    base_offset: usize,
}

struct MatchCollection {
    matches: Vec<BufferSearchMatch>,
    fuzzy_skipped_lines: u32,
    fuzzy_skipped_bytes: u64,
    zero_length_regex_offset: Option<u64>,
}

fn build_match(
    ctx: &MatchContext<'_>,
    offset: usize,
    match_len: usize,
    scan_start: usize,
    scan_end: usize,
) -> BufferSearchMatch {
    let context_start =
        clamp_char_boundary(ctx.text, offset.saturating_sub(ctx.context_bytes), false);
    let context_end = clamp_char_boundary(
        ctx.text,
        offset
            .saturating_add(match_len)
            .saturating_add(ctx.context_bytes),
        true,
    );
    let bounded_start = context_start.max(scan_start);
    // Keep ordinary context inside the logical page while always returning the
    // complete match that finite lookahead proved at the page boundary.
    let bounded_end = context_end
        .min(scan_end)
        .max(offset.saturating_add(match_len))
        .min(ctx.text.len());
    let snippet = if bounded_start < bounded_end {
        ctx.text[bounded_start..bounded_end].to_string()
    } else {
        String::new()
    };
    let matched_text = &ctx.text[offset..offset.saturating_add(match_len)];
    let similarity = if ctx.include_similarity {
        Some(similarity_score(ctx.query, matched_text))
    } else {
        None
    };
    let absolute_offset = ctx.base_offset.saturating_add(offset);
    let absolute_context_start = ctx.base_offset.saturating_add(bounded_start);
    let absolute_context_end = ctx.base_offset.saturating_add(bounded_end);
    BufferSearchMatch {
        match_id: format!("{}:{absolute_offset}", ctx.buffer),
        buffer: ctx.buffer.to_string(),
        offset_bytes: absolute_offset as u64,
        match_len: match_len as u32,
        context_start: absolute_context_start as u64,
        context_end: absolute_context_end as u64,
        snippet,
        similarity,
    }
}

fn collect_matches(
    ctx: &MatchContext<'_>,
    range: MatchRange,
    mode: SearchMode,
    regex: Option<&Regex>,
    fuzzy_enabled: bool,
    similarity_threshold: f32,
) -> MatchCollection {
    let scan_text = &ctx.text[range.search_start..range.search_end];
    let mut matches: Vec<BufferSearchMatch> = Vec::new();
    let mut seen_offsets: BTreeSet<u64> = BTreeSet::new();
    let mut fuzzy_skipped_lines: u32 = 0;
    let mut fuzzy_skipped_bytes: u64 = 0;
    let mut zero_length_regex_offset: Option<u64> = None;

    if mode == SearchMode::Literal {
        for (offset, _) in scan_text.match_indices(ctx.query) {
            let absolute = range.search_start.saturating_add(offset);
            if !range.contains_start(absolute) {
                continue;
            }
            matches.push(build_match(
                ctx,
                absolute,
                ctx.query.len(),
                range.context_start,
                range.context_end,
            ));
            seen_offsets.insert(absolute as u64);
        }
    } else if let Some(regex) = regex {
        for m in regex.find_iter(scan_text) {
            let match_len = m.end().saturating_sub(m.start());
            let absolute = range.search_start.saturating_add(m.start());
            if match_len == 0 && zero_length_regex_offset.is_none() {
                zero_length_regex_offset = Some(ctx.base_offset.saturating_add(absolute) as u64);
            }
            if !range.contains_start(absolute) {
                continue;
            }
            matches.push(build_match(
                ctx,
                absolute,
                match_len,
                range.context_start,
                range.context_end,
            ));
            seen_offsets.insert(absolute as u64);
        }
    }

    if fuzzy_enabled {
        let mut offset = 0usize;
        for line in scan_text.split('\n') {
            let line_len = line.len();
            if line_len > 0 {
                if line_len > FUZZY_MAX_LINE_BYTES {
                    fuzzy_skipped_lines = fuzzy_skipped_lines.saturating_add(1);
                    fuzzy_skipped_bytes = fuzzy_skipped_bytes.saturating_add(line_len as u64);
                } else {
                    let (score, best_start, best_len) = best_fuzzy_window(ctx.query, line);
                    if score >= similarity_threshold && best_len > 0 {
                        let absolute = range
                            .search_start
                            .saturating_add(offset)
                            .saturating_add(best_start);
                        let absolute_u64 = absolute as u64;
                        if range.contains_start(absolute) && !seen_offsets.contains(&absolute_u64) {
                            let mut entry = build_match(
                                ctx,
                                absolute,
                                best_len,
                                range.context_start,
                                range.context_end,
                            );
                            entry.similarity = Some(score);
                            matches.push(entry);
                            seen_offsets.insert(absolute_u64);
                        }
                    }
                }
            }
            offset = offset.saturating_add(line_len + 1);
            if offset >= scan_text.len() {
                break;
            }
        }
    }

    matches.sort_by_key(|m| m.offset_bytes);
    MatchCollection {
        matches,
        fuzzy_skipped_lines,
        fuzzy_skipped_bytes,
        zero_length_regex_offset,
    }
}

fn resolve_similarity_flags(
    include_similarity: bool,
    fuzzy_match: bool,
    similarity_threshold: Option<f32>,
) -> Result<(bool, bool, f32)> {
    let fuzzy_enabled = fuzzy_match || similarity_threshold.is_some();
    let include_similarity = include_similarity || fuzzy_enabled;

    if include_similarity && !cfg!(feature = "rapidfuzz") {
        return Err(Error::InvalidArgument {
            message: "similarity/fuzzy matching requires the rapidfuzz feature".into(),
        });
    }

    let threshold = similarity_threshold.unwrap_or(0.8).clamp(0.0, 1.0);
    Ok((include_similarity, fuzzy_enabled, threshold))
}

fn execute_scan_plan(plan: &BufferScanPlan, execution: &ScanExecution<'_>) -> BufferScanResult {
    let buffer = &plan.buffer;
    let ctx = MatchContext {
        buffer: &buffer.name,
        text: &buffer.text,
        query: execution.query,
        context_bytes: execution.context_bytes,
        include_similarity: execution.include_similarity,
        base_offset: buffer.base_offset,
    };
    let collection = collect_matches(
        &ctx,
        plan.range,
        execution.mode,
        execution.regex,
        execution.fuzzy_enabled,
        execution.similarity_threshold,
    );
    BufferScanResult {
        name: buffer.name.clone(),
        matches: collection.matches,
        scan_end: plan.scan_end,
        full_len: buffer.full_len,
        truncated_by_scan: plan.truncated_by_scan,
        fuzzy_skipped_lines: collection.fuzzy_skipped_lines,
        fuzzy_skipped_bytes: collection.fuzzy_skipped_bytes,
        zero_length_regex_offset: collection.zero_length_regex_offset,
    }
}

fn search_texts(
    buffers: Vec<BufferText>,
    query: &str,
    mode: SearchMode,
    options: SearchOptions,
) -> Result<BufferSearchOutput> {
    if query.is_empty() {
        return Err(Error::InvalidArgument {
            message: "query must not be empty".into(),
        });
    }

    let SearchOptions {
        context_bytes,
        max_matches,
        max_scan_bytes,
        include_similarity,
        fuzzy_match,
        similarity_threshold,
        resume_from_offset,
    } = options;

    let context_bytes = context_bytes.unwrap_or(DEFAULT_SEARCH_CONTEXT_BYTES) as usize;
    let max_matches = max_matches.unwrap_or(DEFAULT_SEARCH_MAX_MATCHES);
    if max_matches == 0 {
        return Err(Error::InvalidArgument {
            message: "maxMatches must be greater than zero".into(),
        });
    }
    let max_scan_bytes_u64 = max_scan_bytes.unwrap_or(DEFAULT_SEARCH_MAX_SCAN_BYTES);
    if max_scan_bytes_u64 == 0 {
        return Err(Error::InvalidArgument {
            message: "maxScanBytes must be greater than zero".into(),
        });
    }
    let max_scan_bytes = usize::try_from(max_scan_bytes_u64).unwrap_or(usize::MAX);
    let (include_similarity, fuzzy_enabled, similarity_threshold) =
        resolve_similarity_flags(include_similarity, fuzzy_match, similarity_threshold)?;
    // Arbitrary regex spans and fuzzy line state cannot be represented by the
    // public offset-only continuation cursor. Evaluate those modes against the
    // original full buffer and use maxScanBytes as a hard full-buffer ceiling.
    let requires_full_scan = mode == SearchMode::Regex || fuzzy_enabled;

    let regex = if mode == SearchMode::Regex {
        Some(Regex::new(query).map_err(|e| Error::InvalidArgument {
            message: format!("invalid regex: {e}"),
        })?)
    } else {
        None
    };

    let mut scan_plans: Vec<BufferScanPlan> = Vec::new();
    let mut bytes_scanned_total: u64 = 0;

    if let Some(ref resume) = resume_from_offset {
        let buffer_names: BTreeSet<&str> = buffers.iter().map(|b| b.name.as_str()).collect();
        for name in resume.keys() {
            if !buffer_names.contains(name.as_str()) {
                return Err(Error::InvalidArgument {
                    message: format!("resumeFromOffset references unknown buffer '{name}'"),
                });
            }
        }
    }

    for buffer in &buffers {
        let window_len = buffer.text.len();
        let buffer_len = buffer.full_len;
        let window_start = buffer.base_offset;
        let resume_offset = if let Some(ref resume) = resume_from_offset {
            if let Some(offset) = resume.get(&buffer.name) {
                let offset = *offset as usize;
                if offset > buffer_len {
                    return Err(Error::InvalidArgument {
                        message: format!(
                            "resumeFromOffset {} exceeds buffer '{}' length {}",
                            offset, buffer.name, buffer_len
                        ),
                    });
                }
                if offset < window_start {
                    return Err(Error::InvalidArgument {
                        message: format!(
                            "resumeFromOffset {} is not a UTF-8 character boundary in buffer '{}'",
                            offset, buffer.name
                        ),
                    });
                }
                let relative = offset - window_start;
                if relative > window_len {
                    return Err(Error::InvalidArgument {
                        message: format!(
                            "resumeFromOffset {} is outside the scan window for buffer '{}'",
                            offset, buffer.name
                        ),
                    });
                }
                if !buffer.text.is_char_boundary(relative) {
                    return Err(Error::InvalidArgument {
                        message: format!(
                            "resumeFromOffset {} is not a UTF-8 character boundary in buffer '{}'",
                            offset, buffer.name
                        ),
                    });
                }
                offset
            } else {
                0
            }
        } else {
            0
        };

        if resume_offset < window_start {
            return Err(Error::InvalidArgument {
                message: format!(
                    "resumeFromOffset {} is outside the scan window for buffer '{}'",
                    resume_offset, buffer.name
                ),
            });
        }
        let scan_start = resume_offset - window_start;

        if resume_offset == buffer_len {
            let range = MatchRange {
                search_start: scan_start,
                search_end: scan_start,
                eligible_start: scan_start,
                eligible_end: scan_start,
                context_start: scan_start,
                context_end: scan_start,
            };
            scan_plans.push(BufferScanPlan {
                buffer: buffer.clone(),
                range,
                scan_end: buffer_len,
                truncated_by_scan: false,
            });
            continue;
        }

        if requires_full_scan {
            if window_start != 0 || window_len != buffer_len {
                return Err(Error::InvalidArgument {
                    message: format!(
                        "regex/fuzzy search requires the complete contents of buffer '{}'",
                        buffer.name
                    ),
                });
            }
            if max_scan_bytes_u64 < buffer_len as u64 {
                return Err(Error::InvalidArgument {
                    message: format!(
                        "regex/fuzzy search requires maxScanBytes to cover the full buffer because resumeFromOffset cannot preserve partial matcher state; buffer '{}' requires at least {} bytes",
                        buffer.name, buffer_len
                    ),
                });
            }
            let range = MatchRange {
                search_start: 0,
                search_end: window_len,
                eligible_start: scan_start,
                eligible_end: window_len,
                context_start: scan_start,
                context_end: window_len,
            };
            let bytes_scanned = buffer_len as u64;
            bytes_scanned_total = bytes_scanned_total.saturating_add(bytes_scanned);
            scan_plans.push(BufferScanPlan {
                buffer: buffer.clone(),
                range,
                scan_end: buffer_len,
                truncated_by_scan: false,
            });
            continue;
        }

        let scan_limit_end = clamp_char_boundary(
            &buffer.text,
            scan_start.saturating_add(max_scan_bytes).min(window_len),
            false,
        );
        if scan_limit_end == scan_start {
            let next_char_bytes = buffer.text[scan_start..]
                .chars()
                .next()
                .map(char::len_utf8)
                .unwrap_or(UTF8_WINDOW_SLACK_BYTES as usize);
            return Err(Error::InvalidArgument {
                message: format!(
                    "maxScanBytes {max_scan_bytes_u64} cannot consume the next UTF-8 character in buffer '{}' at byte {resume_offset}; increase it to at least {next_char_bytes}",
                    buffer.name
                ),
            });
        }
        let absolute_scan_end = window_start.saturating_add(scan_limit_end);
        let truncated_by_scan = absolute_scan_end < buffer_len;
        let finite_lookahead = context_bytes.saturating_add(query.len().saturating_sub(1));
        let search_end = clamp_char_boundary(
            &buffer.text,
            scan_limit_end
                .saturating_add(finite_lookahead)
                .min(window_len),
            true,
        );
        let range = MatchRange {
            search_start: scan_start,
            search_end,
            eligible_start: scan_start,
            eligible_end: scan_limit_end,
            context_start: scan_start,
            context_end: scan_limit_end,
        };
        let bytes_scanned = (scan_limit_end - scan_start) as u64;
        bytes_scanned_total = bytes_scanned_total.saturating_add(bytes_scanned);
        scan_plans.push(BufferScanPlan {
            buffer: buffer.clone(),
            range,
            scan_end: absolute_scan_end,
            truncated_by_scan,
        });
    }

    let use_parallel = cfg!(feature = "rayon") && scan_plans.len() >= PARALLEL_BUFFER_THRESHOLD;
    let execution = ScanExecution {
        query,
        context_bytes,
        include_similarity,
        mode,
        regex: regex.as_ref(),
        fuzzy_enabled,
        similarity_threshold,
    };

    let scan_results: Vec<BufferScanResult> = if use_parallel {
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            scan_plans
                .par_iter()
                .map(|plan| execute_scan_plan(plan, &execution))
                .collect()
        }
        #[cfg(not(feature = "rayon"))]
        {
            Vec::new()
        }
    } else {
        scan_plans
            .iter()
            .map(|plan| execute_scan_plan(plan, &execution))
            .collect()
    };

    if mode == SearchMode::Regex {
        if let Some((buffer, offset)) = scan_results.iter().find_map(|result| {
            result
                .zero_length_regex_offset
                .map(|offset| (result.name.as_str(), offset))
        }) {
            return Err(Error::InvalidArgument {
                message: format!(
                    "regex search for buffer '{buffer}' produced a zero-length match at byte {offset}; offset-only resumeFromOffset cannot page zero-length matches without duplicates"
                ),
            });
        }
    }

    let mut output_matches: Vec<BufferSearchMatch> = Vec::new();
    let mut truncated_buffers: Vec<String> = Vec::new();
    let mut resume_from_offset: BTreeMap<String, u64> = BTreeMap::new();
    let mut remaining = max_matches as i64;
    let mut similarity_sum: f32 = 0.0;
    let mut similarity_max: f32 = 0.0;
    let mut similarity_count: u32 = 0;
    let mut fuzzy_skipped_lines: u32 = 0;
    let mut fuzzy_skipped_bytes: u64 = 0;

    for result in scan_results {
        fuzzy_skipped_lines = fuzzy_skipped_lines.saturating_add(result.fuzzy_skipped_lines);
        fuzzy_skipped_bytes = fuzzy_skipped_bytes.saturating_add(result.fuzzy_skipped_bytes);
        let mut added_in_buffer: usize = 0;
        let mut cursor = result.full_len as u64;
        let mut unfinished = false;
        let mut emitted_match_end: Option<u64> = None;
        if remaining > 0 {
            for m in &result.matches {
                if remaining == 0 {
                    break;
                }
                output_matches.push(m.clone());
                emitted_match_end = Some(m.offset_bytes.saturating_add(u64::from(m.match_len)));
                added_in_buffer += 1;
                remaining -= 1;
                if include_similarity {
                    if let Some(score) = m.similarity {
                        similarity_sum += score;
                        similarity_max = similarity_max.max(score);
                        similarity_count += 1;
                    }
                }
            }
            if remaining == 0 && result.matches.len() > added_in_buffer {
                let next_match = &result.matches[added_in_buffer];
                cursor = next_match.offset_bytes;
                unfinished = true;
            }
        } else if let Some(first) = result.matches.first() {
            cursor = first.offset_bytes;
            unfinished = true;
        }

        if !unfinished && result.truncated_by_scan {
            // `str::match_indices` is non-overlapping. When a literal match
            // crosses the logical page boundary, resuming inside that match
            // could emit a self-overlapping hit that a full scan would skip.
            cursor = (result.scan_end as u64).max(emitted_match_end.unwrap_or(0));
            unfinished = cursor < result.full_len as u64;
        }
        resume_from_offset.insert(result.name.clone(), cursor);
        if unfinished {
            truncated_buffers.push(result.name);
        }
    }

    let total_matches = output_matches.len() as u32;
    let avg_similarity = if include_similarity && similarity_count > 0 {
        Some(similarity_sum / similarity_count as f32)
    } else {
        None
    };
    let max_similarity = if include_similarity && similarity_count > 0 {
        Some(similarity_max)
    } else {
        None
    };

    Ok(BufferSearchOutput {
        query: query.to_string(),
        mode,
        context_bytes: context_bytes as u32,
        max_matches,
        include_similarity,
        fuzzy_match: fuzzy_enabled,
        similarity_threshold: if fuzzy_enabled {
            Some(similarity_threshold)
        } else {
            None
        },
        buffers: buffers.iter().map(|b| b.name.clone()).collect(),
        total_matches,
        buffers_scanned: buffers.len() as u32,
        bytes_scanned_total,
        truncated_buffers,
        resume_from_offset,
        matches: output_matches,
        max_similarity,
        avg_similarity,
        fuzzy_skipped_lines,
        fuzzy_skipped_bytes,
    })
}

/// Pure search over a single UTF-8 buffer (no tmux interaction).
pub fn search_text(
    buffer_name: &str,
    text: &str,
    query: &str,
    mode: SearchMode,
    options: SearchOptions,
) -> Result<BufferSearchOutput> {
    search_texts(
        vec![BufferText {
            name: buffer_name.to_string(),
            text: text.to_string(),
            base_offset: 0,
            full_len: text.len(),
        }],
        query,
        mode,
        options,
    )
}

fn subsearch_text_view(
    buffer: &BufferText,
    anchor_offset: u64,
    anchor_len: u32,
    query: &str,
    mode: SearchMode,
    options: SubsearchOptions,
) -> Result<BufferSearchOutput> {
    if query.is_empty() {
        return Err(Error::InvalidArgument {
            message: "query must not be empty".into(),
        });
    }

    let (include_similarity, fuzzy_enabled, similarity_threshold) = resolve_similarity_flags(
        options.include_similarity,
        options.fuzzy_match,
        options.similarity_threshold,
    )?;

    let anchor_offset = anchor_offset as usize;
    if anchor_offset > buffer.full_len {
        return Err(Error::InvalidArgument {
            message: format!(
                "anchor offset {anchor_offset} exceeds buffer length {}",
                buffer.full_len
            ),
        });
    }

    let context = options.context_bytes as usize;
    let anchor_len = anchor_len as usize;
    let start = anchor_offset.saturating_sub(context);
    let end = anchor_offset
        .saturating_add(anchor_len)
        .saturating_add(context)
        .min(buffer.full_len);

    if start < buffer.base_offset || end > buffer.base_offset.saturating_add(buffer.text.len()) {
        return Err(Error::InvalidArgument {
            message: format!(
                "anchor window for buffer '{}' is outside the scan window",
                buffer.name
            ),
        });
    }

    let mut scan_start = clamp_char_boundary(
        &buffer.text,
        start.saturating_sub(buffer.base_offset),
        false,
    );
    let scan_end = clamp_char_boundary(&buffer.text, end.saturating_sub(buffer.base_offset), true);
    let max_matches = options.max_matches.unwrap_or(DEFAULT_SEARCH_MAX_MATCHES);
    if let Some(resume_offset) = options.resume_from_offset {
        let resume_offset = resume_offset as usize;
        if resume_offset > buffer.full_len {
            return Err(Error::InvalidArgument {
                message: format!(
                    "resumeFromOffset {} exceeds buffer length {}",
                    resume_offset, buffer.full_len
                ),
            });
        }
        if resume_offset < start || resume_offset > end {
            return Err(Error::InvalidArgument {
                message: format!("resumeFromOffset {resume_offset} is outside the anchor window"),
            });
        }
        scan_start = clamp_char_boundary(
            &buffer.text,
            resume_offset.saturating_sub(buffer.base_offset),
            false,
        );
    }

    let regex = if mode == SearchMode::Regex {
        Some(Regex::new(query).map_err(|e| Error::InvalidArgument {
            message: format!("invalid regex: {e}"),
        })?)
    } else {
        None
    };

    let ctx = MatchContext {
        buffer: &buffer.name,
        text: &buffer.text,
        query,
        context_bytes: context,
        include_similarity,
        base_offset: buffer.base_offset,
    };
    let range = MatchRange {
        search_start: scan_start,
        search_end: scan_end,
        eligible_start: scan_start,
        // Preserve zero-width matches at the end of the fixed anchor window.
        // Top-level paged search rejects those because its cursor is offset-only.
        eligible_end: scan_end.saturating_add(1),
        context_start: scan_start,
        context_end: scan_end,
    };
    let collection = collect_matches(
        &ctx,
        range,
        mode,
        regex.as_ref(),
        fuzzy_enabled,
        similarity_threshold,
    );
    let all_matches = collection.matches;

    let mut output_matches: Vec<BufferSearchMatch> = Vec::new();
    let mut truncated_buffers: Vec<String> = Vec::new();
    let mut resume_from_offset: BTreeMap<String, u64> = BTreeMap::new();
    let mut remaining = max_matches as i64;
    let mut similarity_sum: f32 = 0.0;
    let mut similarity_max: f32 = 0.0;
    let mut similarity_count: u32 = 0;
    let fuzzy_skipped_lines = collection.fuzzy_skipped_lines;
    let fuzzy_skipped_bytes = collection.fuzzy_skipped_bytes;

    let mut added = 0usize;
    for m in &all_matches {
        if remaining == 0 {
            break;
        }
        output_matches.push(m.clone());
        added += 1;
        remaining -= 1;
        if include_similarity {
            if let Some(score) = m.similarity {
                similarity_sum += score;
                similarity_max = similarity_max.max(score);
                similarity_count += 1;
            }
        }
    }

    if remaining == 0 && all_matches.len() > added {
        let next_match = &all_matches[added];
        resume_from_offset.insert(buffer.name.clone(), next_match.offset_bytes);
        truncated_buffers.push(buffer.name.clone());
    }

    if end < buffer.full_len {
        resume_from_offset
            .entry(buffer.name.clone())
            .or_insert(end as u64);
        if !truncated_buffers.contains(&buffer.name) {
            truncated_buffers.push(buffer.name.clone());
        }
    }

    let total_matches = output_matches.len() as u32;
    let avg_similarity = if include_similarity && similarity_count > 0 {
        Some(similarity_sum / similarity_count as f32)
    } else {
        None
    };
    let max_similarity = if include_similarity && similarity_count > 0 {
        Some(similarity_max)
    } else {
        None
    };

    Ok(BufferSearchOutput {
        query: query.to_string(),
        mode,
        context_bytes: options.context_bytes,
        max_matches,
        include_similarity,
        fuzzy_match: fuzzy_enabled,
        similarity_threshold: if fuzzy_enabled {
            Some(similarity_threshold)
        } else {
            None
        },
        buffers: vec![buffer.name.clone()],
        total_matches,
        buffers_scanned: 1,
        bytes_scanned_total: (scan_end.saturating_sub(scan_start)) as u64,
        truncated_buffers,
        resume_from_offset,
        matches: output_matches,
        max_similarity,
        avg_similarity,
        fuzzy_skipped_lines,
        fuzzy_skipped_bytes,
    })
}

/// Pure anchor-scoped subsearch over a single UTF-8 buffer (no tmux interaction).
pub fn subsearch_text(
    buffer: &str,
    text: &str,
    anchor_offset: u64,
    anchor_len: u32,
    query: &str,
    mode: SearchMode,
    options: SubsearchOptions,
) -> Result<BufferSearchOutput> {
    let view = BufferText {
        name: buffer.to_string(),
        text: text.to_string(),
        base_offset: 0,
        full_len: text.len(),
    };
    subsearch_text_view(&view, anchor_offset, anchor_len, query, mode, options)
}

async fn load_buffer_window(
    buffer: &str,
    window_start: u64,
    window_len: u64,
    streaming_threshold_bytes: u64,
    size_hint: Option<u64>,
    socket: Option<&str>,
) -> Result<BufferText> {
    let use_streaming = size_hint.unwrap_or(0) > streaming_threshold_bytes;
    if use_streaming {
        let temp = tempfile::NamedTempFile::new().map_err(|e| Error::Tmux {
            message: format!("failed to create temp file: {e}"),
        })?;
        show_buffer_to_file(Some(buffer), temp.path(), socket).await?;
        let metadata_len = std::fs::metadata(temp.path())
            .map_err(|e| Error::Tmux {
                message: format!("failed to stat temp buffer file: {e}"),
            })?
            .len();
        let full_len = size_hint.unwrap_or(metadata_len).max(metadata_len) as usize;
        if window_start as usize > full_len {
            return Err(Error::InvalidArgument {
                message: format!(
                    "resumeFromOffset {window_start} exceeds buffer '{buffer}' length {full_len}"
                ),
            });
        }
        let window_end = std::cmp::min(full_len as u64, window_start.saturating_add(window_len));
        let bytes = read_window_from_file(temp.path(), window_start, window_end - window_start)?;
        let (text, base_offset) = decode_window(buffer, &bytes, window_start as usize)?;
        Ok(BufferText {
            name: buffer.to_string(),
            text,
            base_offset,
            full_len,
        })
    } else {
        let bytes = show_buffer_bytes(Some(buffer), socket).await?;
        let full_len = bytes.len();
        if window_start as usize > full_len {
            return Err(Error::InvalidArgument {
                message: format!(
                    "resumeFromOffset {window_start} exceeds buffer '{buffer}' length {full_len}"
                ),
            });
        }
        let window_end = std::cmp::min(full_len as u64, window_start.saturating_add(window_len));
        let start = window_start as usize;
        let end = window_end as usize;
        let window_bytes = &bytes[start..end];
        let (text, base_offset) = decode_window(buffer, window_bytes, start)?;
        Ok(BufferText {
            name: buffer.to_string(),
            text,
            base_offset,
            full_len,
        })
    }
}

/// Search one or more paste buffers with literal/regex matching and optional fuzzy scoring.
///
/// Loads windowed slices (streaming large buffers to disk when over the threshold),
/// respects per-buffer resume offsets, and returns match metadata plus truncation cursors.
#[allow(clippy::too_many_arguments)]
pub async fn search_buffers(
    names: Option<Vec<String>>,
    query: &str,
    mode: SearchMode,
    context_bytes: Option<u32>,
    max_matches: Option<u32>,
    max_scan_bytes: Option<u64>,
    include_similarity: bool,
    fuzzy_match: bool,
    similarity_threshold: Option<f32>,
    resume_from_offset: Option<BTreeMap<String, u64>>,
    streaming_threshold_bytes: u64,
    socket: Option<&str>,
) -> Result<BufferSearchOutput> {
    let buffer_infos = list_buffers(socket).await?;
    let mut size_by_name: BTreeMap<String, u64> = BTreeMap::new();
    for info in &buffer_infos {
        size_by_name.insert(info.name.clone(), info.size_bytes);
    }

    let requested_buffers = if let Some(names) = names {
        if names.is_empty() {
            Vec::new()
        } else {
            names
        }
    } else {
        buffer_infos.iter().map(|info| info.name.clone()).collect()
    };
    // Preserve the caller/tmux order while preventing duplicate scans and hits.
    let mut seen_buffers = BTreeSet::new();
    let buffers: Vec<String> = requested_buffers
        .into_iter()
        .filter(|name| seen_buffers.insert(name.clone()))
        .collect();

    let context_for_window = context_bytes.unwrap_or(DEFAULT_SEARCH_CONTEXT_BYTES) as u64;
    let max_scan_for_window = max_scan_bytes.unwrap_or(DEFAULT_SEARCH_MAX_SCAN_BYTES);
    let fuzzy_enabled = fuzzy_match || similarity_threshold.is_some();
    let requires_full_scan = mode == SearchMode::Regex || fuzzy_enabled;
    let overlap = context_for_window
        .saturating_add(query.len() as u64)
        .saturating_add(UTF8_WINDOW_SLACK_BYTES);
    let literal_window_len = max_scan_for_window.saturating_add(overlap);

    let mut buffer_texts: Vec<BufferText> = Vec::new();
    for buffer in &buffers {
        let resume_offset = resume_from_offset
            .as_ref()
            .and_then(|offsets| offsets.get(buffer))
            .copied()
            .unwrap_or(0);
        let size_hint = size_by_name.get(buffer).copied();
        if requires_full_scan {
            if let Some(size) = size_hint {
                if resume_offset > size {
                    return Err(Error::InvalidArgument {
                        message: format!(
                            "resumeFromOffset {resume_offset} exceeds buffer '{buffer}' length {size}"
                        ),
                    });
                }
                if resume_offset == size {
                    buffer_texts.push(BufferText {
                        name: buffer.clone(),
                        text: String::new(),
                        base_offset: size as usize,
                        full_len: size as usize,
                    });
                    continue;
                }
                if max_scan_for_window < size {
                    return Err(Error::InvalidArgument {
                        message: format!(
                            "regex/fuzzy search requires maxScanBytes to cover the full buffer because resumeFromOffset cannot preserve partial matcher state; buffer '{buffer}' requires at least {size} bytes"
                        ),
                    });
                }
            }
        }
        let window_start = if requires_full_scan { 0 } else { resume_offset };
        let window_len = if requires_full_scan {
            u64::MAX
        } else {
            literal_window_len
        };
        let window = load_buffer_window(
            buffer,
            window_start,
            window_len,
            streaming_threshold_bytes,
            size_hint,
            socket,
        )
        .await?;
        buffer_texts.push(window);
    }

    let options = SearchOptions {
        context_bytes,
        max_matches,
        max_scan_bytes,
        include_similarity,
        fuzzy_match,
        similarity_threshold,
        resume_from_offset,
    };

    search_texts(buffer_texts, query, mode, options)
}

/// Search within a byte window around a prior match anchor in one paste buffer.
#[allow(clippy::too_many_arguments)]
pub async fn subsearch_buffer(
    buffer: &str,
    anchor_offset: u64,
    anchor_len: u32,
    context_bytes: u32,
    resume_from_offset: Option<u64>,
    query: &str,
    mode: SearchMode,
    max_matches: Option<u32>,
    include_similarity: bool,
    fuzzy_match: bool,
    similarity_threshold: Option<f32>,
    streaming_threshold_bytes: u64,
    socket: Option<&str>,
) -> Result<BufferSearchOutput> {
    let buffer_infos = list_buffers(socket).await?;
    let size_hint = buffer_infos
        .iter()
        .find(|info| info.name == buffer)
        .map(|info| info.size_bytes);

    let buffer_len = size_hint.unwrap_or(0) as usize;
    if anchor_offset as usize > buffer_len && size_hint.is_some() {
        return Err(Error::InvalidArgument {
            message: format!("anchor offset {anchor_offset} exceeds buffer length {buffer_len}"),
        });
    }

    let context = context_bytes as u64;
    let anchor_len_u64 = anchor_len as u64;
    let start = anchor_offset.saturating_sub(context);
    let end = anchor_offset
        .saturating_add(anchor_len_u64)
        .saturating_add(context);
    let window_len = end.saturating_sub(start);

    let window = load_buffer_window(
        buffer,
        start,
        window_len,
        streaming_threshold_bytes,
        size_hint,
        socket,
    )
    .await?;

    let options = SubsearchOptions {
        context_bytes,
        max_matches,
        include_similarity,
        fuzzy_match,
        similarity_threshold,
        resume_from_offset,
    };

    subsearch_text_view(&window, anchor_offset, anchor_len, query, mode, options)
}

/// Fetch pane cwd/command/size/pid via `display-message` (used for targeting and shell detection).
pub async fn pane_info(pane_id: &str, socket: Option<&str>) -> Result<PaneInfo> {
    let format = "#{pane_id}\t#{window_id}\t#{session_id}\t#{?pane_active,1,0}\t#{pane_title}\t#{pane_current_path}\t#{pane_current_command}\t#{pane_width}\t#{pane_height}\t#{pane_pid}\t#{?pane_in_mode,1,0}";
    let output =
        execute_tmux_with_socket(&["display-message", "-p", "-t", pane_id, format], socket).await?;
    let parts: Vec<&str> = output.split('\t').collect();
    if parts.len() >= 11 {
        Ok(PaneInfo {
            id: parts[0].to_string(),
            window_id: parts[1].to_string(),
            session_id: parts[2].to_string(),
            active: parts[3] == "1",
            title: parts[4].to_string(),
            current_path: parts[5].to_string(),
            current_command: parts[6].to_string(),
            width: parts[7].parse().unwrap_or(0),
            height: parts[8].parse().unwrap_or(0),
            pid: parts[9].parse().ok(),
            in_mode: parts[10] == "1",
        })
    } else {
        Err(Error::Parse {
            message: format!("failed to parse pane info: {output}"),
        })
    }
}

/// Fetch window layout/zoom/active-pane metadata via `display-message`.
pub async fn window_info(window_id: &str, socket: Option<&str>) -> Result<WindowInfo> {
    let format = "#{window_id}\t#{window_name}\t#{session_id}\t#{?window_active,1,0}\t#{window_layout}\t#{window_panes}\t#{window_width}\t#{window_height}\t#{window_zoomed_flag}\t#{pane_id}";
    let output =
        execute_tmux_with_socket(&["display-message", "-p", "-t", window_id, format], socket)
            .await?;
    let parts: Vec<&str> = output.split('\t').collect();
    if parts.len() >= 10 {
        Ok(WindowInfo {
            id: parts[0].to_string(),
            name: parts[1].to_string(),
            session_id: parts[2].to_string(),
            active: parts[3] == "1",
            layout: parts[4].to_string(),
            panes: parts[5].parse().unwrap_or(0),
            width: parts[6].parse().unwrap_or(0),
            height: parts[7].parse().unwrap_or(0),
            zoomed: parts[8] == "1",
            active_pane_id: parts[9].to_string(),
        })
    } else {
        Err(Error::Parse {
            message: format!("failed to parse window info: {output}"),
        })
    }
}

/// Create a detached session (`new-session -d`) and return its parsed identity.
///
/// Falls back to `list-sessions` when tmux omits `-P` format output.
pub async fn create_session(name: &str, socket: Option<&str>) -> Result<Session> {
    let format = "#{session_id}\t#{session_name}\t#{?session_attached,1,0}\t#{session_windows}";
    let session_arg = format!("-s{name}");
    let output = execute_tmux_with_socket(
        &["new-session", "-d", "-P", "-F", format, &session_arg],
        socket,
    )
    .await?;

    if let Some(session) = parse_sessions(output.trim()).into_iter().next() {
        return Ok(session);
    }

    if let Some(session) = find_session_by_name(name, socket).await? {
        return Ok(session);
    }

    Err(Error::Tmux {
        message: format!("failed to parse new session output: {output}"),
    })
}

/// Create a named window in a session; falls back to listing when `-P` output is empty.
pub async fn create_window(session_id: &str, name: &str, socket: Option<&str>) -> Result<Window> {
    let format = "#{window_id}\t#{window_name}\t#{?window_active,1,0}";
    let name_arg = format!("-n{name}");
    let output = execute_tmux_with_socket(
        &[
            "new-window",
            "-P",
            "-F",
            format,
            "-t",
            session_id,
            &name_arg,
        ],
        socket,
    )
    .await?;

    if let Some(window) = parse_windows(output.trim(), session_id).into_iter().next() {
        return Ok(window);
    }

    if let Some(window) = list_windows(session_id, socket)
        .await?
        .into_iter()
        .find(|window| window.name == name)
    {
        return Ok(window);
    }

    Err(Error::Tmux {
        message: format!("failed to parse new window output: {output}"),
    })
}

/// Split a pane horizontally or vertically.
///
/// Percent sizes use tmux 3.x `-l N%` (not legacy `-p N`, which 3.4 rejects).
/// When `-P` format is empty, the new pane is recovered by window-state diff.
pub async fn split_pane(
    pane_id: &str,
    direction: Option<&str>,
    size: Option<u32>,
    socket: Option<&str>,
) -> Result<Pane> {
    let source_pane = pane_info(pane_id, socket).await?;
    let existing_panes: BTreeSet<String> = list_panes(&source_pane.window_id, socket)
        .await?
        .into_iter()
        .map(|pane| pane.id)
        .collect();

    let dir_flag = match direction {
        Some("horizontal") | Some("h") => "-h",
        _ => "-v",
    };

    let format = "#{pane_id}\t#{pane_title}\t#{?pane_active,1,0}\t#{window_id}";
    let mut args = vec!["split-window", "-P", "-F", format, dir_flag, "-t", pane_id];

    let size_str;
    if let Some(s) = size {
        if s > 0 && s < 100 {
            size_str = format!("{s}%");
            args.push("-l");
            args.push(&size_str);
        }
    }

    let output = execute_tmux_with_socket(&args, socket).await?;

    if let Some(pane) = parse_created_pane_line(output.trim(), &source_pane.window_id) {
        return Ok(pane);
    }

    let panes = list_panes(&source_pane.window_id, socket).await?;
    if let Some(pane) = panes
        .iter()
        .find(|pane| !existing_panes.contains(&pane.id))
        .cloned()
    {
        return Ok(pane);
    }

    if let Some(pane) = panes
        .iter()
        .find(|pane| pane.active && pane.id != pane_id)
        .cloned()
    {
        return Ok(pane);
    }

    Err(Error::Tmux {
        message: format!("failed to parse new pane output: {output}"),
    })
}

/// Destroy a session target and all of its windows/panes.
pub async fn kill_session(session_id: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["kill-session", "-t", session_id], socket).await?;
    Ok(())
}

/// Destroy a window target (and its panes).
pub async fn kill_window(window_id: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["kill-window", "-t", window_id], socket).await?;
    Ok(())
}

/// Destroy a single pane target.
pub async fn kill_pane(pane_id: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["kill-pane", "-t", pane_id], socket).await?;
    Ok(())
}

/// Name of the private paste buffer that holds a tracked command's exit code.
pub fn exit_code_buffer_name(secret: &str) -> String {
    format!("tmux-mcp-ec-{secret}")
}

/// Channel name used with `tmux wait-for` for a tracked command.
pub fn wait_signal_name(secret: &str) -> String {
    format!("tmux-mcp-{secret}")
}

/// Block until a pane signals `tmux wait-for -S <channel>` (or the server errors).
///
/// Does **not** use the global tmux semaphore so long waits do not stall other ops.
pub async fn wait_for_signal(channel: &str, socket: Option<&str>) -> Result<()> {
    let mut command = build_tmux_command(&["wait-for", channel], socket)?;
    let output = command.output().await.map_err(|e| Error::Tmux {
        message: format!("failed to run tmux wait-for: {e}"),
    })?;
    if output.status.success() {
        Ok(())
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
        Err(Error::Tmux {
            message: if stderr.is_empty() {
                format!("tmux wait-for failed for channel {channel}")
            } else {
                stderr
            },
        })
    }
}

/// Read a private exit-code buffer written by a tracked command wrapper.
pub async fn read_exit_code_buffer(secret: &str, socket: Option<&str>) -> Result<i32> {
    let name = exit_code_buffer_name(secret);
    let raw = show_buffer(Some(&name), socket).await?;
    let trimmed = raw.trim();
    trimmed.parse::<i32>().map_err(|_| Error::Tmux {
        message: format!("invalid exit code in side-channel buffer: {trimmed:?}"),
    })
}

/// Delete a private exit-code buffer if present (best-effort).
pub async fn delete_exit_code_buffer(secret: &str, socket: Option<&str>) -> Result<()> {
    let name = exit_code_buffer_name(secret);
    match delete_buffer(&name, socket).await {
        Ok(()) => Ok(()),
        Err(Error::Tmux { message })
            if message.contains("buffer")
                || message.contains("not found")
                || message.contains("can't find") =>
        {
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// Build `tmux -S <socket>` argv fragment for embedding in a pane shell command.
///
/// Returns an empty string when no socket is resolved (caller uses default tmux).
pub fn shell_tmux_prefix(socket: Option<&str>) -> String {
    match resolve_socket(socket) {
        Some(path) => format!("tmux -S {}", shell_single_quote(&path)),
        None => "tmux".to_string(),
    }
}

/// Single-quote a string for POSIX/fish shell embedding.
pub fn shell_single_quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('\'');
    for ch in value.chars() {
        if ch == '\'' {
            out.push_str("'\"'\"'");
        } else {
            out.push(ch);
        }
    }
    out.push('\'');
    out
}

/// Inject keystrokes into a pane (`-l` when `literal` so shell metacharacters stay raw).
pub async fn send_keys(
    pane_id: &str,
    keys: &str,
    literal: bool,
    socket: Option<&str>,
) -> Result<()> {
    if literal {
        if keys.is_empty() {
            return Ok(());
        }
        for chunk in chunk_literal_payload(keys) {
            execute_tmux_with_socket(&["send-keys", "-t", pane_id, "-l", "--", &chunk], socket)
                .await?;
        }
    } else {
        execute_tmux_with_socket(&["send-keys", "-t", pane_id, "--", keys], socket).await?;
    }
    Ok(())
}

/// Parse whitespace-separated hex tokens into two-digit lowercase bytes for `send-keys -H`.
pub fn parse_hex_tokens(hex: &str) -> Result<Vec<String>> {
    let mut tokens = Vec::new();
    for raw in hex.split_whitespace() {
        if raw.is_empty() {
            continue;
        }
        if raw.len() > 2 || u8::from_str_radix(raw, 16).is_err() {
            return Err(Error::Tmux {
                message: format!("invalid hex byte token: {raw:?} (expected 00-ff)"),
            });
        }
        let byte = u8::from_str_radix(raw, 16).expect("validated above");
        tokens.push(format!("{byte:02x}"));
    }
    if tokens.is_empty() {
        return Err(Error::Tmux {
            message: "no hex byte tokens provided".to_string(),
        });
    }
    Ok(tokens)
}

/// Max hex byte tokens per `send-keys -H` call, to stay clear of argv/tmux limits.
const MAX_HEX_TOKENS_PER_CALL: usize = 1000;

/// Send raw bytes to a pane via tmux `send-keys -H`.
pub async fn send_keys_hex(pane_id: &str, hex: &str, socket: Option<&str>) -> Result<()> {
    let tokens = parse_hex_tokens(hex)?;
    for chunk in tokens.chunks(MAX_HEX_TOKENS_PER_CALL) {
        let mut args: Vec<&str> = Vec::with_capacity(4 + chunk.len());
        args.extend(["send-keys", "-t", pane_id, "-H"]);
        args.extend(chunk.iter().map(String::as_str));
        execute_tmux_with_socket(&args, socket).await?;
    }
    Ok(())
}

/// Max UTF-8 bytes per `send-keys -l` invocation to stay under argv/tmux limits.
const MAX_LITERAL_CHUNK_BYTES: usize = 4000;

fn chunk_literal_payload(keys: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    for ch in keys.chars() {
        let ch_len = ch.len_utf8();
        if !current.is_empty() && current.len() + ch_len > MAX_LITERAL_CHUNK_BYTES {
            chunks.push(current);
            current = String::new();
        }
        current.push(ch);
    }
    if !current.is_empty() {
        chunks.push(current);
    }
    chunks
}

/// Paste UTF-8 into a pane via a disposable paste buffer (`paste-buffer -p -d`).
///
/// Cleans up the staging buffer if paste fails after set-buffer succeeds.
pub async fn paste_text(pane_id: &str, content: &str, socket: Option<&str>) -> Result<()> {
    let buffer_name = format!("__tmux_mcp_paste_{}", Uuid::new_v4());
    set_buffer(&buffer_name, content, socket).await?;
    let result = execute_tmux_with_socket(
        &[
            "paste-buffer",
            "-p",
            "-d",
            "-b",
            &buffer_name,
            "-t",
            pane_id,
        ],
        socket,
    )
    .await;

    match result {
        Ok(_) => Ok(()),
        Err(e) => {
            let _ = delete_buffer(&buffer_name, socket).await;
            Err(e)
        }
    }
}

/// Resolve the session context for the default client via `display-message`.
pub async fn get_current_session(socket: Option<&str>) -> Result<Session> {
    let format = "#{session_id}\t#{session_name}\t#{?session_attached,1,0}\t#{session_windows}";
    let output = execute_tmux_with_socket(&["display-message", "-p", format], socket).await?;

    let sessions = parse_sessions(output.trim());
    sessions.into_iter().next().ok_or_else(|| Error::Tmux {
        message: "current session not found".to_string(),
    })
}

/// Change a session's display name.
pub async fn rename_session(session_id: &str, name: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["rename-session", "-t", session_id, "--", name], socket).await?;
    Ok(())
}

/// Make a window active in its session.
pub async fn select_window(window_id: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["select-window", "-t", window_id], socket).await?;
    Ok(())
}

/// Make a pane active in its window.
pub async fn select_pane(pane_id: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["select-pane", "-t", pane_id], socket).await?;
    Ok(())
}

/// Grow/shrink a pane by direction+amount or set absolute width/height.
pub async fn resize_pane(
    pane_id: &str,
    direction: Option<&str>,
    amount: Option<u32>,
    width: Option<u32>,
    height: Option<u32>,
    socket: Option<&str>,
) -> Result<()> {
    let mut args: Vec<String> = vec!["resize-pane".into(), "-t".into(), pane_id.into()];

    if width.is_some() || height.is_some() {
        if let Some(w) = width {
            args.push("-x".into());
            args.push(w.to_string());
        }
        if let Some(h) = height {
            args.push("-y".into());
            args.push(h.to_string());
        }
    } else if let Some(dir) = direction {
        let flag = match dir {
            "left" | "l" => "-L",
            "right" | "r" => "-R",
            "up" | "u" => "-U",
            "down" | "d" => "-D",
            _ => {
                return Err(Error::InvalidArgument {
                    message: format!("unknown resize direction: {dir}"),
                })
            }
        };
        args.push(flag.into());
        if let Some(val) = amount {
            args.push(val.to_string());
        }
    } else {
        return Err(Error::InvalidArgument {
            message: "resize-pane requires direction/amount or width/height".to_string(),
        });
    }

    let arg_refs: Vec<&str> = args.iter().map(|arg| arg.as_str()).collect();
    execute_tmux_with_socket(&arg_refs, socket).await?;
    Ok(())
}

/// Toggle pane zoom (`resize-pane -Z`) so the pane fills or unfills the window.
pub async fn zoom_pane(pane_id: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["resize-pane", "-Z", "-t", pane_id], socket).await?;
    Ok(())
}

/// Apply a named tmux layout algorithm to a window.
pub async fn select_layout(window_id: &str, layout: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["select-layout", "-t", window_id, "--", layout], socket).await?;
    Ok(())
}

/// Move a source pane into the window that owns the target pane.
pub async fn join_pane(
    source_pane_id: &str,
    target_pane_id: &str,
    socket: Option<&str>,
) -> Result<()> {
    execute_tmux_with_socket(
        &["join-pane", "-s", source_pane_id, "-t", target_pane_id],
        socket,
    )
    .await?;
    Ok(())
}

/// Promote a pane into its own window; falls back to session-state discovery when `-P` is empty.
pub async fn break_pane(pane_id: &str, name: Option<&str>, socket: Option<&str>) -> Result<Window> {
    let source_pane = pane_info(pane_id, socket).await?;
    let existing_windows: BTreeSet<String> = list_windows(&source_pane.session_id, socket)
        .await?
        .into_iter()
        .map(|window| window.id)
        .collect();

    let format = "#{window_id}\t#{window_name}\t#{?window_active,1,0}\t#{session_id}";
    let mut args = vec!["break-pane", "-P", "-F", format, "-s", pane_id];
    if let Some(name) = name {
        args.push("-n");
        args.push(name);
    }
    let output = execute_tmux_with_socket(&args, socket).await?;

    if let Some(window) = parse_created_window_line(output.trim(), &source_pane.session_id) {
        return Ok(window);
    }

    let windows = list_windows(&source_pane.session_id, socket).await?;
    if let Some(window) = windows
        .iter()
        .find(|window| !existing_windows.contains(&window.id))
        .cloned()
    {
        return Ok(window);
    }

    if let Some(name) = name {
        if let Some(window) = windows.iter().find(|window| window.name == name).cloned() {
            return Ok(window);
        }
    }

    Err(Error::Tmux {
        message: format!("failed to parse break-pane output: {output}"),
    })
}

/// Exchange positions of two panes (same or different windows).
pub async fn swap_pane(
    source_pane_id: &str,
    target_pane_id: &str,
    socket: Option<&str>,
) -> Result<()> {
    execute_tmux_with_socket(
        &["swap-pane", "-s", source_pane_id, "-t", target_pane_id],
        socket,
    )
    .await?;
    Ok(())
}

/// Broadcast typed input to every pane in a window when enabled.
pub async fn set_synchronize_panes(
    window_id: &str,
    enabled: bool,
    socket: Option<&str>,
) -> Result<()> {
    let value = if enabled { "on" } else { "off" };
    execute_tmux_with_socket(
        &["set-option", "-t", window_id, "synchronize-panes", value],
        socket,
    )
    .await?;
    Ok(())
}

/// Change a window's display name.
pub async fn rename_window(window_id: &str, name: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["rename-window", "-t", window_id, "--", name], socket).await?;
    Ok(())
}

/// Set a pane title via `select-pane -T`.
pub async fn rename_pane(pane_id: &str, title: &str, socket: Option<&str>) -> Result<()> {
    execute_tmux_with_socket(&["select-pane", "-t", pane_id, "-T", title], socket).await?;
    Ok(())
}

/// Relocate a window into another session, optionally at a fixed index.
pub async fn move_window(
    window_id: &str,
    target_session_id: &str,
    target_index: Option<u32>,
    socket: Option<&str>,
) -> Result<()> {
    let target = match target_index {
        Some(idx) => format!("{target_session_id}:{idx}"),
        None => target_session_id.to_string(),
    };

    execute_tmux_with_socket(&["move-window", "-s", window_id, "-t", &target], socket).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TmuxStub;
    use rstest::rstest;
    use std::fs;
    use tempfile::tempdir;

    #[rstest]
    #[case(
        "$0\tmain\t1\t3\n$1\tdev\t0\t2",
        vec![
            Session { id: "$0".into(), name: "main".into(), attached: true, windows: 3 },
            Session { id: "$1".into(), name: "dev".into(), attached: false, windows: 2 },
        ]
    )]
    #[case(
        "$5\twork\t1\t1",
        vec![
            Session { id: "$5".into(), name: "work".into(), attached: true, windows: 1 },
        ]
    )]
    #[case("", vec![])]
    fn test_parse_sessions(#[case] input: &str, #[case] expected: Vec<Session>) {
        let result = parse_sessions(input);
        assert_eq!(result, expected);
    }

    #[test]
    fn test_parse_sessions_skips_malformed_lines() {
        let input = "$0\tmain\t1\t2\ninvalid-line\n$1\tdev\t0\t1";
        let result = parse_sessions(input);
        assert_eq!(result.len(), 2);
        assert_eq!(result[0].name, "main");
        assert_eq!(result[1].name, "dev");
    }

    #[rstest]
    #[case("tmux 3.4", Some((3, 4)))]
    #[case("tmux 3.6b", Some((3, 6)))]
    #[case("tmux 3.0a", Some((3, 0)))]
    #[case("tmux 2.9", Some((2, 9)))]
    #[case("tmux next-3.5", None)]
    #[case("tmux 3", Some((3, 0)))]
    #[case("garbage", None)]
    #[case("", None)]
    fn test_parse_tmux_version(#[case] input: &str, #[case] expected: Option<(u32, u32)>) {
        assert_eq!(parse_tmux_version(input), expected);
    }

    #[rstest]
    #[case("user@host", Some(vec!["user@host"]))]
    #[case("-i /path/key user@host", Some(vec!["-i", "/path/key", "user@host"]))]
    #[case("-i \"my key\" user@host", Some(vec!["-i", "my key", "user@host"]))]
    #[case("-p 2222 user@host", Some(vec!["-p", "2222", "user@host"]))]
    #[case("", None)]
    #[case("   ", None)]
    fn test_parse_ssh_args_ok(#[case] input: &str, #[case] expected: Option<Vec<&str>>) {
        let result = parse_ssh_args(input).expect("should parse");
        let expected = expected.map(|v| v.into_iter().map(String::from).collect::<Vec<_>>());
        assert_eq!(result, expected);
    }

    #[test]
    fn test_parse_ssh_args_rejects_unbalanced_quotes() {
        let err = parse_ssh_args("user@host 'unbalanced").unwrap_err();
        assert!(matches!(err, Error::InvalidArgument { .. }));
    }

    #[test]
    fn remote_tmux_command_shell_quotes_args() {
        let socket_args = vec!["-S".to_string(), "/tmp/tmux sock; echo bad".to_string()];
        let command = build_remote_tmux_command(
            &socket_args,
            &["rename-window", "-t", "@1", "--", "Bob's window"],
        );
        assert_eq!(
            command,
            "tmux -S '/tmp/tmux sock; echo bad' rename-window -t @1 -- 'Bob'\"'\"'s window'"
        );
    }

    #[rstest]
    #[case(
        "@0\tzsh\t1\n@1\tvim\t0",
        "$0",
        vec![
            Window { id: "@0".into(), name: "zsh".into(), active: true, session_id: "$0".into() },
            Window { id: "@1".into(), name: "vim".into(), active: false, session_id: "$0".into() },
        ]
    )]
    #[case(
        "@5\teditor\t0",
        "$2",
        vec![
            Window { id: "@5".into(), name: "editor".into(), active: false, session_id: "$2".into() },
        ]
    )]
    #[case("", "$0", vec![])]
    fn test_parse_windows(
        #[case] input: &str,
        #[case] session_id: &str,
        #[case] expected: Vec<Window>,
    ) {
        let result = parse_windows(input, session_id);
        assert_eq!(result, expected);
    }

    #[test]
    fn test_parse_windows_skips_malformed_lines() {
        let input = "@0\tzsh\t1\nbad-line\n@1\tvim\t0";
        let result = parse_windows(input, "$0");
        assert_eq!(result.len(), 2);
        assert_eq!(result[0].name, "zsh");
        assert_eq!(result[1].name, "vim");
    }

    #[rstest]
    #[case(
        "%0\tbash\t1\n%1\thtop\t0",
        "@0",
        vec![
            Pane { id: "%0".into(), title: "bash".into(), active: true, window_id: "@0".into() },
            Pane { id: "%1".into(), title: "htop".into(), active: false, window_id: "@0".into() },
        ]
    )]
    #[case(
        "%10\tvim\t1",
        "@5",
        vec![
            Pane { id: "%10".into(), title: "vim".into(), active: true, window_id: "@5".into() },
        ]
    )]
    #[case("", "@0", vec![])]
    fn test_parse_panes(#[case] input: &str, #[case] window_id: &str, #[case] expected: Vec<Pane>) {
        let result = parse_panes(input, window_id);
        assert_eq!(result, expected);
    }

    #[tokio::test]
    async fn send_keys_literal_fast_path_single_call() {
        let mut stub = TmuxStub::new();
        let temp_dir = tempdir().expect("tempdir");
        let log_path = temp_dir.path().join("send-keys.log");
        stub.set_var(
            "TMUX_STUB_SEND_KEYS_LOG",
            log_path.to_str().expect("log path"),
        );

        send_keys("%1", "hello", true, None)
            .await
            .expect("send keys");

        let log = fs::read_to_string(&log_path).expect("read log");
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].contains("-l -- hello"));
    }

    #[tokio::test]
    async fn set_buffer_bytes_returns_load_error_for_binary_content() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_ERROR_CMD", "load-buffer");
        stub.set_var("TMUX_STUB_ERROR_MSG", "load-buffer failed");

        let err = set_buffer_bytes("b", &[0xff, 0x00, 0x41], None)
            .await
            .expect_err("load-buffer failure should be returned");

        assert!(
            matches!(err, Error::Tmux { ref message } if message.contains("load-buffer failed"))
        );
    }

    #[tokio::test]
    async fn send_keys_literal_uses_separator_for_leading_dash_payload() {
        let mut stub = TmuxStub::new();
        let temp_dir = tempdir().expect("tempdir");
        let log_path = temp_dir.path().join("send-keys.log");
        stub.set_var(
            "TMUX_STUB_SEND_KEYS_LOG",
            log_path.to_str().expect("log path"),
        );

        send_keys("%1", "-----BEGIN", true, None)
            .await
            .expect("send keys");

        let log = fs::read_to_string(&log_path).expect("read log");
        assert!(
            log.contains("-l -- -----BEGIN"),
            "literal leading-dash payload should follow --, got: {log}"
        );
    }

    #[tokio::test]
    async fn send_keys_literal_chunks_large_payload() {
        let mut stub = TmuxStub::new();
        let temp_dir = tempdir().expect("tempdir");
        let log_path = temp_dir.path().join("send-keys.log");
        stub.set_var(
            "TMUX_STUB_SEND_KEYS_LOG",
            log_path.to_str().expect("log path"),
        );

        let payload = "a".repeat(MAX_LITERAL_CHUNK_BYTES + 25);
        send_keys("%1", &payload, true, None)
            .await
            .expect("send keys");

        let log = fs::read_to_string(&log_path).expect("read log");
        let lines: Vec<&str> = log.lines().collect();
        assert!(lines.len() >= 2);
        for line in lines {
            let chunk = line.split_whitespace().last().unwrap_or("");
            assert!(chunk.len() <= MAX_LITERAL_CHUNK_BYTES);
        }
    }

    #[test]
    fn test_parse_panes_skips_malformed_lines() {
        let input = "%0\tbash\t1\nbad-line\n%1\thtop\t0";
        let result = parse_panes(input, "@0");
        assert_eq!(result.len(), 2);
        assert_eq!(result[0].title, "bash");
        assert_eq!(result[1].title, "htop");
    }

    #[test]
    fn list_parsers_reject_extra_tab_fields() {
        assert_eq!(parse_sessions("$2\tfoo\tbar\t1\t3"), Vec::new());
        assert_eq!(parse_windows("@2\tfoo\tbar\t1", "$2"), Vec::new());
        assert_eq!(parse_panes("%2\tfoo\tbar\t1", "@2"), Vec::new());
        assert_eq!(
            parse_clients("/dev/ttys001\tclient\tx\ty\t123\t1"),
            Vec::new()
        );
        assert_eq!(parse_buffers("buffer\tname\t42\t1700000000"), Vec::new());
    }

    #[tokio::test]
    async fn send_keys_hex_passes_byte_tokens() {
        let mut stub = TmuxStub::new();
        let temp_dir = tempdir().expect("tempdir");
        let log_path = temp_dir.path().join("send-keys.log");
        stub.set_var(
            "TMUX_STUB_SEND_KEYS_LOG",
            log_path.to_str().expect("log path"),
        );

        send_keys_hex("%1", "1b 5b 31 33 3b 32 75", None)
            .await
            .expect("send hex");

        let log = fs::read_to_string(&log_path).expect("read log");
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].contains("-H"));
        assert!(lines[0].contains("1b 5b 31 33 3b 32 75"));
    }

    #[tokio::test]
    async fn paste_text_deletes_staging_buffer_on_paste_failure() {
        let mut stub = TmuxStub::new();
        let temp_dir = tempdir().expect("tempdir");
        let log_path = temp_dir.path().join("delete-buffer.log");
        stub.set_var("TMUX_STUB_ERROR_CMD", "paste-buffer");
        stub.set_var("TMUX_STUB_ERROR_MSG", "paste failed");
        stub.set_var(
            "TMUX_STUB_DELETE_BUFFER_LOG",
            log_path.to_str().expect("log path"),
        );

        let err = paste_text("%1", "secret", None).await.unwrap_err();
        match err {
            Error::Tmux { message } => assert!(message.contains("paste failed")),
            _ => panic!("expected tmux error"),
        }

        let log = fs::read_to_string(&log_path).expect("read log");
        assert!(
            log.contains("__tmux_mcp_paste_"),
            "expected cleanup of staging buffer, got: {log}"
        );
    }

    #[test]
    fn parse_hex_tokens_normalizes_and_validates() {
        assert_eq!(
            parse_hex_tokens("1B 5b   7").expect("valid"),
            vec!["1b", "5b", "07"]
        );
        assert!(parse_hex_tokens("zz").is_err());
        assert!(parse_hex_tokens("1ff").is_err());
        assert!(parse_hex_tokens("   ").is_err());
    }

    #[rstest]
    #[case(
        "buffer0\t10\t1700000000\nbuffer1\t5\t1700000100",
        vec![
            BufferInfo { name: "buffer0".into(), size: 10, size_bytes: 10, order_index: 0, created: Some(1700000000) },
            BufferInfo { name: "buffer1".into(), size: 5, size_bytes: 5, order_index: 1, created: Some(1700000100) },
        ]
    )]
    #[case("", vec![])]
    fn test_parse_buffers(#[case] input: &str, #[case] expected: Vec<BufferInfo>) {
        let result = parse_buffers(input);
        assert_eq!(result, expected);
    }

    #[rstest]
    #[case("$0\tmy:session:with:colons\t1\t2", vec![
        Session { id: "$0".into(), name: "my:session:with:colons".into(), attached: true, windows: 2 },
    ])]
    fn test_parse_sessions_with_colons_in_name(
        #[case] input: &str,
        #[case] expected: Vec<Session>,
    ) {
        let result = parse_sessions(input);
        assert_eq!(result, expected);
    }

    #[rstest]
    #[case("@0\twindow:with:colons\t1", "$0", vec![
        Window { id: "@0".into(), name: "window:with:colons".into(), active: true, session_id: "$0".into() },
    ])]
    fn test_parse_windows_with_colons(
        #[case] input: &str,
        #[case] session_id: &str,
        #[case] expected: Vec<Window>,
    ) {
        let result = parse_windows(input, session_id);
        assert_eq!(result, expected);
    }

    #[tokio::test]
    async fn execute_tmux_success() {
        let _stub = TmuxStub::new();
        let output = execute_tmux(&["list-sessions", "-F", "ignored"])
            .await
            .expect("execute tmux");
        assert!(output.contains("alpha"));
    }

    #[tokio::test]
    async fn execute_tmux_preserves_raw_stdout_whitespace() {
        let mut stub = TmuxStub::new();
        stub.set_var(
            "TMUX_STUB_CAPTURE_OUTPUT",
            "  leading space\ntrailing space  \n\n",
        );

        let output = execute_tmux(&["capture-pane", "-p"])
            .await
            .expect("execute tmux");

        assert_eq!(output, "  leading space\ntrailing space  \n\n");
    }

    #[tokio::test]
    async fn list_parsers_trim_executor_output_boundaries() {
        let mut stub = TmuxStub::new();
        stub.set_var(
            "TMUX_STUB_LIST_SESSIONS",
            "  \n%1\talpha\t1\t2\n%2\tbeta\t0\t1\n  \n",
        );

        let sessions = list_sessions(None).await.expect("list sessions");

        assert_eq!(sessions.len(), 2);
        assert_eq!(sessions[0].name, "alpha");
        assert_eq!(sessions[1].name, "beta");
    }

    #[tokio::test]
    async fn execute_tmux_spawn_error() {
        let mut stub = TmuxStub::new();
        stub.set_var("PATH", "/nonexistent");

        let err = execute_tmux(&["list-sessions"]).await.unwrap_err();
        match err {
            Error::Tmux { message } => assert!(message.contains("failed to spawn tmux")),
            _ => panic!("expected tmux error"),
        }
    }

    #[tokio::test]
    async fn execute_tmux_error_message() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_FORCE_ERROR", "1");
        stub.set_var("TMUX_STUB_ERROR_MSG", "boom");

        let err = execute_tmux(&["list-sessions"]).await.unwrap_err();
        match err {
            Error::Tmux { message } => assert!(message.contains("boom")),
            _ => panic!("expected tmux error"),
        }
    }

    #[tokio::test]
    async fn is_tmux_running_reports_states() {
        let mut stub = TmuxStub::new();

        stub.remove_var("TMUX_STUB_FORCE_ERROR");
        stub.remove_var("TMUX_STUB_ERROR_MSG");
        assert!(is_tmux_running().await.unwrap());

        stub.set_var("TMUX_STUB_FORCE_ERROR", "1");
        stub.set_var("TMUX_STUB_ERROR_MSG", "no server running");
        assert!(!is_tmux_running().await.unwrap());

        stub.set_var("TMUX_STUB_ERROR_MSG", "no sessions");
        assert!(is_tmux_running().await.unwrap());

        stub.set_var("TMUX_STUB_ERROR_MSG", "unexpected failure");
        assert!(is_tmux_running().await.is_err());
    }

    #[tokio::test]
    async fn execute_tmux_uses_socket_args() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_MCP_SOCKET", "/tmp/tmux-test.sock");

        let output = execute_tmux(&["socket-test"]).await.expect("socket test");
        assert_eq!(output, "/tmp/tmux-test.sock");
    }

    #[tokio::test]
    async fn execute_tmux_uses_ssh_when_configured() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_MCP_SSH", "user@host");

        let output = execute_tmux(&["ssh-test"]).await.expect("ssh test");
        assert_eq!(output, "via-ssh");
    }

    #[tokio::test]
    async fn execute_tmux_over_ssh_preserves_shell_sensitive_args() {
        let mut stub = TmuxStub::new();
        let socket = "/tmp/tmux sock 'quoted'; echo bad";
        stub.set_var("TMUX_MCP_SSH", "user@host");

        let output = execute_tmux_with_socket(&["socket-test"], Some(socket))
            .await
            .expect("socket test over ssh");

        assert_eq!(output, socket);
    }

    #[tokio::test]
    async fn canonicalize_remote_path_uses_ssh_host() {
        let mut stub = TmuxStub::new();
        let temp_dir = tempdir().expect("tempdir");
        let fixture = temp_dir.path().join("fixture.txt");
        fs::write(&fixture, "fixture").expect("write fixture");
        stub.set_var("TMUX_MCP_SSH", "user@host");

        let output = canonicalize_remote_path(fixture.to_string_lossy().as_ref())
            .await
            .expect("canonicalize remote path");

        assert_eq!(output, fixture.canonicalize().unwrap().to_string_lossy());
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn remote_path_is_symlink_uses_ssh_host() {
        let mut stub = TmuxStub::new();
        let temp_dir = tempdir().expect("tempdir");
        let target = temp_dir.path().join("target.txt");
        let link = temp_dir.path().join("link.txt");
        fs::write(&target, "target").expect("write target");
        std::os::unix::fs::symlink(&target, &link).expect("create symlink");
        stub.set_var("TMUX_MCP_SSH", "user@host");

        assert!(remote_path_is_symlink(link.to_string_lossy().as_ref())
            .await
            .expect("check symlink"));
        assert!(!remote_path_is_symlink(target.to_string_lossy().as_ref())
            .await
            .expect("check regular file"));
    }

    #[tokio::test]
    async fn create_remote_dir_uses_ssh_host() {
        let mut stub = TmuxStub::new();
        let temp_dir = tempdir().expect("tempdir");
        let nested = temp_dir.path().join("nested").join("buffer-dir");
        stub.set_var("TMUX_MCP_SSH", "user@host");

        create_remote_dir(nested.to_string_lossy().as_ref())
            .await
            .expect("create remote dir");

        assert!(nested.is_dir());
    }

    #[tokio::test]
    async fn create_session_parses_output() {
        let _stub = TmuxStub::new();
        let session = create_session("new-session", None)
            .await
            .expect("create session");
        assert_eq!(session.name, "new-session");
    }

    #[tokio::test]
    async fn create_session_recovers_from_missing_output() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_NEW_SESSION_OUTPUT", "bad-output");
        stub.set_var(
            "TMUX_STUB_LIST_SESSIONS",
            "%1\talpha\t1\t2\n%2\tfallback-session\t0\t1",
        );

        let session = create_session("fallback-session", None)
            .await
            .expect("create session");
        assert_eq!(session.id, "%2");
        assert_eq!(session.name, "fallback-session");
    }

    #[tokio::test]
    async fn create_session_handles_bad_output() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_NEW_SESSION_OUTPUT", "bad-output");

        let err = create_session("bad", None).await.unwrap_err();
        match err {
            Error::Tmux { message } => assert!(message.contains("failed to parse new session")),
            _ => panic!("expected tmux error"),
        }
    }

    #[tokio::test]
    async fn create_window_parses_output() {
        let _stub = TmuxStub::new();
        let window = create_window("%1", "new-window", None)
            .await
            .expect("create window");
        assert_eq!(window.name, "new-window");
    }

    #[tokio::test]
    async fn create_window_recovers_from_missing_output() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_NEW_WINDOW_OUTPUT", "bad-output");
        stub.set_var(
            "TMUX_STUB_LIST_WINDOWS",
            "@1\tfirst\t1\n@2\tfallback-window\t0",
        );

        let window = create_window("%1", "fallback-window", None)
            .await
            .expect("create window");
        assert_eq!(window.id, "@2");
        assert_eq!(window.name, "fallback-window");
    }

    #[tokio::test]
    async fn create_window_handles_bad_output() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_NEW_WINDOW_OUTPUT", "bad-output");

        let err = create_window("%1", "bad", None).await.unwrap_err();
        match err {
            Error::Tmux { message } => assert!(message.contains("failed to parse new window")),
            _ => panic!("expected tmux error"),
        }
    }

    #[tokio::test]
    async fn split_pane_parses_output() {
        let _stub = TmuxStub::new();
        let pane = split_pane("%1", Some("horizontal"), Some(50), None)
            .await
            .expect("split pane");
        assert_eq!(pane.id, "%3");
    }

    #[tokio::test]
    async fn split_pane_recovers_from_missing_output() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_SPLIT_WINDOW_OUTPUT", "bad-output");
        stub.set_var("TMUX_STUB_LIST_PANES", "%1\tpane-one\t0\n%2\tpane-two\t1");

        let pane = split_pane("%1", Some("horizontal"), Some(50), None)
            .await
            .expect("split pane");
        assert_eq!(pane.id, "%2");
        assert!(pane.active);
    }

    #[tokio::test]
    async fn split_pane_handles_bad_output() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_SPLIT_WINDOW_OUTPUT", "bad-output");

        let err = split_pane("%1", Some("vertical"), Some(50), None)
            .await
            .unwrap_err();
        match err {
            Error::Tmux { message } => assert!(message.contains("failed to parse new pane")),
            _ => panic!("expected tmux error"),
        }
    }

    #[tokio::test]
    async fn break_pane_parses_output() {
        let _stub = TmuxStub::new();
        let window = break_pane("%1", Some("breakout"), None)
            .await
            .expect("break pane");
        assert_eq!(window.id, "@9");
        assert_eq!(window.name, "broken");
        assert_eq!(window.session_id, "%1");
    }

    #[tokio::test]
    async fn break_pane_recovers_from_missing_output() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_BREAK_PANE_OUTPUT", "bad-output");
        stub.set_var("TMUX_STUB_LIST_WINDOWS", "@1\tfirst\t1\n@2\tbreakout\t0");

        let window = break_pane("%1", Some("breakout"), None)
            .await
            .expect("break pane");
        assert_eq!(window.id, "@2");
        assert_eq!(window.name, "breakout");
    }

    #[tokio::test]
    async fn break_pane_handles_bad_output() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_BREAK_PANE_OUTPUT", "bad-output");

        let err = break_pane("%1", None, None).await.unwrap_err();
        match err {
            Error::Tmux { message } => assert!(message.contains("failed to parse break-pane")),
            _ => panic!("expected tmux error"),
        }
    }

    #[tokio::test]
    async fn capture_pane_returns_content() {
        let _stub = TmuxStub::new();
        let content = capture_pane("%1", Some(10), true, None, None, false, None)
            .await
            .expect("capture pane");
        assert!(content.contains("stub-output"));
    }

    #[tokio::test]
    async fn capture_pane_preserves_significant_whitespace() {
        let mut stub = TmuxStub::new();
        stub.set_var(
            "TMUX_STUB_CAPTURE_OUTPUT",
            "  indented pane line\nends with spaces  \n\n",
        );

        let content = capture_pane("%1", Some(10), false, None, None, false, None)
            .await
            .expect("capture pane");

        assert_eq!(content, "  indented pane line\nends with spaces  \n\n");
    }

    #[tokio::test]
    async fn show_buffer_preserves_significant_whitespace() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_SHOW_BUFFER", "  buffer value  \n\n");

        let content = show_buffer(Some("buffer0"), None)
            .await
            .expect("show buffer");

        assert_eq!(content, "  buffer value  \n\n");
    }

    #[tokio::test]
    async fn list_windows_and_panes() {
        let _stub = TmuxStub::new();
        let windows = list_windows("%1", None).await.expect("list windows");
        assert_eq!(windows.len(), 2);

        let panes = list_panes("@1", None).await.expect("list panes");
        assert_eq!(panes.len(), 2);
    }

    #[tokio::test]
    async fn get_current_session_handles_missing() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_CURRENT_SESSION_OUTPUT", " ");

        let err = get_current_session(None).await.unwrap_err();
        match err {
            Error::Tmux { message } => assert!(message.contains("current session not found")),
            _ => panic!("expected tmux error"),
        }
    }

    #[tokio::test]
    async fn select_layout_happy_path() {
        let _stub = TmuxStub::new();
        select_layout("@1", "tiled", None)
            .await
            .expect("select layout");
    }

    #[tokio::test]
    async fn select_layout_tmux_error() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_ERROR_CMD", "select-layout");
        stub.set_var("TMUX_STUB_ERROR_MSG", "layout-fail");

        let err = select_layout("@1", "tiled", None).await.unwrap_err();
        match err {
            Error::Tmux { message } => assert!(message.contains("layout-fail")),
            _ => panic!("expected tmux error"),
        }
    }

    #[tokio::test]
    async fn join_and_swap_panes_happy_path() {
        let _stub = TmuxStub::new();
        join_pane("%1", "%2", None).await.expect("join pane");
        swap_pane("%1", "%2", None).await.expect("swap pane");
    }

    #[tokio::test]
    async fn zoom_pane_happy_path() {
        let _stub = TmuxStub::new();
        zoom_pane("%1", None).await.expect("zoom pane");
    }

    #[tokio::test]
    async fn resize_pane_invalid_direction_returns_error() {
        let _stub = TmuxStub::new();
        let err = resize_pane("%1", Some("diagonal"), Some(5), None, None, None)
            .await
            .unwrap_err();
        match err {
            Error::InvalidArgument { message } => {
                assert!(message.contains("unknown resize direction"))
            }
            _ => panic!("expected invalid argument error"),
        }
    }

    #[tokio::test]
    async fn resize_pane_requires_dimensions_or_direction() {
        let _stub = TmuxStub::new();
        let err = resize_pane("%1", None, None, None, None, None)
            .await
            .unwrap_err();
        match err {
            Error::InvalidArgument { message } => {
                assert!(message.contains("resize-pane requires direction/amount or width/height"))
            }
            _ => panic!("expected invalid argument error"),
        }
    }

    #[tokio::test]
    async fn search_buffers_returns_offsets_and_snippets() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_SHOW_BUFFER", "alpha beta gamma beta");

        let result = search_buffers(
            Some(vec!["buffer0".to_string()]),
            "beta",
            SearchMode::Literal,
            Some(2),
            Some(10),
            Some(1024),
            false,
            false,
            None,
            None,
            262_144,
            None,
        )
        .await
        .expect("search buffers");

        assert_eq!(result.total_matches, 2);
        assert_eq!(result.matches.len(), 2);
        assert_eq!(result.matches[0].offset_bytes, 6);
        assert!(result.matches[0].snippet.contains("beta"));
    }

    #[tokio::test]
    async fn search_buffers_streaming_uses_scan_window() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_LIST_BUFFERS", "buffer0\t15\t0");
        stub.set_var("TMUX_STUB_SHOW_BUFFER", "aaaaabbbbbccccc");

        let result = search_buffers(
            Some(vec!["buffer0".to_string()]),
            "b",
            SearchMode::Literal,
            Some(0),
            Some(10),
            Some(5),
            false,
            false,
            None,
            None,
            1,
            None,
        )
        .await
        .expect("search buffers");

        assert_eq!(result.total_matches, 0);
        assert!(result.truncated_buffers.contains(&"buffer0".to_string()));
        assert_eq!(result.resume_from_offset.get("buffer0"), Some(&5));
    }

    #[tokio::test]
    async fn search_buffers_streaming_searches_literal_lookahead_once() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_LIST_BUFFERS", "buffer0\t9\t0");
        stub.set_var("TMUX_STUB_SHOW_BUFFER", "aaaXYZbbb");

        let first = search_buffers(
            Some(vec!["buffer0".to_string(), "buffer0".to_string()]),
            "XYZ",
            SearchMode::Literal,
            Some(0),
            Some(10),
            Some(5),
            false,
            false,
            None,
            None,
            1,
            None,
        )
        .await
        .expect("first search page");

        assert_eq!(first.buffers, vec!["buffer0"]);
        assert_eq!(first.matches.len(), 1);
        assert_eq!(first.matches[0].offset_bytes, 3);
        assert_eq!(first.matches[0].snippet, "XYZ");
        let match_end = first.matches[0]
            .offset_bytes
            .saturating_add(u64::from(first.matches[0].match_len));
        assert_eq!(match_end, 6);
        assert_eq!(first.resume_from_offset.get("buffer0"), Some(&match_end));

        let second = search_buffers(
            Some(vec!["buffer0".to_string()]),
            "XYZ",
            SearchMode::Literal,
            Some(0),
            Some(10),
            Some(5),
            false,
            false,
            None,
            Some(first.resume_from_offset),
            1,
            None,
        )
        .await
        .expect("second search page");

        assert!(second.matches.is_empty());
        assert!(second.truncated_buffers.is_empty());
        assert_eq!(second.resume_from_offset.get("buffer0"), Some(&9));
    }

    #[tokio::test]
    async fn search_buffers_regex_requires_full_budget_before_loading_window() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_LIST_BUFFERS", "buffer0\t12\t0");
        stub.set_var("TMUX_STUB_SHOW_BUFFER", "a1234567890z");

        let error = search_buffers(
            Some(vec!["buffer0".to_string()]),
            "a.*z",
            SearchMode::Regex,
            Some(0),
            Some(10),
            Some(5),
            false,
            false,
            None,
            None,
            1,
            None,
        )
        .await
        .expect_err("partial regex budget must fail");
        assert!(error.to_string().contains("requires at least 12 bytes"));

        let result = search_buffers(
            Some(vec!["buffer0".to_string()]),
            "a.*z",
            SearchMode::Regex,
            Some(0),
            Some(10),
            Some(12),
            false,
            false,
            None,
            None,
            1,
            None,
        )
        .await
        .expect("full regex budget");
        assert_eq!(result.matches.len(), 1);
        assert_eq!(result.matches[0].match_len, 12);
        assert_eq!(result.bytes_scanned_total, 12);
    }

    #[test]
    fn max_matches_cursor_replays_complete_multi_buffer_request_without_duplicates() {
        let buffers = vec![
            BufferText {
                name: "zeta".to_string(),
                text: "hit-z".to_string(),
                base_offset: 0,
                full_len: 5,
            },
            BufferText {
                name: "alpha".to_string(),
                text: "xxhit-a".to_string(),
                base_offset: 0,
                full_len: 7,
            },
            BufferText {
                name: "middle".to_string(),
                text: "none".to_string(),
                base_offset: 0,
                full_len: 4,
            },
        ];
        let options = |resume| SearchOptions {
            context_bytes: Some(0),
            max_matches: Some(1),
            max_scan_bytes: Some(100),
            include_similarity: false,
            fuzzy_match: false,
            similarity_threshold: None,
            resume_from_offset: resume,
        };

        let first = search_texts(buffers.clone(), "hit", SearchMode::Literal, options(None))
            .expect("first multi-buffer page");
        assert_eq!(first.buffers, vec!["zeta", "alpha", "middle"]);
        assert_eq!(first.matches.len(), 1);
        assert_eq!(first.matches[0].buffer, "zeta");
        assert_eq!(first.truncated_buffers, vec!["alpha"]);
        assert_eq!(first.resume_from_offset.get("zeta"), Some(&5));
        assert_eq!(first.resume_from_offset.get("alpha"), Some(&2));
        assert_eq!(first.resume_from_offset.get("middle"), Some(&4));

        let second = search_texts(
            buffers.clone(),
            "hit",
            SearchMode::Literal,
            options(Some(first.resume_from_offset)),
        )
        .expect("second multi-buffer page");
        assert_eq!(second.matches.len(), 1);
        assert_eq!(second.matches[0].buffer, "alpha");
        assert!(second.truncated_buffers.is_empty());

        let replay = search_texts(
            buffers,
            "hit",
            SearchMode::Literal,
            options(Some(second.resume_from_offset)),
        )
        .expect("completed multi-buffer replay");
        assert!(replay.matches.is_empty());
        assert!(replay.truncated_buffers.is_empty());
    }

    #[tokio::test]
    async fn search_buffers_preserves_complete_trailing_utf8_scalar() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_STUB_LIST_BUFFERS", "buffer0\t3\t0");
        stub.set_var("TMUX_STUB_SHOW_BUFFER", "xé");

        for streaming_threshold in [1, 100] {
            let result = search_buffers(
                Some(vec!["buffer0".to_string()]),
                "é$",
                SearchMode::Regex,
                Some(0),
                Some(10),
                Some(3),
                false,
                false,
                None,
                None,
                streaming_threshold,
                None,
            )
            .await
            .expect("search complete trailing scalar");

            assert_eq!(result.matches.len(), 1);
            assert_eq!(result.matches[0].offset_bytes, 1);
            assert_eq!(result.matches[0].match_len, 2);
        }
    }

    #[test]
    fn decode_window_preserves_complete_trailing_utf8_scalar() {
        let (text, base_offset) =
            decode_window("buffer0", "xé".as_bytes(), 0).expect("decode complete trailing scalar");
        assert_eq!(text, "xé");
        assert_eq!(base_offset, 0);
    }

    #[test]
    fn decode_window_rejects_invalid_utf8() {
        let bytes = [0xff, 0xff];
        let err = decode_window("buffer0", &bytes, 0).unwrap_err();
        match err {
            Error::InvalidArgument { message } => {
                assert!(message.contains("non-UTF-8"));
            }
            _ => panic!("expected invalid argument error"),
        }
    }

    #[test]
    fn resolve_socket_prefers_override_and_env() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_MCP_SOCKET", "/tmp/env.sock");

        assert_eq!(resolve_socket(None), Some("/tmp/env.sock".to_string()));
        assert_eq!(
            resolve_socket(Some("/tmp/override.sock")),
            Some("/tmp/override.sock".to_string())
        );
        assert_eq!(resolve_socket(Some("")), Some("/tmp/env.sock".to_string()));

        stub.set_var("TMUX_MCP_SOCKET", "");
        assert_eq!(resolve_socket(None), default_socket_path());
    }

    #[cfg(not(unix))]
    #[test]
    fn resolve_socket_without_override_has_no_platform_default() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_MCP_SOCKET", "");

        assert_eq!(default_socket_path(), None);
        assert_eq!(resolve_socket(None), None);
    }

    #[tokio::test]
    async fn execute_tmux_invalid_ssh_returns_error() {
        let mut stub = TmuxStub::new();
        stub.set_var("TMUX_MCP_SSH", "user@host \"unterminated");

        let err = execute_tmux(&["list-sessions"]).await.unwrap_err();
        match err {
            Error::InvalidArgument { message } => {
                assert!(message.contains("invalid TMUX_MCP_SSH"))
            }
            _ => panic!("expected invalid argument error"),
        }
    }
}
