// SPDX-License-Identifier: Apache-2.0
//! execkit-mcp - an MCP (stdio) server exposing execkit shell sessions to any
//! MCP-capable agent (Claude Code, Cursor, Gemini CLI, ...).
//!
//! Tools: `session_create`, `session_exec`, `session_destroy`, and (remote only)
//! `session_checkpoint`, `session_checkpoints`, `session_restore`. Sessions are
//! stateful and outlive a single tool call; `session_exec` returns the
//! structured `ExecResult` as JSON (split stdout/stderr, exit code, cwd, ...),
//! already policy-checked, secret-redacted, and bounded.
//!
//! ## Threat model
//!
//! The agent driving these tools can be prompt-injected, so tool arguments are
//! treated as untrusted. Anything that affects the host or filesystem in a
//! dangerous way is configured by the **operator at startup** (env vars), not by
//! per-call agent arguments:
//!   - `EXECKIT_MCP_AUDIT`                - append a JSONL audit log here (all sessions).
//!   - `EXECKIT_MCP_AUDIT_DIR`            - write one JSONL file per session into this
//!     directory (`<session_id>-<open_ms>.jsonl`). Takes precedence over
//!     EXECKIT_MCP_AUDIT when both are set.
//!   - `EXECKIT_MCP_AUDIT_RETENTION_DAYS` - delete per-session files older than this
//!     many days at startup (default 14, 0 disables; dir mode only).
//!   - `EXECKIT_MCP_KEY_DIR`              - dir SSH private keys must live under (default ~/.ssh).
//!   - `EXECKIT_MCP_KNOWN_HOSTS`          - execkit-managed SSH known_hosts file
//!     (default ~/.execkit/known_hosts; NOT the OpenSSH ~/.ssh/known_hosts).
//!   - `EXECKIT_MCP_INSECURE_ACCEPT_ANY_HOSTKEY=1` - DANGEROUS: disable host-key
//!     verification. Never in production.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, Content, LoggingLevel, LoggingMessageNotificationParam,
    ProgressNotificationParam, ProgressToken, ServerCapabilities, ServerInfo,
};
use rmcp::service::RequestContext;
use rmcp::{
    tool, tool_handler, tool_router, ErrorData, Peer, RoleServer, ServerHandler, ServiceExt,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use execkit::{Budget, Grep, HostKeyVerification, Keep, Policy, Session, SshAuth, SshConfig};
use execkit_mcp::audit::{self, AuditWriter};
use execkit_mcp::sshconfig;
use execkit_mcp::watch;

mod cli;

/// How audit events are routed. Off; one shared file for all sessions
/// (EXECKIT_MCP_AUDIT); or one file per session in a directory
/// (EXECKIT_MCP_AUDIT_DIR), which is what retention prunes.
#[derive(Clone)]
enum AuditSink {
    Off,
    Shared(Arc<AuditWriter>),
    PerSession(PathBuf),
}

impl AuditSink {
    /// The writer a newly opened session should use. In PerSession mode each
    /// call mints a fresh per-session file `<id>-<open_ms>.jsonl`.
    fn writer_for(&self, session_id: &str) -> Option<Arc<AuditWriter>> {
        match self {
            AuditSink::Off => None,
            AuditSink::Shared(w) => Some(w.clone()),
            AuditSink::PerSession(dir) => {
                let file = dir.join(format!("{session_id}-{}.jsonl", audit::now_ms()));
                Some(Arc::new(AuditWriter::new(file)))
            }
        }
    }
}

/// A live session plus the last time a handler touched it (for idle reaping).
/// `last_used` is a separate inner mutex so bumping the timestamp never waits on
/// a long-running `exec` that holds `session`.
struct SessionEntry {
    session: Mutex<Session>,
    last_used: Mutex<Instant>,
    transport: String,
    audit: Option<Arc<AuditWriter>>,
}
type SessionRef = Arc<SessionEntry>;
type Sessions = Arc<Mutex<HashMap<String, SessionRef>>>;

/// Operator-controlled configuration (from env), NOT settable per tool call.
struct Config {
    audit_path: Option<PathBuf>,
    audit_dir: Option<PathBuf>,
    /// Delete per-session audit files older than this many days at startup.
    /// 0 disables. Only meaningful in dir mode.
    retention_days: u64,
    key_dir: PathBuf,
    known_hosts: PathBuf,
    insecure_accept_any: bool,
    /// Soft cap on concurrent live sessions (bounds thread/connection growth
    /// from untrusted create calls).
    max_sessions: usize,
    /// None disables idle reaping; Some(d) reaps sessions idle longer than d.
    session_ttl: Option<Duration>,
    /// Default per-call exec timeout (seconds) when a call omits
    /// `timeout_secs`. From EXECKIT_MCP_EXEC_TIMEOUT, default 120, clamped to
    /// 1..=3600 (same clamp applied to a caller-supplied `timeout_secs`).
    exec_timeout_secs: u64,
}

impl Config {
    fn from_env() -> Self {
        let ssh = execkit_mcp::paths::ssh_dir();
        Config {
            audit_path: std::env::var_os("EXECKIT_MCP_AUDIT").map(PathBuf::from),
            audit_dir: std::env::var_os("EXECKIT_MCP_AUDIT_DIR").map(PathBuf::from),
            retention_days: std::env::var("EXECKIT_MCP_AUDIT_RETENTION_DAYS")
                .ok()
                .and_then(|s| s.trim().parse::<u64>().ok())
                .unwrap_or(14),
            key_dir: std::env::var_os("EXECKIT_MCP_KEY_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| ssh.clone()),
            known_hosts: std::env::var_os("EXECKIT_MCP_KNOWN_HOSTS")
                .map(PathBuf::from)
                .unwrap_or_else(execkit_mcp::paths::default_known_hosts_path),
            insecure_accept_any: std::env::var_os("EXECKIT_MCP_INSECURE_ACCEPT_ANY_HOSTKEY")
                .is_some(),
            max_sessions: std::env::var("EXECKIT_MCP_MAX_SESSIONS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(64),
            session_ttl: match std::env::var("EXECKIT_MCP_SESSION_TTL")
                .ok()
                .and_then(|v| v.parse::<u64>().ok())
            {
                Some(0) => None,                         // explicitly disabled
                Some(s) => Some(Duration::from_secs(s)), // operator override
                None => Some(Duration::from_secs(1800)), // default 30 min
            },
            exec_timeout_secs: std::env::var("EXECKIT_MCP_EXEC_TIMEOUT")
                .ok()
                .and_then(|s| s.trim().parse::<u64>().ok())
                .unwrap_or(120)
                .clamp(1, 3600),
        }
    }
}

/// Lock a std Mutex, recovering the guard if a prior holder panicked - a
/// poisoned lock must not brick the session (inner) or the whole server (outer).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[derive(Clone)]
struct ExeckitServer {
    // Read by the code the #[tool_handler] macro generates; Rust's dead-code
    // analysis can't see through the macro, hence the allow.
    #[allow(dead_code)]
    tool_router: ToolRouter<ExeckitServer>,
    sessions: Sessions,
    config: Arc<Config>,
    /// Atomic admission counter: the source of truth for the live-session cap.
    /// Reserved (fetch_add) at the START of session_create BEFORE the blocking
    /// build, so the check-and-reserve is a single atomic step (no TOCTOU). The
    /// sessions map stays the lookup table; this is the gate. Released on build
    /// failure and on destroy.
    live: Arc<AtomicUsize>,
    audit_sink: AuditSink,
    operator_policy: Arc<execkit_mcp::policy::OperatorPolicy>,
}

#[derive(Deserialize, JsonSchema)]
struct CreateParams {
    /// Transport: "local" (a local shell), "ssh", or "docker".
    #[schemars(extend("enum" = ["local", "ssh", "docker"]))]
    transport: String,
    /// Docker container name or id (required for docker).
    #[serde(default)]
    container: Option<String>,
    /// SSH host (required for ssh). May be a raw hostname/IP, or a Host alias
    /// defined in the operator's ssh config (<key_dir>/config, default
    /// ~/.ssh/config) - HostName/User/Port/IdentityFile from a matching
    /// alias fill in whatever isn't given below.
    #[serde(default)]
    host: Option<String>,
    /// SSH port (default 22, or the alias's Port).
    #[serde(default)]
    port: Option<u16>,
    /// SSH user (required for ssh, unless the operator's ssh config
    /// (<key_dir>/config, default ~/.ssh/config) Host alias sets User).
    #[serde(default)]
    user: Option<String>,
    /// SSH password auth. If omitted along with key_path, one key is picked:
    /// the first that exists (inside the operator's key dir) of the ssh
    /// config (<key_dir>/config, default ~/.ssh/config) alias's
    /// IdentityFile entries, then id_ed25519, id_ecdsa, id_rsa in the key
    /// dir. If the server rejects that key, no other key is tried.
    #[serde(default)]
    password: Option<String>,
    /// SSH private-key path (must live under the operator's key dir).
    #[serde(default)]
    key_path: Option<String>,
    /// Optional pinned host-key fingerprint ("SHA256:..."). If set, the server
    /// requires the host key to match exactly. Otherwise the operator's
    /// known_hosts file is used.
    #[serde(default)]
    fingerprint: Option<String>,
    /// Optional command allowlist (program names). If set, only these run.
    #[serde(default)]
    allow: Vec<String>,
    /// Optional command denylist (program names).
    #[serde(default)]
    deny: Vec<String>,
    /// Auto-snapshot before changing remote commands (default true, but only takes
    /// effect once `workspace` is set; remote only).
    #[serde(default = "default_true")]
    auto_snapshot: bool,
    /// Remote workspace root for checkpoints. REQUIRED to enable checkpoints; there
    /// is no default (it will not snapshot the cwd/home dir).
    #[serde(default)]
    workspace: Option<String>,
    /// Sub-paths under the root to checkpoint (optional; default: whole root).
    #[serde(default)]
    paths: Vec<String>,
    /// Extra exclude patterns (gitignore syntax) added to the snapshot, on top of
    /// the built-in defaults (.git, node_modules, caches, .ssh, ...).
    #[serde(default)]
    checkpoint_ignores: Vec<String>,
    /// Default output budget for every exec in this session (optional).
    #[serde(default)]
    output_budget: Option<BudgetParams>,
}

fn default_true() -> bool {
    true
}

#[derive(Deserialize, JsonSchema)]
struct GrepParams {
    /// Regex; keep only matching lines.
    pattern: String,
    /// Context lines kept on each side of a match (default 0).
    #[serde(default)]
    context: usize,
}

#[derive(Deserialize, JsonSchema)]
struct KeepParams {
    /// One of: "all", "tail", "head", "head_tail".
    #[schemars(extend("enum" = ["all", "tail", "head", "head_tail"]))]
    mode: String,
    /// Line count for tail/head.
    #[serde(default)]
    n: Option<usize>,
    /// For head_tail: leading lines.
    #[serde(default)]
    head: Option<usize>,
    /// For head_tail: trailing lines.
    #[serde(default)]
    tail: Option<usize>,
}

/// Output-shaping budget: grep -> line-keep -> char cap. All fields optional.
#[derive(Deserialize, JsonSchema)]
struct BudgetParams {
    #[serde(default)]
    grep: Option<GrepParams>,
    #[serde(default)]
    keep: Option<KeepParams>,
    #[serde(default)]
    max_chars: Option<usize>,
}

impl BudgetParams {
    fn to_budget(&self) -> Result<Budget, String> {
        let keep = match &self.keep {
            None => Keep::All,
            Some(k) => match k.mode.as_str() {
                "all" => Keep::All,
                "tail" => Keep::Tail(k.n.unwrap_or(0)),
                "head" => Keep::Head(k.n.unwrap_or(0)),
                "head_tail" => Keep::HeadTail(k.head.unwrap_or(0), k.tail.unwrap_or(0)),
                other => return Err(format!("unknown keep mode: {other}")),
            },
        };
        Ok(Budget {
            grep: self.grep.as_ref().map(|g| Grep {
                pattern: g.pattern.clone(),
                context: g.context,
            }),
            keep,
            max_chars: self.max_chars,
        })
    }
}

#[derive(Deserialize, JsonSchema)]
struct ExecParams {
    /// Session id from session_create.
    session_id: String,
    /// The shell command to run.
    command: String,
    /// Shape THIS command's output (overrides the session default).
    #[serde(default)]
    budget: Option<BudgetParams>,
    /// Timeout for THIS command in seconds (default 120, or
    /// EXECKIT_MCP_EXEC_TIMEOUT; clamped to 1..=3600). On timeout the command
    /// is interrupted and the session stays usable.
    #[serde(default)]
    timeout_secs: Option<u64>,
}

/// `session_exec`'s response: the ExecResult fields flattened, plus an
/// optional truncation hint the MCP layer adds (not part of core execkit).
#[derive(Serialize)]
struct ExecResultOut {
    #[serde(flatten)]
    result: execkit::ExecResult,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'static str>,
}

#[derive(Deserialize, JsonSchema)]
struct SessionIdParams {
    /// Session id from session_create.
    session_id: String,
}

#[derive(Deserialize, JsonSchema)]
struct CheckpointParams {
    /// Session id from session_create.
    session_id: String,
    /// Optional human label for the checkpoint.
    #[serde(default)]
    label: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct RestoreParams {
    /// Session id from session_create.
    session_id: String,
    /// Checkpoint id to restore; omit to restore the most recent.
    #[serde(default)]
    checkpoint_id: Option<String>,
}

#[tool_router]
impl ExeckitServer {
    fn new(config: Config, operator_policy: Arc<execkit_mcp::policy::OperatorPolicy>) -> Self {
        let audit_sink = if let Some(dir) = config.audit_dir.clone() {
            if let Err(e) = std::fs::create_dir_all(&dir) {
                eprintln!("execkit-mcp: audit dir create error: {e}");
            }
            AuditSink::PerSession(dir)
        } else if let Some(path) = config.audit_path.clone() {
            AuditSink::Shared(Arc::new(AuditWriter::new(path)))
        } else {
            AuditSink::Off
        };
        Self {
            tool_router: Self::tool_router(),
            sessions: Arc::new(Mutex::new(HashMap::new())),
            config: Arc::new(config),
            live: Arc::new(AtomicUsize::new(0)),
            audit_sink,
            operator_policy,
        }
    }

    #[tool(
        description = "Open a stateful shell session. Prefer this over a built-in/inline \
                       shell when you need: cwd/env kept across calls, a remote host over \
                       SSH (host may be a hostname/IP or a Host alias from the operator's \
                       ssh config, <key_dir>/config, default ~/.ssh/config), a Docker \
                       container, secret-redacted output, or undoable remote file changes \
                       (checkpoints); local has no checkpoints. transport: \
                       \"local\"|\"ssh\"|\"docker\". ssh needs host (alias \
                       HostName/User/Port/IdentityFile fill in what you omit) + password or \
                       key_path (or an alias/default key). docker needs container. Optional \
                       fingerprint (pin host key), allow/deny. Returns session_id. Remote \
                       checkpoints need git on the remote AND an explicit workspace (set \
                       'workspace'; otherwise off, never defaults to home); tune via \
                       auto_snapshot/paths/checkpoint_ignores. output_budget default-shapes \
                       every command's output."
    )]
    async fn session_create(
        &self,
        Parameters(p): Parameters<CreateParams>,
    ) -> Result<CallToolResult, ErrorData> {
        // Reclaim slots from sessions abandoned past the idle TTL before
        // reserving, so a full cap of idle sessions cannot reject this create.
        self.reap_idle();
        // Atomically reserve a slot BEFORE the (potentially expensive, awaited)
        // connect. fetch_add returns the prior value; if it was already at the
        // cap, undo the reservation and reject. This is the single source of
        // truth for admission - concurrent creates can never all slip past a
        // dropped lock the way a check-then-insert on the map could.
        if self.live.fetch_add(1, Ordering::AcqRel) >= self.config.max_sessions {
            self.live.fetch_sub(1, Ordering::AcqRel);
            return Ok(tool_error(format!(
                "session limit reached ({}); destroy unused sessions",
                self.config.max_sessions
            )));
        }
        // Past this point the slot is reserved: EVERY path must either insert a
        // live session (keeping the reservation) or release it (fetch_sub).
        let transport = transport_label(&p);
        let config = self.config.clone();
        let built = match tokio::task::spawn_blocking(move || build_session(p, &config)).await {
            Ok(built) => built,
            Err(e) => {
                // Join error (panic/cancel): release the reserved slot.
                self.live.fetch_sub(1, Ordering::AcqRel);
                return Err(internal(e));
            }
        };
        match built {
            Ok((session, label)) => {
                let id = format!("{}-{}_{}", run_id(), next_num(), label);
                let audit = self.audit_sink.writer_for(&id);
                if let Some(a) = &audit {
                    a.open(&id, &transport);
                }
                lock(&self.sessions).insert(
                    id.clone(),
                    Arc::new(SessionEntry {
                        session: Mutex::new(session),
                        last_used: Mutex::new(Instant::now()),
                        transport: transport.clone(),
                        audit,
                    }),
                );
                Ok(text(format!("{{\"session_id\":\"{id}\"}}")))
            }
            Err(e) => {
                // Build failed: no session was inserted, release the slot.
                self.live.fetch_sub(1, Ordering::AcqRel);
                Ok(tool_error(format!("session_create failed: {e}")))
            }
        }
    }

    #[tool(
        description = "Run a command in a session; returns ExecResult JSON (stdout, stderr, \
                          exit_code, duration_ms, cwd, truncated). Non-interactive: stdin is \
                          closed - no prompts, REPLs, or editors; use `sudo -n`. Default \
                          timeout 120s (EXECKIT_MCP_EXEC_TIMEOUT); \
                          timeout_secs overrides per call (max 3600). On timeout the command \
                          is interrupted (exit_code 124, timed_out:true); the session stays \
                          usable. For long jobs, background: `nohup CMD > /tmp/x.log 2>&1 &` \
                          then poll `cat /tmp/x.log`. `exit`, or a `set -e` failure, ends the \
                          shell and closes the session. Optional budget shapes output: \
                          {grep:{pattern,context?}, \
                          keep:{mode:\"all\"|\"tail\"|\"head\"|\"head_tail\",n?|head?+tail?}, max_chars?} \
                          - line-based, after redaction; never changes exit code/side \
                          effects; adds a report (mode + lines_total/lines_kept). Truncated \
                          unbudgeted output adds a hint. Redacted output is not file-accurate: \
                          never write it back to a file.",
        annotations(destructive_hint = true, open_world_hint = true)
    )]
    async fn session_exec(
        &self,
        Parameters(p): Parameters<ExecParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let session = match self.get(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let session_id = p.session_id.clone();
        let transport = session.transport.clone();
        let audit = session.audit.clone();
        let command = p.command;
        // Operator policy is the floor the agent cannot edit. A block never runs
        // the command; it is audited and pushed to the client, then returned as a
        // tool error so the agent can adapt.
        if let Err(reason) = self.operator_policy.check(&command) {
            // SEC: the command never ran, but it still lands in the audit log
            // and the client notification - redact it like an executed one.
            // A busy session (lock held by a running exec) must not stall the
            // block, so fall back to redaction without its learned values.
            let shown = match session.session.try_lock() {
                Ok(s) => s.redact_command(&command),
                Err(_) => execkit::redact_command(&command),
            };
            if let Some(a) = &audit {
                a.blocked(&session_id, &transport, &shown, &reason);
            }
            notify_blocked(
                &ctx.peer,
                ctx.meta.get_progress_token(),
                &session_id,
                &shown,
                &reason,
            )
            .await;
            return Ok(tool_error(format!("blocked by operator policy: {reason}")));
        }
        let budget = match p.budget.as_ref().map(|b| b.to_budget()) {
            Some(Ok(b)) => Some(b),
            Some(Err(e)) => return Ok(tool_error(e)),
            None => None,
        };
        let timeout = Duration::from_secs(
            p.timeout_secs
                .unwrap_or(self.config.exec_timeout_secs)
                .clamp(1, 3600),
        );
        // Concurrent execs on the SAME session serialize on this lock (the
        // outer map lock is already released). `lock` recovers from poisoning.
        let outcome = tokio::task::spawn_blocking(move || {
            let mut s = lock(&session.session);
            let r = s.exec_with_timeout(&command, budget.as_ref(), timeout);
            // Touch again before unlocking: `get` stamped the START, so a
            // command that ran past the TTL would otherwise leave the session
            // reapable the instant it unlocks.
            // Lock order: `last_used` taken while holding `session`. Safe only because reap_idle
            // `try_lock`s `session` while holding `last_used` - never make that a blocking `lock`.
            *lock(&session.last_used) = Instant::now();
            r
        })
        .await
        .map_err(internal)?;
        match outcome {
            Ok(r) => {
                if let Some(a) = &audit {
                    a.exec(&session_id, &transport, &r);
                }
                // Push the same activity to the client live, so a host agent can
                // surface its shell activity without a separate `watch` terminal.
                notify_activity(
                    &ctx.peer,
                    ctx.meta.get_progress_token(),
                    &session_id,
                    &transport,
                    &r,
                )
                .await;
                // No budget shaped this result at all (neither a per-call
                // budget nor a session-default output_budget) and it was
                // still truncated: hint that a budget would shape it.
                let hint = (r.truncated && r.budget.is_none()).then_some(
                    "output was truncated; pass budget (grep/keep/max_chars) to shape it",
                );
                let out = ExecResultOut { result: r, hint };
                let json = serde_json::to_string_pretty(&out).map_err(internal)?;
                Ok(text(json))
            }
            Err(e) => {
                // StillRunning/ShellExited/SessionPoisoned all mean the session's
                // framing is desynced (or the shell is gone) - it can never
                // execute another command correctly, so keeping it registered
                // would only let the agent retry into the same dead end. Close
                // it here (release the slot, audit it) so the NEXT call sees a
                // clean "unknown session_id" instead of a repeat of this error.
                let dead = matches!(
                    e,
                    execkit::Error::StillRunning
                        | execkit::Error::ShellExited
                        | execkit::Error::SessionPoisoned
                );
                let mut msg = e.to_string();
                if dead {
                    if let Some(entry) = lock(&self.sessions).remove(&session_id) {
                        self.live.fetch_sub(1, Ordering::AcqRel);
                        let reason = if matches!(e, execkit::Error::ShellExited) {
                            "shell_exited"
                        } else {
                            "timed_out"
                        };
                        if let Some(a) = &audit {
                            a.close(&session_id, reason);
                        }
                        // Session::drop is blocking; do it off the async executor.
                        tokio::task::spawn_blocking(move || drop(entry));
                        msg = format!("{msg} (session {session_id} was closed)");
                    }
                }
                Ok(tool_error(msg))
            }
        }
    }

    #[tool(
        description = "Take a workspace checkpoint on a REMOTE session (snapshot of \
                       files you can restore). Requires git on the remote host. \
                       Undoes FILES only - not side effects (DB, network, installs). \
                       Returns { checkpoint_id }."
    )]
    async fn session_checkpoint(
        &self,
        Parameters(p): Parameters<CheckpointParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let session = match self.get(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let label = p.label;
        let outcome = tokio::task::spawn_blocking(move || {
            lock(&session.session).checkpoint(label.as_deref())
        })
        .await
        .map_err(internal)?;
        match outcome {
            Ok(id) => Ok(text(format!("{{\"checkpoint_id\":\"{}\"}}", id.0))),
            Err(e) => Ok(tool_error(e.to_string())),
        }
    }

    #[tool(
        description = "List checkpoints (newest first) for a remote session.",
        annotations(read_only_hint = true)
    )]
    async fn session_checkpoints(
        &self,
        Parameters(p): Parameters<SessionIdParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let session = match self.get(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let outcome = tokio::task::spawn_blocking(move || lock(&session.session).checkpoints())
            .await
            .map_err(internal)?;
        match outcome {
            Ok(list) => {
                let json = serde_json::to_string_pretty(&list).map_err(internal)?;
                Ok(text(json))
            }
            Err(e) => Ok(tool_error(e.to_string())),
        }
    }

    #[tool(
        description = "DESTRUCTIVE: restore a remote session's workspace to a checkpoint \
                       (omit checkpoint_id to restore the most recent). Reverts tracked \
                       files and DELETES untracked files anywhere under the workspace, \
                       permanently and without a prompt. Does not undo other side effects \
                       (DB writes, network calls, installs).",
        annotations(destructive_hint = true)
    )]
    async fn session_restore(
        &self,
        Parameters(p): Parameters<RestoreParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let session = match self.get(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let id = p.checkpoint_id;
        let outcome = tokio::task::spawn_blocking(move || {
            let mut s = lock(&session.session);
            match id {
                Some(cid) => s.restore(&execkit::CheckpointId(cid)),
                None => s.restore_last(),
            }
        })
        .await
        .map_err(internal)?;
        match outcome {
            Ok(r) => Ok(text(serde_json::to_string(&r).map_err(internal)?)),
            Err(e) => Ok(tool_error(e.to_string())),
        }
    }

    #[tool(
        description = "DESTRUCTIVE: destroy a session and free its resources. The session_id \
                       becomes invalid immediately; any unsaved shell state (cwd, env, \
                       background jobs) is lost.",
        annotations(destructive_hint = true)
    )]
    async fn session_destroy(
        &self,
        Parameters(p): Parameters<SessionIdParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let removed = lock(&self.sessions).remove(&p.session_id);
        // Release the admission slot only if a session was actually present, so
        // a double-destroy (or destroy of an unknown id) can't underflow the
        // counter and free a slot that was never reserved by this session.
        let destroyed = removed.is_some();
        if let Some(entry) = removed {
            self.live.fetch_sub(1, Ordering::AcqRel);
            if let Some(a) = &entry.audit {
                a.close(&p.session_id, "destroyed");
            }
            // Session::drop is blocking (PTY kill / SSH teardown / docker reap);
            // do it off the async executor and not under the map lock.
            tokio::task::spawn_blocking(move || drop(entry));
        }
        Ok(text(format!("{{\"destroyed\":{destroyed}}}")))
    }

    #[tool(
        description = "List live sessions: [{session_id, transport, idle_secs}]. Use this to \
                       recover a session_id you lost track of, or to check whether a session \
                       is still open (it may have been closed by `exit`, a `set -e` failure, \
                       or idle-timeout reaping) before calling session_exec again.",
        annotations(read_only_hint = true)
    )]
    async fn session_list(&self) -> Result<CallToolResult, ErrorData> {
        let now = Instant::now();
        let list: Vec<serde_json::Value> = lock(&self.sessions)
            .iter()
            .map(|(id, e)| {
                let idle_secs = now.duration_since(*lock(&e.last_used)).as_secs();
                serde_json::json!({
                    "session_id": id,
                    "transport": e.transport,
                    "idle_secs": idle_secs,
                })
            })
            .collect();
        let json = serde_json::to_string_pretty(&list).map_err(internal)?;
        Ok(text(json))
    }
}

impl ExeckitServer {
    /// Looks up a session by id. Unknown ids are NOT a JSON-RPC protocol error
    /// (`-32602`) - they are routine (a stale id from a closed session, a typo)
    /// and the agent needs to see and adapt to them, so this returns an
    /// `isError: true` tool result instead. Callers do
    /// `match self.get(id) { Ok(s) => s, Err(e) => return Ok(e) }`.
    fn get(&self, id: &str) -> std::result::Result<SessionRef, CallToolResult> {
        let entry = lock(&self.sessions).get(id).cloned().ok_or_else(|| {
            tool_error(format!(
                "unknown session_id '{id}'; call session_list to see live sessions"
            ))
        })?;
        *lock(&entry.last_used) = Instant::now(); // touch on every use
        Ok(entry)
    }

    /// Drop sessions idle longer than the TTL. Selects entries idle past the TTL
    /// AND not currently locked (a session a handler is mid-exec on fails
    /// try_lock and is skipped). Removes them under the map lock, decrements the
    /// cap once each, then drops the (blocking) Session off the async executor.
    /// No-op when the TTL is disabled. Returns the number reaped.
    fn reap_idle(&self) -> usize {
        let Some(ttl) = self.config.session_ttl else {
            return 0;
        };
        let now = Instant::now();
        let mut reaped: Vec<SessionRef> = Vec::new();
        {
            let mut map = lock(&self.sessions);
            let stale: Vec<String> = map
                .iter()
                .filter(|(_, e)| {
                    // Holds `last_used` while probing `session`: must stay `try_lock` (session_exec
                    // takes `last_used` while holding `session`; a blocking lock here could deadlock).
                    now.duration_since(*lock(&e.last_used)) > ttl && e.session.try_lock().is_ok()
                })
                .map(|(id, _)| id.clone())
                .collect();
            for id in stale {
                if let Some(e) = map.remove(&id) {
                    let idle = now.duration_since(*lock(&e.last_used));
                    eprintln!(
                        "execkit: reaped idle session {id} (idle {}s)",
                        idle.as_secs()
                    );
                    self.live.fetch_sub(1, Ordering::AcqRel);
                    if let Some(a) = &e.audit {
                        a.close(&id, "reaped");
                    }
                    reaped.push(e);
                }
            }
        }
        let n = reaped.len();
        if n > 0 {
            tokio::task::spawn_blocking(move || drop(reaped));
        }
        n
    }
}

#[tool_handler]
impl ServerHandler for ExeckitServer {
    fn get_info(&self) -> ServerInfo {
        // ServerInfo is #[non_exhaustive] - start from default and assign.
        let mut info = ServerInfo::default();
        let mut instructions = String::from(
            "Stateful, structured, safe shell sessions for agents. Call session_create \
             (local, ssh, or docker) to get a session_id, session_exec to run commands \
             (structured results), session_list to see which sessions are still open, and \
             session_destroy when done. State (cwd, env) persists across execs. Remote \
             (ssh/docker) sessions also support workspace checkpoints \
             (session_checkpoint/session_checkpoints/session_restore).",
        );
        instructions.push_str(
            " This server streams each command and its result to your client as it \
             happens (MCP log + progress notifications). If the user wants to watch \
             this agent's shell activity live, surface these notifications to them - \
             no separate terminal needed.",
        );
        if let Some(p) = self
            .config
            .audit_dir
            .as_ref()
            .or(self.config.audit_path.as_ref())
        {
            instructions.push_str(&format!(
                " A live audit log is enabled at {}. If the user may want to watch this \
                 agent's shell activity, suggest they run `execkit-mcp watch {}` in a \
                 separate terminal for a real-time, read-only view of these sessions.",
                p.display(),
                p.display()
            ));
        }
        info.instructions = Some(instructions);
        info.capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .build();
        // Default pulls rmcp's own crate identity; advertise ourselves instead.
        info.server_info.name = "execkit-mcp".into();
        info.server_info.version = env!("CARGO_PKG_VERSION").into();
        info
    }
}

/// Stream one exec to the client as MCP notifications, mirroring what
/// `watch --follow` prints to a terminal. A logging message carries the full
/// shell transcript (prompt, output, exit status); a progress note carries the
/// one-line summary, but only when the client supplied a progressToken (it has
/// nowhere to attach otherwise). Best-effort: a send failure never affects the
/// tool result, and the client already received the same data in that result.
async fn notify_activity(
    peer: &Peer<RoleServer>,
    progress_token: Option<ProgressToken>,
    session_id: &str,
    transport: &str,
    r: &execkit::ExecResult,
) {
    let ev = audit::AuditEvent::Exec {
        ts: audit::now_ms(),
        session: session_id.to_string(),
        transport: transport.to_string(),
        command: r.command.clone(),
        stdout: r.stdout.clone(),
        stderr: r.stderr.clone(),
        exit_code: r.exit_code,
        duration_ms: r.duration_ms,
        cwd: r.cwd.clone(),
        truncated: r.truncated,
        timed_out: r.timed_out,
    };
    let transcript: Vec<String> = watch::render::render_event(&ev)
        .into_iter()
        .map(|l| l.text)
        .collect();
    let summary = format!(
        "[{session_id}] {} $ {} -> exit {} ({}ms)",
        r.cwd, r.command, r.exit_code, r.duration_ms
    );

    let _ = peer
        .notify_logging_message(LoggingMessageNotificationParam {
            level: if r.exit_code == 0 {
                LoggingLevel::Info
            } else {
                LoggingLevel::Warning
            },
            logger: Some(format!("execkit/{session_id}")),
            data: serde_json::json!({
                "session": session_id,
                "transport": transport,
                "summary": summary,
                "transcript": transcript,
            }),
        })
        .await;

    if let Some(progress_token) = progress_token {
        let _ = peer
            .notify_progress(ProgressNotificationParam {
                progress_token,
                progress: 1.0,
                total: None,
                message: Some(summary),
            })
            .await;
    }
}

/// doctor's non-fatal view of the policy file: counts or the load error.
fn policy_for_doctor(path: &std::path::Path) -> anyhow::Result<(usize, usize, usize)> {
    Ok(execkit_mcp::policy::OperatorPolicy::from_file(path)?.counts())
}

/// Push a blocked-command event to the client: a warning log notification, plus
/// a progress summary when the call supplied a token. Mirrors `notify_activity`.
async fn notify_blocked(
    peer: &Peer<RoleServer>,
    progress_token: Option<ProgressToken>,
    session_id: &str,
    command: &str,
    reason: &str,
) {
    let summary = format!("[{session_id}] blocked: {command}  ({reason})");
    let _ = peer
        .notify_logging_message(LoggingMessageNotificationParam {
            level: LoggingLevel::Warning,
            logger: Some(format!("execkit/{session_id}")),
            data: serde_json::json!({
                "session": session_id,
                "blocked": command,
                "reason": reason,
            }),
        })
        .await;
    if let Some(progress_token) = progress_token {
        let _ = peer
            .notify_progress(ProgressNotificationParam {
                progress_token,
                progress: 1.0,
                total: None,
                message: Some(summary),
            })
            .await;
    }
}

fn transport_label(p: &CreateParams) -> String {
    // host/container are agent-provided and land in the audit log content, so
    // sanitize them (same rule as the session id) to keep the log clean.
    match p.transport.as_str() {
        "ssh" => match &p.host {
            Some(h) => format!("ssh:{}", sanitize(h)),
            None => "ssh".to_string(),
        },
        "docker" => match &p.container {
            Some(c) => format!("docker:{}", sanitize(c)),
            None => "docker".to_string(),
        },
        other => other.to_string(), // "local" and anything else
    }
}

/// Build the session and its id label. The label is returned from here (not
/// computed up front) so an ssh session is labelled with the user and port
/// resolved through `~/.ssh/config`, not only what the call passed.
fn build_session(p: CreateParams, config: &Config) -> Result<(Session, String), execkit::Error> {
    let mut label = session_label(&p);
    let mut session = match p.transport.as_str() {
        "ssh" => {
            let host_arg = p
                .host
                .ok_or_else(|| execkit::Error::Transport("ssh: 'host' required".into()))?;
            // `host` may be a raw hostname/IP or a Host alias from the
            // operator's own ~/.ssh/config (read from <key_dir>/config; that
            // file is operator-owned, never a path the agent can choose).
            // Absent is fine (no alias support, just host/user/port/auth from
            // the call); any other read error is treated the same
            // way (best-effort - a malformed/unreadable config degrades to
            // "no alias", it never blocks the connection).
            let alias = std::fs::read_to_string(config.key_dir.join("config"))
                .ok()
                .and_then(|text| {
                    sshconfig::lookup(&text, &host_arg, &execkit_mcp::paths::home_dir())
                });
            let (host, port, user, auth) = resolve_ssh(
                host_arg.clone(),
                p.user,
                p.port,
                p.password,
                p.key_path,
                alias.as_ref(),
                &config.key_dir,
            )?;
            label = ssh_label(&host_arg, &user, port);
            // Host-key policy: pin if a fingerprint is supplied (safe - no file
            // I/O on a caller path); otherwise verify against the operator's
            // known_hosts; AcceptAny ONLY via explicit insecure opt-in.
            let host_key = if let Some(fp) = p.fingerprint {
                HostKeyVerification::Pinned(fp)
            } else if config.insecure_accept_any {
                HostKeyVerification::AcceptAny
            } else {
                HostKeyVerification::KnownHosts(config.known_hosts.clone())
            };
            // The resolved hostname/port (not the raw alias/default) drive
            // both the actual connection and the known_hosts lookup key, so
            // host-key pinning is keyed on where we actually connect.
            let mut cfg = SshConfig::new(host, user, auth, host_key);
            if let Some(port) = port {
                cfg.port = port;
            }
            Session::ssh(cfg)?
        }
        "docker" => {
            let container = p
                .container
                .ok_or_else(|| execkit::Error::Transport("docker: 'container' required".into()))?;
            Session::docker(&container)?
        }
        "local" => Session::local()?,
        _ => {
            return Err(execkit::Error::Transport(
                "transport must be \"local\", \"ssh\" or \"docker\"".into(),
            ))
        }
    };
    session = session
        .with_auto_snapshot(p.auto_snapshot)
        .with_checkpoint_paths(p.paths.clone())
        .with_checkpoint_ignores(p.checkpoint_ignores.clone());
    if let Some(ws) = p.workspace.clone() {
        session = session.with_workspace(ws);
    }
    if let Some(bp) = &p.output_budget {
        let b = bp.to_budget().map_err(execkit::Error::Budget)?;
        session = session.with_output_budget(b);
    }
    if !p.allow.is_empty() || !p.deny.is_empty() {
        session = session.with_policy(Policy {
            allow: p.allow,
            deny: p.deny,
        });
    }
    Ok((session, label))
}

/// Resolve a caller-supplied key path and require it to live under `key_dir`.
/// Uses canonicalization (resolves `..` and symlinks) and returns a single
/// generic error so a not-found vs. out-of-bounds path is indistinguishable.
fn validated_key_path(raw: &str, key_dir: &Path) -> Result<PathBuf, execkit::Error> {
    let deny = || execkit::Error::Transport("ssh: key_path not permitted".into());
    let dir = std::fs::canonicalize(key_dir).map_err(|_| deny())?;
    let path = std::fs::canonicalize(raw).map_err(|_| deny())?;
    if path.starts_with(&dir) {
        Ok(path)
    } else {
        Err(deny())
    }
}

/// Pure resolution of ssh connection parameters from the tool call's args plus
/// an optional parsed `~/.ssh/config` alias entry. The only I/O is the
/// canonicalize calls inside `validated_key_path`; no network access, so this
/// is unit-testable without a live SSH server.
///
/// Precedence: an explicit call argument (`user`/`port`/`password`/
/// `key_path`) always wins over the alias entry. `host` itself has no
/// separate override - the caller passed either a raw host or an alias, and
/// that value resolves the connection host together with the alias: the
/// alias's `HostName` if present, else the literal `host_or_alias` (matching
/// real ssh, which connects to the alias name itself when no HostName is set).
///
/// Auth: `password` first, then `key_path` (validated against `key_dir`),
/// then - only when NEITHER was given - the alias's `IdentityFile` entries in
/// order, then `id_ed25519`/`id_ecdsa`/`id_rsa` in `key_dir`. The FIRST one
/// that passes `validated_key_path` (exists, inside `key_dir`) is used; there
/// is no fallback to the next candidate if authentication with it fails.
/// The check means an alias pointing outside `key_dir` is
/// rejected exactly like an explicit out-of-bounds `key_path` (same generic
/// error, nothing leaked). Falls through to the existing
/// "password or key_path required" error if nothing usable is found.
///
/// Returns `(resolved_host, resolved_port, resolved_user, auth)`.
#[allow(clippy::too_many_arguments)]
fn resolve_ssh(
    host_or_alias: String,
    user: Option<String>,
    port: Option<u16>,
    password: Option<String>,
    key_path: Option<String>,
    alias: Option<&sshconfig::HostEntry>,
    key_dir: &Path,
) -> Result<(String, Option<u16>, String, SshAuth), execkit::Error> {
    let resolved_host = alias
        .and_then(|e| e.hostname.clone())
        .unwrap_or(host_or_alias);
    let resolved_port = port.or_else(|| alias.and_then(|e| e.port));
    let resolved_user = match user {
        Some(u) => u,
        None => alias.and_then(|e| e.user.clone()).ok_or_else(|| {
            execkit::Error::Transport(
                "ssh: 'user' required (or define User for this Host in ~/.ssh/config)".into(),
            )
        })?,
    };
    let auth = if let Some(pw) = password {
        SshAuth::Password(pw)
    } else if let Some(key) = key_path {
        // Constrain to the operator's key dir; generic error so the path's
        // existence/parseability never leaks to the (untrusted) caller.
        let path = validated_key_path(&key, key_dir)?;
        SshAuth::Key {
            path,
            passphrase: None,
        }
    } else {
        let alias_candidates = alias.map(|e| e.identity_files.clone()).unwrap_or_default();
        let default_candidates = ["id_ed25519", "id_ecdsa", "id_rsa"]
            .into_iter()
            .map(|name| key_dir.join(name));
        let found = alias_candidates
            .into_iter()
            .chain(default_candidates)
            .find_map(|candidate| validated_key_path(&candidate.to_string_lossy(), key_dir).ok());
        match found {
            Some(path) => SshAuth::Key {
                path,
                passphrase: None,
            },
            None => {
                return Err(execkit::Error::Transport(
                    "ssh: 'password' or 'key_path' required".into(),
                ))
            }
        }
    };
    Ok((resolved_host, resolved_port, resolved_user, auth))
}

fn text(s: String) -> CallToolResult {
    CallToolResult::success(vec![Content::text(s)])
}

fn tool_error(s: String) -> CallToolResult {
    CallToolResult::error(vec![Content::text(s)])
}

fn next_num() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(1);
    COUNTER.fetch_add(1, Ordering::Relaxed)
}

/// 4 lowercase hex chars, drawn from the system RNG once at server start and
/// cached for the life of the process. Session ids embed this as
/// `<run>-<n>_<label>`, so two server runs sharing an audit dir (or the live
/// viewer across a restart) never produce colliding ids that would merge
/// unrelated sessions together in the UI.
fn run_id() -> &'static str {
    static RUN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let mut b = [0u8; 2];
        // Best-effort: on the vanishingly unlikely RNG failure, fall back to a
        // fixed prefix rather than panicking the whole server over an id
        // cosmetic - ids stay well-formed either way.
        let _ = getrandom::fill(&mut b);
        b.iter().map(|x| format!("{x:02x}")).collect()
    })
}

/// Filename- and log-safe rendering of an agent-provided value: keep
/// `[A-Za-z0-9._-]`, replace anything else (notably `/`) with `_`, and cap the
/// length. The session id derived from this becomes an audit FILENAME, so this
/// prevents path traversal or junk from untrusted host/user/container args.
fn sanitize(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    if out.is_empty() {
        out.push('_');
    }
    out
}

/// Self-identifying session label appended after the session number:
/// `local`, `ssh_<user>@<host>[:port]`, or `docker_<container>`. Agent-provided
/// parts are sanitized.
fn session_label(p: &CreateParams) -> String {
    label_for(
        &p.transport,
        p.user.as_deref(),
        p.host.as_deref(),
        p.port,
        p.container.as_deref(),
    )
}

/// Label for an ssh session after alias resolution: the resolved user and port,
/// with the host part kept as the name the agent passed (an alias such as
/// `etlstage` stays `etlstage`, it is not replaced by its HostName).
fn ssh_label(host_arg: &str, resolved_user: &str, resolved_port: Option<u16>) -> String {
    label_for(
        "ssh",
        Some(resolved_user),
        Some(host_arg),
        resolved_port,
        None,
    )
}

fn label_for(
    transport: &str,
    user: Option<&str>,
    host: Option<&str>,
    port: Option<u16>,
    container: Option<&str>,
) -> String {
    match transport {
        "ssh" => {
            let user = sanitize(user.unwrap_or("user"));
            let host = sanitize(host.unwrap_or("host"));
            match port {
                Some(p) if p != 22 => format!("ssh_{user}@{host}:{p}"),
                _ => format!("ssh_{user}@{host}"),
            }
        }
        "docker" => format!("docker_{}", sanitize(container.unwrap_or("container"))),
        _ => "local".to_string(),
    }
}

fn internal<E: std::fmt::Display>(e: E) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    // An agent launches the server with NO args; only a human passes a
    // subcommand. Dispatch known subcommands here, then fall through to the
    // stdio server. An unknown first arg is a human typo, so help + exit.
    match args.get(1).map(String::as_str) {
        None => {}
        Some("--version") | Some("-V") | Some("version") => {
            cli::version();
            return Ok(());
        }
        Some("--help") | Some("-h") | Some("help") => {
            cli::help();
            return Ok(());
        }
        Some("setup") => return cli::setup(args.get(2).map(String::as_str)),
        Some("doctor") => return cli::doctor(),
        Some("watch") => {
            let rest = &args[2..];
            if rest.iter().any(|a| a == "--help" || a == "-h") {
                cli::watch_help();
                return Ok(());
            }
            // `--follow`/`-f` streams plain lines (no TTY); otherwise the TUI.
            let follow = rest.iter().any(|a| a == "--follow" || a == "-f");
            let do_serve = rest.iter().any(|a| a == "--serve");
            let do_open = rest.iter().any(|a| a == "--open");
            let path = rest
                .iter()
                .find(|a| !a.starts_with('-'))
                .map(std::path::PathBuf::from)
                .or_else(|| std::env::var_os("EXECKIT_MCP_AUDIT_DIR").map(std::path::PathBuf::from))
                .or_else(|| std::env::var_os("EXECKIT_MCP_AUDIT").map(std::path::PathBuf::from));
            match path {
                Some(p) => {
                    if let Some(msg) = watch::missing_parent_warning(&p) {
                        eprintln!("{msg}");
                    }
                    if do_serve {
                        return tokio::runtime::Runtime::new()?.block_on(async move {
                            let token = watch::web::gen_token()?;
                            let (addr, handle) = watch::web::serve(p, token.clone(), 0).await?;
                            let url = format!("http://{addr}/?t={token}");
                            eprintln!(
                                "execkit-mcp: live viewer at {url} (read-only; Ctrl+C to stop)"
                            );
                            if do_open {
                                watch::web::open_browser(&url);
                            }
                            handle.await.ok();
                            Ok(())
                        });
                    }
                    return if follow {
                        // Piped to `head`: the reader closing is a clean exit.
                        watch::follow(p).or_else(|e| match e.downcast_ref::<std::io::Error>() {
                            Some(io) if io.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                            _ => Err(e),
                        })
                    } else {
                        watch::run(p)
                    };
                }
                None => {
                    eprintln!("usage: execkit-mcp watch [--follow|--serve] [--open] <audit-file-or-dir>   (or set EXECKIT_MCP_AUDIT / EXECKIT_MCP_AUDIT_DIR)");
                    std::process::exit(2);
                }
            }
        }
        Some(other) => {
            eprintln!("execkit-mcp: unknown command {other:?}. Try `execkit-mcp --help`.");
            std::process::exit(2);
        }
    }
    // No subcommand: this is the stdio MCP server an agent launched.
    tokio::runtime::Runtime::new()?.block_on(run_server())
}

async fn run_server() -> anyhow::Result<()> {
    // stdout is the MCP channel - all diagnostics go to stderr.
    let mut config = Config::from_env();
    // Operator command policy (fail fast on a broken security config).
    let operator_policy = Arc::new(execkit_mcp::policy::load_from_env()?);
    if let Some(dir) = config.audit_dir.clone() {
        if config.retention_days > 0 {
            let max_age = Duration::from_secs(config.retention_days * 86_400);
            execkit_mcp::retention::sweep(&dir, max_age);
        }
    }
    eprintln!("execkit-mcp: starting MCP server on stdio");
    if let Some(p) = config.audit_dir.as_ref().or(config.audit_path.as_ref()) {
        let pd = p.display();
        eprintln!(
            "execkit-mcp: audit log at {pd}. For a live, read-only shell view of these \
             sessions, run `execkit-mcp watch {pd}` in a SEPARATE terminal."
        );
    }
    if std::env::var_os("HOME").is_none() {
        eprintln!(
            "execkit-mcp: NOTE HOME is unset - SSH key dir defaults under /root/.ssh and \
             known_hosts under /root/.execkit; set EXECKIT_MCP_KEY_DIR / \
             EXECKIT_MCP_KNOWN_HOSTS explicitly."
        );
    }
    if config.insecure_accept_any {
        eprintln!(
            "execkit-mcp: WARNING EXECKIT_MCP_INSECURE_ACCEPT_ANY_HOSTKEY is set - \
             SSH host-key verification is DISABLED (MITM possible). Do not use in production."
        );
    }
    // Live web viewer (opt-in). It tails the audit file, so if auditing is off
    // we default an audit path and turn it on so there is something to tail.
    let web_enabled = std::env::var_os("EXECKIT_MCP_WATCH_WEB").is_some();
    let web_audit_path = if web_enabled {
        let p = config
            .audit_dir
            .clone()
            .or_else(|| config.audit_path.clone())
            .unwrap_or_else(|| {
                let def = execkit_mcp::paths::default_web_audit_path();
                if let Some(parent) = def.parent() {
                    let _ = std::fs::create_dir_all(parent);
                }
                config.audit_path = Some(def.clone());
                def
            });
        Some(p)
    } else {
        None
    };

    let service = ExeckitServer::new(config, operator_policy)
        .serve(rmcp::transport::stdio())
        .await?;

    if let Some(path) = web_audit_path {
        let tokfile = execkit_mcp::paths::default_web_token_path();
        // Token read/create touches the filesystem; keep it off the async
        // executor so it cannot stall the MCP message loop.
        let token_res =
            tokio::task::spawn_blocking(move || watch::web::load_or_create_token(&tokfile))
                .await
                .unwrap_or_else(|e| Err(anyhow::anyhow!("token thread failed: {e}")));
        match token_res {
            Ok(token) => {
                // Default 7878 (stable across restarts so the open tab reconnects);
                // EXECKIT_MCP_WATCH_PORT overrides; fall back to an ephemeral port
                // if the chosen one is taken.
                let port: u16 = std::env::var("EXECKIT_MCP_WATCH_PORT")
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(7878);
                let served = match watch::web::serve(path.clone(), token.clone(), port).await {
                    Ok(v) => Some(v),
                    Err(e) => {
                        eprintln!(
                            "execkit-mcp: web viewer port {port} unavailable ({e}); using a random port"
                        );
                        watch::web::serve(path, token.clone(), 0).await.ok()
                    }
                };
                if let Some((addr, _handle)) = served {
                    let url = format!("http://{addr}/?t={token}");
                    // Link by default; auto-open only when the operator opts in.
                    if std::env::var_os("EXECKIT_MCP_WATCH_OPEN").is_some() {
                        watch::web::open_browser(&url);
                    }
                    let _ = service
                        .peer()
                        .notify_logging_message(LoggingMessageNotificationParam {
                            level: LoggingLevel::Info,
                            logger: Some("execkit/web".into()),
                            data: serde_json::json!({
                                "summary": format!("live viewer at {url}"),
                                "url": url,
                            }),
                        })
                        .await;
                    eprintln!("execkit-mcp: live viewer at {url} (read-only)");
                }
            }
            Err(e) => eprintln!("execkit-mcp: web viewer token error: {e:#}"),
        }
    }

    service.waiting().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{label_for, resolve_ssh, sanitize, ssh_label};
    use execkit::SshAuth;
    use execkit_mcp::sshconfig::HostEntry;
    use std::path::{Path, PathBuf};

    /// A scratch directory, deleted on drop - stands in for `key_dir` in
    /// `resolve_ssh` tests (no `tempfile` dependency needed; matches the
    /// manual-tempdir style already used in `tests/mcp_e2e.rs`).
    struct TempKeyDir(PathBuf);
    impl TempKeyDir {
        fn new() -> Self {
            static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!(
                "execkit_mcp_resolve_ssh_{}_{n}",
                std::process::id()
            ));
            std::fs::create_dir_all(&dir).expect("create temp key dir");
            TempKeyDir(dir)
        }
        fn path(&self) -> &Path {
            &self.0
        }
    }
    impl Drop for TempKeyDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A key_dir with no config file and no default-named keys in it - the
    /// "no alias, no fallback key" baseline most tests start from.
    fn empty_key_dir() -> TempKeyDir {
        TempKeyDir::new()
    }

    #[test]
    fn explicit_password_wins_even_with_an_alias_present() {
        let kd = empty_key_dir();
        let alias = HostEntry {
            hostname: Some("10.0.0.5".into()),
            user: Some("alias_user".into()),
            port: Some(2200),
            identity_files: vec![],
        };
        let (host, port, user, auth) = resolve_ssh(
            "myalias".into(),
            Some("explicit_user".into()),
            Some(22),
            Some("hunter2".into()),
            None,
            Some(&alias),
            kd.path(),
        )
        .unwrap();
        assert_eq!(host, "10.0.0.5"); // alias HostName still fills host
        assert_eq!(port, Some(22)); // explicit port beats alias port
        assert_eq!(user, "explicit_user"); // explicit user beats alias user
        assert!(matches!(auth, SshAuth::Password(pw) if pw == "hunter2"));
    }

    #[test]
    fn no_alias_no_hostname_keeps_literal_host_and_requires_user() {
        let kd = empty_key_dir();
        let err = resolve_ssh(
            "203.0.113.9".into(),
            None,
            None,
            None,
            None,
            None,
            kd.path(),
        )
        .unwrap_err();
        assert!(err
            .to_string()
            .ends_with("ssh: 'user' required (or define User for this Host in ~/.ssh/config)"));
    }

    #[test]
    fn alias_user_fills_in_when_call_omits_user() {
        let kd = empty_key_dir();
        let alias = HostEntry {
            hostname: None,
            user: Some("deploy".into()),
            port: None,
            identity_files: vec![],
        };
        let (host, _port, user, _auth) = resolve_ssh(
            "myalias".into(),
            None,
            None,
            Some("pw".into()),
            None,
            Some(&alias),
            kd.path(),
        )
        .unwrap();
        // no HostName in the alias -> the alias name itself is the host,
        // matching real ssh behavior.
        assert_eq!(host, "myalias");
        assert_eq!(user, "deploy");
    }

    #[test]
    fn alias_identity_file_outside_key_dir_is_rejected_and_falls_through() {
        let kd = empty_key_dir();
        let alias = HostEntry {
            hostname: None,
            user: Some("deploy".into()),
            port: None,
            identity_files: vec![PathBuf::from("/etc/passwd")],
        };
        let err = resolve_ssh(
            "myalias".into(),
            None,
            None,
            None,
            None,
            Some(&alias),
            kd.path(),
        )
        .unwrap_err();
        // Rejected generically (same message as no auth found at all) - the
        // out-of-bounds path is never used, and never named in the error.
        assert!(err
            .to_string()
            .ends_with("ssh: 'password' or 'key_path' required"));
    }

    #[test]
    fn alias_identity_file_inside_key_dir_is_used() {
        let kd = empty_key_dir();
        let key_path = kd.path().join("id_deploy");
        std::fs::write(&key_path, "fake key material").unwrap();
        let alias = HostEntry {
            hostname: None,
            user: Some("deploy".into()),
            port: None,
            identity_files: vec![key_path.clone()],
        };
        let (_host, _port, _user, auth) = resolve_ssh(
            "myalias".into(),
            None,
            None,
            None,
            None,
            Some(&alias),
            kd.path(),
        )
        .unwrap();
        let expected = std::fs::canonicalize(&key_path).unwrap();
        assert!(matches!(auth, SshAuth::Key { path, .. } if path == expected));
    }

    #[test]
    fn falls_back_to_default_key_names_when_no_alias_identity_file() {
        let kd = empty_key_dir();
        let key_path = kd.path().join("id_ed25519");
        std::fs::write(&key_path, "fake key material").unwrap();
        let (_host, _port, _user, auth) = resolve_ssh(
            "203.0.113.9".into(),
            Some("bob".into()),
            None,
            None,
            None,
            None, // no alias at all
            kd.path(),
        )
        .unwrap();
        let expected = std::fs::canonicalize(&key_path).unwrap();
        assert!(matches!(auth, SshAuth::Key { path, .. } if path == expected));
    }

    #[test]
    fn no_auth_anywhere_errors_with_original_message() {
        let kd = empty_key_dir();
        let err = resolve_ssh(
            "203.0.113.9".into(),
            Some("bob".into()),
            None,
            None,
            None,
            None,
            kd.path(),
        )
        .unwrap_err();
        assert!(err
            .to_string()
            .ends_with("ssh: 'password' or 'key_path' required"));
    }

    #[test]
    fn explicit_key_path_outside_key_dir_is_still_rejected() {
        // Regression guard: alias support must not loosen the existing
        // explicit key_path bound check.
        let kd = empty_key_dir();
        let err = resolve_ssh(
            "203.0.113.9".into(),
            Some("bob".into()),
            None,
            None,
            Some("/etc/passwd".into()),
            None,
            kd.path(),
        )
        .unwrap_err();
        assert!(err.to_string().ends_with("ssh: key_path not permitted"));
    }

    #[test]
    fn sanitize_blocks_path_separators_and_junk() {
        assert_eq!(sanitize("etlrobot"), "etlrobot");
        assert_eq!(sanitize("web-01.prod"), "web-01.prod");
        assert_eq!(sanitize("a/b"), "a_b");
        assert_eq!(sanitize("../../etc"), ".._.._etc");
        assert_eq!(sanitize("a b!c"), "a_b_c");
        assert_eq!(sanitize(""), "_");
        // the security property: an id (and thus filename) can never contain '/'
        assert!(!sanitize("x/y/../z").contains('/'));
    }

    #[test]
    fn label_for_each_transport() {
        assert_eq!(label_for("local", None, None, None, None), "local");
        assert_eq!(
            label_for("ssh", Some("etlrobot"), Some("web-01"), None, None),
            "ssh_etlrobot@web-01"
        );
        // default port 22 is omitted; non-default is shown
        assert_eq!(
            label_for("ssh", Some("u"), Some("h"), Some(22), None),
            "ssh_u@h"
        );
        assert_eq!(
            label_for("ssh", Some("u"), Some("h"), Some(2222), None),
            "ssh_u@h:2222"
        );
        assert_eq!(
            label_for("docker", None, None, None, Some("myapp")),
            "docker_myapp"
        );
        // an injected host cannot escape into a path component
        assert_eq!(
            label_for("ssh", Some("u"), Some("../x"), None, None),
            "ssh_u@.._x"
        );
    }

    #[test]
    fn ssh_label_uses_alias_user_and_port_but_keeps_alias_as_host() {
        // A session opened with only `host: "etlstage"` must be labelled with
        // the User/Port from ~/.ssh/config, not the "user" placeholder.
        let kd = empty_key_dir();
        let alias = HostEntry {
            hostname: Some("10.1.2.3".into()),
            user: Some("ec2-user".into()),
            port: Some(2222),
            identity_files: vec![],
        };
        let (host, port, user, _auth) = resolve_ssh(
            "etlstage".into(),
            None,
            None,
            Some("pw".into()),
            None,
            Some(&alias),
            kd.path(),
        )
        .unwrap();
        assert_eq!(host, "10.1.2.3");
        assert_eq!(
            ssh_label("etlstage", &user, port),
            "ssh_ec2-user@etlstage:2222"
        );

        // Alias with the default port: no port suffix.
        let alias22 = HostEntry {
            port: None,
            ..alias
        };
        let (_h, port, user, _a) = resolve_ssh(
            "etlstage".into(),
            None,
            None,
            Some("pw".into()),
            None,
            Some(&alias22),
            kd.path(),
        )
        .unwrap();
        assert_eq!(ssh_label("etlstage", &user, port), "ssh_ec2-user@etlstage");
    }
}
