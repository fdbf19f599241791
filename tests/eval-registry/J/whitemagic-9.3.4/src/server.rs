//! JSON-RPC over stdio MCP server.
//!
//! Implements the Model Context Protocol with three methods:
//! - `initialize`: handshake with client info
//! - `tools/list`: returns the `wm` meta-tool plus a discrete lifecycle
//!   catalog (memory.*, session.*) for registry/agent discovery
//! - `tools/call`: dispatches any registered tool through the governance pipeline
//!
//! The `wm` meta-tool routes natural language to the runtime tool catalog via
//! TF-IDF NLU classification, or accepts an explicit `route` parameter for
//! direct dispatch. Counts are runtime/profile-defined — the canonical
//! accounting (registry entries → full-profile routes → active-profile
//! routes → MCP tools → meta-router) comes from `capabilities/manifest`
//! (`counts` object); do not hardcode them in prose.
//! Use `wm(thought="list tools")` or `wm(route="tools.list")` to discover tools.

use std::io::Write;
use std::sync::Arc;

use crate::input_validation::MAX_REQUEST_SIZE;

/// Resource-rules config for this server instance.
///
/// Defaults to `ResourceRulesConfig::default()`; `WM_RESOURCE_MAX_WRITES_PER_MIN`
/// raises the write budget for maintenance one-shots (bulk dedupe/retire runs).
/// Health scaling still applies on top, so the effective limit stays
/// health-aware. Unset/invalid values leave defaults untouched.
#[must_use]
pub fn resource_rules_config_from_env() -> wm_governance::ResourceRulesConfig {
    let mut cfg = wm_governance::ResourceRulesConfig::default();
    if let Ok(v) = std::env::var("WM_RESOURCE_MAX_WRITES_PER_MIN") {
        if let Ok(n) = v.parse::<u32>() {
            cfg.max_writes_per_minute = n;
        }
    }
    cfg
}

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use wm_bicameral::{BicameralConfig, BicameralEngine, LlmRightHemisphere, RightHemisphereStub};
use wm_cognitive::DriveCore;
use wm_cognitive::GanYingBus;
use wm_cognitive::ReflexDispatchTable;
use wm_cognitive::TimescaleBus;
use wm_cognitive::{CittaHeartbeat, DreamContext, DreamCycle, EcoModeController};
use wm_core::Context;
use wm_dispatch::{DispatchPipeline, ToolRegistry};
use wm_governance::{DharmaGate, KarmaLedger, ResourceRules};
use wm_memory::{
    AssociationStore, ConversationalSearch, Embedder, MemoryStore, RecallConfig, RecallEngine,
    SearchEngine, StubEmbedder, VectorStore, create_embedder,
};
use wm_sangha::{PeerDiscovery, ResourceLockManager, SanghaChat, SignalBroadcast};
use wm_selfmodel::SelfModel;
use wm_substrate::SubstrateMonitor;
use wm_substrate::anomaly::AnomalyDetector;
use wm_substrate::homeostatic::HomeostaticLoop;
use wm_substrate::sensorimotor::{ReflexLoop, SensorimotorBus};
use wm_tools::expansion::rsi::{DispatchTelemetry, FrictionAutoLogTool};
use wm_workspace::GlobalWorkspace;

/// Minimum interval between hardware samples taken on the request path.
///
/// /proc and /sys reads are throttled to at most once per second so the MCP
/// hot path stays cheap; the daemon samples on its own schedule regardless.
const HARDWARE_SAMPLE_INTERVAL_MS: u64 = 1_000;
/// Write-budget sampling cadence (Phase 3): the ledger must not churn the
/// SSD it measures — a stat every 5 min plus a tiny JSON persist is the
/// cost of knowing, which is the point.
const WRITE_BUDGET_SAMPLE_INTERVAL_MS: u64 = 300_000;

/// MCP server state.
#[allow(dead_code)]
/// Refuse non-loopback SSE binds: the transport carries no auth token/PSK
/// (THREAT_MODEL_V9 §6), so it must stay loopback-only until the S7
/// credential lands. Applies to `wm serve --transport sse` and the
/// federated gateway's HTTP mode.
pub(crate) fn validate_sse_bind(addr: &std::net::SocketAddr) -> anyhow::Result<()> {
    if !addr.ip().is_loopback() {
        anyhow::bail!(
            "refusing non-loopback SSE bind {addr}: the SSE transport has no auth token/PSK \
             (THREAT_MODEL_V9 §6) — bind 127.0.0.1 and front it with an authenticating proxy"
        );
    }
    Ok(())
}

pub struct McpServer {
    registry: ToolRegistry,
    pipeline: Arc<DispatchPipeline>,
    eco_mode: EcoModeController,
    citta: CittaHeartbeat,
    dream: DreamCycle,
    store: Arc<MemoryStore>,
    /// Embedder disclosure computed at init (backend, namespace, dim) for
    /// `/status`; live vector/cache counts are added in `status_payload`.
    embedder_status: serde_json::Value,
    associations: Arc<AssociationStore>,
    substrate: Arc<SubstrateMonitor>,
    dharma_gate: Arc<DharmaGate>,
    resource_rules: Arc<ResourceRules>,
    reflex_table: Arc<std::sync::Mutex<ReflexDispatchTable>>,
    timescale_bus: Arc<std::sync::Mutex<TimescaleBus>>,
    workspace: Arc<std::sync::Mutex<GlobalWorkspace>>,
    self_model: Arc<std::sync::Mutex<SelfModel>>,
    bicameral: Arc<std::sync::Mutex<BicameralEngine>>,
    drive_core: Arc<std::sync::Mutex<DriveCore>>,
    autonomic: Option<Arc<std::sync::Mutex<wm_cognitive::AutonomicLayer>>>,
    gan_ying_bus: Arc<std::sync::Mutex<GanYingBus>>,
    /// Sangha governance components — the tool surface receives its own
    /// clones via `register_sangha`; the server-side copies are retained
    /// for future `/status` disclosure and are not read today.
    #[allow(dead_code)]
    peer_discovery: Arc<std::sync::Mutex<PeerDiscovery>>,
    #[allow(dead_code)]
    signal_broadcast: Arc<std::sync::Mutex<SignalBroadcast>>,
    #[allow(dead_code)]
    sangha_chat: Arc<std::sync::Mutex<SanghaChat>>,
    #[allow(dead_code)]
    lock_manager: Arc<std::sync::Mutex<ResourceLockManager>>,
    /// Sangha mesh transport slot (R0) — the CLI fills it with the live
    /// node after `MeshNode::start`; the `sangha.mesh.*` tools and
    /// `/status` read it. Empty when the server runs without `--mesh`.
    mesh_slot: Arc<wm_sangha::MeshSlot>,
    homeostatic_loop: Arc<std::sync::Mutex<HomeostaticLoop>>,
    anomaly_detector: Arc<std::sync::Mutex<AnomalyDetector>>,
    /// Embodiment I/O: sensorimotor bus and reflex loop
    sensorimotor_bus: Arc<std::sync::Mutex<SensorimotorBus>>,
    reflex_loop: Arc<std::sync::Mutex<ReflexLoop>>,
    /// RSI Phase 1: Auto-logs friction on tool dispatch errors
    friction_auto_log: Arc<FrictionAutoLogTool>,
    /// Karma ledger for WS-3 bidirectional bridge
    karma_ledger: Option<Arc<KarmaLedger>>,
    /// Epoch-ms timestamp of the last hardware sample taken on the request
    /// path — throttles /proc + /sys sampling (see `HARDWARE_SAMPLE_INTERVAL_MS`).
    last_hardware_sample_ms: std::sync::atomic::AtomicU64,
    /// Daily write-budget ledger (Phase 3 irony tax) — `Some` only on
    /// writable servers; `/status` and `wm doctor` render it.
    write_budget: Option<Arc<std::sync::Mutex<wm_substrate::write_budget::WriteBudgetLedger>>>,
    /// Epoch-ms of the last write-budget sample (5-min throttle).
    last_write_budget_sample_ms: std::sync::atomic::AtomicU64,
    /// Per-session request budget — hard cap on requests served per connection.
    request_budget: crate::input_validation::RequestBudget,
    /// Time-windowed rate limiter — throttles request bursts at the boundary.
    rate_window: crate::input_validation::RateWindow,
    /// Transaction state for multi-tool snapshot/rollback — the transaction
    /// tools receive their own clone via `register_all`; the server-side
    /// copy is retained for future status use and is not read today.
    #[allow(dead_code)]
    transaction_state: wm_tools::expansion::TransactionState,
    /// TriModelManager — tri-model lifecycle (autonomic/left/right)
    #[allow(dead_code)]
    tri_model: Option<Arc<wm_bicameral::TriModelManager>>,
    /// Imagination engine for dream cycle counterfactual replay and Research cycle
    scenario_engine: Option<wm_bicameral::ScenarioEngine>,
    /// GanaRegistry for taxonomy drift tracking (Phase 6)
    gana_registry: Arc<std::sync::Mutex<wm_core::GanaRegistry>>,
    /// Dynamic galaxy registry for memory clustering (Phase 6)
    dynamic_galaxies: Arc<std::sync::Mutex<wm_core::DynamicGalaxyRegistry>>,
    /// Shadow mode stats for NLU router observability (OATS)
    shadow_stats: Arc<std::sync::RwLock<wm_tools::embedding_router::ShadowModeStats>>,
    /// NLU embedding router (OATS outcome stats) — persisted to
    /// `<store>/mutable_oats.json` on shutdown and restored on startup.
    embedding_router: Option<Arc<wm_tools::embedding_router::EmbeddingRouter>>,
    /// Conformal store (shared with conformal tools) — auto-persisted to
    /// `<store>/conformal_store.json` on shutdown and restored on startup.
    conformal_store: Option<Arc<std::sync::Mutex<wm_tools::expansion::conformal::ConformalStore>>>,
    /// Brier calibration store (shared with simulation.calibrate) — persisted
    /// to `<store>/calibration_store.json` on shutdown.
    calibration_store: Option<Arc<std::sync::Mutex<wm_simulation::CalibrationStore>>>,
    /// Prescience claims ledger (shared with claims.*) — write-through to
    /// `<store>/claims_ledger.json` on every add/resolve, and again on
    /// shutdown.
    claims_ledger: Option<Arc<std::sync::Mutex<wm_simulation::ClaimsLedger>>>,
    /// Dharma escalation review queue (shared with dharma.escalate and
    /// friends) — persisted to `<store>/escalation_queue.json`.
    escalation_queue: Option<Arc<std::sync::Mutex<wm_governance::EscalationQueue>>>,
    /// Transaction firewall (shared with tx_firewall.*) — persisted to
    /// `<store>/tx_firewall_policy.json`.
    tx_firewall: Option<Arc<wm_tools::expansion::firewall::TxFirewall>>,
    /// Read-only server mode (`--readonly`) — the dispatch pipeline refuses
    /// every tool that declares writes, and telemetry/mutable-state writes
    /// are suppressed.
    readonly: bool,
    /// Stronger than ordinary readonly: preserve the complete containing
    /// tree for an evaluator snapshot, including diagnostics sidecars.
    preservation_readonly: bool,
    /// Friction auto-log gate (`WM_FRICTION_AUTOLOG=1` opt-in, default
    /// off) — when off, dispatch telemetry is still computed and FAILURE
    /// friction is still recorded (doctrine, not noise), but no
    /// success-anomaly memories are written to the store. The read-only
    /// sidecar trace is unaffected (it never touches the store).
    friction_autolog: bool,
    /// Active tool surface profile name — reported in `tools/list` so
    /// discovery reflects the profile instead of the full archive.
    profile_name: &'static str,
    full_capability_routes: Vec<Value>,

    /// Profile contract from this server's start (surface-drift check:
    /// the registered surface must be exactly the declared one). `None`
    /// for servers built outside `with_defaults_mode_profile`.
    profile_contract: Option<wm_tools::profiles::ProfileContract>,
    /// Landlock v0 report from the serve startup (`WM_LANDLOCK=1` opt-in,
    /// whole-process ruleset). `None` for servers built outside the serve
    /// path or when the report was not attached.
    landlock: Option<crate::landlock_sandbox::LandlockReport>,
    /// Store directory backing this server — disclosed in `initialize` and
    /// `tools/list` so agents can tell which memory scope they are using.
    store_path: Option<String>,
    /// Project scope (from `WM_PROJECT`, per-project memory isolation) —
    /// disclosed in `initialize` and `tools/list`.
    project: Option<String>,
    /// Retry-loop guard: hash of the last failing (tool, error) pair and the
    /// consecutive-repeat count. Agents stuck in degenerate loops get
    /// escalating pushback instead of silent repetition.
    loop_sig: u64,
    loop_count: u32,
    /// Shared Tantivy engine — retained for periodic index-drift healing in
    /// the daemon (session/dream/research writers bypass per-write indexing).
    search_engine: Option<Arc<SearchEngine>>,
}

/// JSON-RPC request envelope.
#[derive(Debug, Deserialize)]
struct RpcRequest {
    #[allow(dead_code)]
    jsonrpc: String,
    #[serde(default)]
    id: Option<Value>,
    method: String,
    #[serde(default)]
    params: Value,
}

/// JSON-RPC response envelope.
#[derive(Debug, Serialize)]
struct RpcResponse {
    jsonrpc: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<RpcError>,
}

/// JSON-RPC error object.
#[derive(Debug, Serialize)]
struct RpcError {
    code: i32,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<Value>,
}
/// Appended to read-only write refusals so agents know the fix instead of
/// retrying writes against a server that will always refuse them.
const READONLY_HINT: &str = " (hint: this MCP server was started with --readonly — point this project's config at a writable server to record memories/sessions)";

/// Consecutive identical failures before the escalation kicks in.
const LOOP_ESCALATION_THRESHOLD: u32 = 3;

impl McpServer {
    /// Record a failing dispatch and, when the same (tool, error) pair
    /// repeats consecutively, escalate the message to break agent loops.
    ///
    /// Degenerate retry loops (`echo .` forever; identical failing dispatch
    /// every turn) are a common LLM failure mode. The boundary is where they
    /// become visible — after [`LOOP_ESCALATION_THRESHOLD`] identical
    /// failures the error itself tells the agent that retrying unchanged is
    /// futile and what to do instead. Success or a different failure resets
    /// the counter.
    fn note_failure_and_escalate(&mut self, tool: &str, error: &str) -> String {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (tool, error).hash(&mut hasher);
        let sig = hasher.finish();

        if sig == self.loop_sig {
            self.loop_count = self.loop_count.saturating_add(1);
        } else {
            self.loop_sig = sig;
            self.loop_count = 1;
        }

        if self.loop_count >= LOOP_ESCALATION_THRESHOLD {
            // The fingerprint is (tool, error text), NOT the arguments — say
            // so. Different arguments that fail the same way (whitespace/NUL/
            // control-heavy payloads rejected by the same gate) still trip
            // this counter, and telling the caller "this exact call" was a
            // lie (9.1.9 tester finding).
            format!(
                "{error} ⚠ RETRY LOOP: tool '{tool}' returned this same error {} times in a \
                 row (fingerprint: route + error text — arguments are not part of it). \
                 Repeating the call — even with different arguments that fail the same way — \
                 will not change the outcome. Stop; diagnose instead (bash: \
                 `wm doctor --store <store-path>`, check whether the MCP server process is \
                 still alive), fix the cause, or take a different approach.",
                self.loop_count
            )
        } else {
            error.to_string()
        }
    }
}

/// Build a JSON-RPC error response.
fn error_response(
    id: Option<&Value>,
    code: i32,
    message: impl Into<String>,
    data: Option<Value>,
) -> RpcResponse {
    RpcResponse {
        jsonrpc: "2.0".into(),
        id: id.cloned(),
        result: None,
        error: Some(RpcError {
            code,
            message: message.into(),
            data,
        }),
    }
}

/// Outcome of a bounded line read.
enum BoundedLine {
    /// A complete line within the size cap.
    Ok(String),
    /// A line exceeding the cap — the rest was drained to end-of-line.
    TooLarge,
    /// End of stream.
    Eof,
}

/// Read a single line from a buffered reader, capping allocation at `max` bytes.
///
/// Hardening: prevents a malicious MCP client from sending an unbounded
/// request line that would grow the line buffer without limit.
fn read_bounded_line<R: std::io::BufRead>(
    reader: &mut R,
    max: usize,
) -> std::io::Result<BoundedLine> {
    let mut buf = Vec::with_capacity(256);
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            if buf.is_empty() {
                return Ok(BoundedLine::Eof);
            }
            break;
        }
        let Some(pos) = chunk.iter().position(|&b| b == b'\n') else {
            buf.extend_from_slice(chunk);
            let n = chunk.len();
            reader.consume(n);
            if buf.len() > max {
                drain_to_eol(reader)?;
                return Ok(BoundedLine::TooLarge);
            }
            continue;
        };
        buf.extend_from_slice(&chunk[..pos]);
        reader.consume(pos + 1);
        if buf.len() > max {
            return Ok(BoundedLine::TooLarge);
        }
        break;
    }
    if buf.ends_with(b"\r") {
        buf.pop();
    }
    Ok(BoundedLine::Ok(String::from_utf8_lossy(&buf).into_owned()))
}

/// Drain a buffered reader up to and including the next newline (or EOF).
fn drain_to_eol<R: std::io::BufRead>(reader: &mut R) -> std::io::Result<()> {
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        let Some(pos) = chunk.iter().position(|&b| b == b'\n') else {
            let n = chunk.len();
            reader.consume(n);
            continue;
        };
        reader.consume(pos + 1);
        return Ok(());
    }
}

async fn read_bounded_line_async<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> std::io::Result<BoundedLine> {
    use tokio::io::AsyncBufReadExt;
    let mut buf = Vec::with_capacity(256);
    loop {
        let chunk = reader.fill_buf().await?;
        if chunk.is_empty() {
            if buf.is_empty() {
                return Ok(BoundedLine::Eof);
            }
            break;
        }
        let Some(pos) = chunk.iter().position(|&b| b == b'\n') else {
            buf.extend_from_slice(chunk);
            let n = chunk.len();
            reader.consume(n);
            if buf.len() > max {
                drain_to_eol_async(reader).await?;
                return Ok(BoundedLine::TooLarge);
            }
            continue;
        };
        buf.extend_from_slice(&chunk[..pos]);
        reader.consume(pos + 1);
        if buf.len() > max {
            return Ok(BoundedLine::TooLarge);
        }
        break;
    }
    if buf.ends_with(b"\r") {
        buf.pop();
    }
    Ok(BoundedLine::Ok(String::from_utf8_lossy(&buf).into_owned()))
}

async fn drain_to_eol_async<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
) -> std::io::Result<()> {
    use tokio::io::AsyncBufReadExt;
    loop {
        let chunk = reader.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(());
        }
        let Some(pos) = chunk.iter().position(|&b| b == b'\n') else {
            let n = chunk.len();
            reader.consume(n);
            continue;
        };
        reader.consume(pos + 1);
        return Ok(());
    }
}

/// Locate the first occurrence of `needle` in `haystack`.
fn find_subslice(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Parse the request line and headers of a minimal HTTP/1.1 request head.
///
/// Returns `(method, path, content_length)`. Unknown or absent
/// Content-Length yields 0 (bodies are then treated as absent).
fn parse_http_head(head: &str) -> (String, String, usize) {
    let mut method = String::new();
    let mut path = String::new();
    let mut content_length = 0usize;
    for (i, line) in head.lines().enumerate() {
        if i == 0 {
            let mut parts = line.split_whitespace();
            method = parts.next().unwrap_or_default().to_uppercase();
            path = parts.next().unwrap_or_default().to_string();
        } else if let Some((key, value)) = line.split_once(':') {
            if key.trim().eq_ignore_ascii_case("content-length") {
                content_length = value.trim().parse().unwrap_or(0);
            }
        }
    }
    (method, path, content_length)
}

/// Write a minimal HTTP/1.1 response with `Connection: close`.
async fn write_http_response<S>(
    stream: &mut S,
    status: u16,
    content_type: &str,
    body: &[u8],
) -> std::io::Result<()>
where
    S: tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::AsyncWriteExt;
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        _ => "Error",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body).await?;
    stream.flush().await
}

/// Write SSE response headers and flush (connection stays open for events).
async fn write_sse_headers<S>(stream: &mut S) -> std::io::Result<()>
where
    S: tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::AsyncWriteExt;
    stream
        .write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n",
        )
        .await?;
    stream.flush().await
}

impl McpServer {
    /// Create a new MCP server with the given tool registry, dispatch pipeline,
    /// and eco mode controller.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        registry: ToolRegistry,
        pipeline: Arc<DispatchPipeline>,
        eco_mode: EcoModeController,
        store: Arc<MemoryStore>,
        associations: Arc<AssociationStore>,
        substrate: Arc<SubstrateMonitor>,
        dharma_gate: Arc<DharmaGate>,
        resource_rules: Arc<ResourceRules>,
        reflex_table: Arc<std::sync::Mutex<ReflexDispatchTable>>,
        timescale_bus: Arc<std::sync::Mutex<TimescaleBus>>,
        workspace: Arc<std::sync::Mutex<GlobalWorkspace>>,
        self_model: Arc<std::sync::Mutex<SelfModel>>,
        bicameral: Arc<std::sync::Mutex<BicameralEngine>>,
        drive_core: Arc<std::sync::Mutex<DriveCore>>,
        autonomic: Option<Arc<std::sync::Mutex<wm_cognitive::AutonomicLayer>>>,
        gan_ying_bus: Arc<std::sync::Mutex<GanYingBus>>,
        peer_discovery: Arc<std::sync::Mutex<PeerDiscovery>>,
        signal_broadcast: Arc<std::sync::Mutex<SignalBroadcast>>,
        sangha_chat: Arc<std::sync::Mutex<SanghaChat>>,
        lock_manager: Arc<std::sync::Mutex<ResourceLockManager>>,
        homeostatic_loop: Arc<std::sync::Mutex<HomeostaticLoop>>,
        anomaly_detector: Arc<std::sync::Mutex<AnomalyDetector>>,
        sensorimotor_bus: Arc<std::sync::Mutex<SensorimotorBus>>,
        reflex_loop: Arc<std::sync::Mutex<ReflexLoop>>,
        friction_auto_log: Arc<FrictionAutoLogTool>,
        karma_ledger: Option<Arc<KarmaLedger>>,
        transaction_state: wm_tools::expansion::TransactionState,
        tri_model: Option<Arc<wm_bicameral::TriModelManager>>,
        shadow_stats: Arc<std::sync::RwLock<wm_tools::embedding_router::ShadowModeStats>>,
    ) -> Self {
        Self {
            registry,
            pipeline,
            eco_mode,
            citta: CittaHeartbeat::new(),
            dream: DreamCycle::new()
                .with_smarana(wm_cognitive::AutonomousSmarana::default())
                .with_phagic(wm_cognitive::PhagicCognitiveCoordinator::default()),
            store,
            embedder_status: serde_json::Value::Null,
            associations,
            substrate,
            dharma_gate,
            resource_rules,
            reflex_table,
            timescale_bus,
            workspace,
            self_model,
            bicameral,
            drive_core,
            autonomic,
            gan_ying_bus,
            peer_discovery,
            signal_broadcast,
            sangha_chat,
            lock_manager,
            mesh_slot: wm_sangha::MeshSlot::new(),
            homeostatic_loop,
            anomaly_detector,
            sensorimotor_bus,
            reflex_loop,
            friction_auto_log,
            karma_ledger,
            last_hardware_sample_ms: std::sync::atomic::AtomicU64::new(0),
            write_budget: None,
            last_write_budget_sample_ms: std::sync::atomic::AtomicU64::new(0),
            request_budget: crate::input_validation::RequestBudget::default(),
            rate_window: crate::input_validation::RateWindow::default(),
            transaction_state,
            tri_model,
            scenario_engine: None,
            gana_registry: Arc::new(std::sync::Mutex::new(wm_core::GanaRegistry::new())),
            dynamic_galaxies: Arc::new(
                std::sync::Mutex::new(wm_core::DynamicGalaxyRegistry::new()),
            ),
            shadow_stats,
            embedding_router: None,
            conformal_store: None,
            calibration_store: None,
            claims_ledger: None,
            escalation_queue: None,
            tx_firewall: None,
            readonly: false,
            preservation_readonly: false,
            friction_autolog: std::env::var("WM_FRICTION_AUTOLOG")
                .is_ok_and(|v| v == "1" || v == "true"),
            profile_name: "full",
            full_capability_routes: Vec::new(),
            profile_contract: None,
            landlock: None,
            store_path: None,
            project: None,
            loop_sig: 0,
            loop_count: 0,
            search_engine: None,
        }
    }

    /// Mark the server read-only — the dispatch pipeline refuses declared
    /// writes and telemetry/mutable-state persistence is suppressed.
    #[must_use]
    pub const fn with_readonly(mut self, readonly: bool) -> Self {
        self.readonly = readonly;
        self
    }

    /// Enable the evaluator preservation boundary. This is intentionally
    /// distinct from ordinary readonly deployments, which retain sidecar
    /// failure telemetry for local operational forensics.
    #[must_use]
    pub const fn with_preservation_readonly(mut self, enabled: bool) -> Self {
        self.preservation_readonly = enabled;
        self
    }

    /// Set the active tool surface profile name for `tools/list` text.
    #[must_use]
    pub const fn with_profile_name(mut self, name: &'static str) -> Self {
        self.profile_name = name;
        self
    }

    /// Set the project scope disclosed in `initialize` and `tools/list`.
    ///
    /// Per-project isolation wires one store per project; the scope label
    /// lets agents confirm which memory slice they are talking to before
    /// their first write instead of after a cross-project mixup.
    #[must_use]
    pub fn with_project(mut self, project: Option<String>) -> Self {
        self.project = project.filter(|s| !s.is_empty());
        self
    }

    /// Create a new MCP server with the given registry and pipeline, using
    /// a default eco mode controller.
    #[allow(clippy::too_many_arguments)]
    pub fn with_default_eco(
        registry: ToolRegistry,
        pipeline: Arc<DispatchPipeline>,
        store: Arc<MemoryStore>,
        associations: Arc<AssociationStore>,
        substrate: Arc<SubstrateMonitor>,
        dharma_gate: Arc<DharmaGate>,
        resource_rules: Arc<ResourceRules>,
        reflex_table: Arc<std::sync::Mutex<ReflexDispatchTable>>,
        timescale_bus: Arc<std::sync::Mutex<TimescaleBus>>,
        workspace: Arc<std::sync::Mutex<GlobalWorkspace>>,
        self_model: Arc<std::sync::Mutex<SelfModel>>,
        bicameral: Arc<std::sync::Mutex<BicameralEngine>>,
        drive_core: Arc<std::sync::Mutex<DriveCore>>,
        shadow_stats: Arc<std::sync::RwLock<wm_tools::embedding_router::ShadowModeStats>>,
    ) -> Self {
        let friction_auto_log = Arc::new(FrictionAutoLogTool::new(store.clone(), None));
        Self::new(
            registry,
            pipeline,
            EcoModeController::default(),
            store,
            associations,
            substrate,
            dharma_gate,
            resource_rules,
            reflex_table,
            timescale_bus,
            workspace,
            self_model,
            bicameral,
            drive_core,
            None,
            Arc::new(std::sync::Mutex::new(GanYingBus::default())),
            Arc::new(std::sync::Mutex::new(PeerDiscovery::default())),
            Arc::new(std::sync::Mutex::new(SignalBroadcast::new(100))),
            Arc::new(std::sync::Mutex::new(SanghaChat::new(100))),
            Arc::new(std::sync::Mutex::new(ResourceLockManager::default())),
            Arc::new(std::sync::Mutex::new(HomeostaticLoop::default())),
            Arc::new(std::sync::Mutex::new(AnomalyDetector::default())),
            Arc::new(std::sync::Mutex::new(SensorimotorBus::default())),
            Arc::new(std::sync::Mutex::new(ReflexLoop::new())),
            friction_auto_log,
            None,
            Arc::new(std::sync::Mutex::new(None)),
            None,
            shadow_stats,
        )
    }

    /// Create a new MCP server with default tools and full governance pipeline.
    pub fn with_defaults(store_path: &std::path::Path) -> anyhow::Result<Self> {
        Self::with_defaults_mode(store_path, false)
    }

    /// Resolve the tool surface profile from the environment.
    ///
    /// Precedence: `WM_TOOL_ALLOWLIST` (comma-separated prefixes) wins; then
    /// `WM_TOOL_PACK` (`continuity` | `research` | `coding` | `ops`); then
    /// `WM_TOOL_PROFILE` (`full` | `curated` | `minimal`, default `full`
    /// here; `wm serve` writes `curated` into the env when the flag is
    /// omitted). Invalid pack/profile names log a warning and fall back.
    fn tool_profile_from_env() -> &'static wm_tools::profiles::ToolProfile {
        wm_tools::profiles::resolve_tool_surface(
            None,
            std::env::var("WM_TOOL_PROFILE").ok().as_deref(),
            std::env::var("WM_TOOL_ALLOWLIST").ok().as_deref(),
            std::env::var("WM_TOOL_PACK").ok().as_deref(),
        )
    }

    /// Like `with_defaults`, but with a read-only tantivy index when
    /// `readonly` is set — no exclusive index lock, so multiple processes can
    /// share the store for searches. Writes fail with a clear error.
    pub fn with_defaults_mode(
        store_path: &std::path::Path,
        readonly: bool,
    ) -> anyhow::Result<Self> {
        let profile = Self::tool_profile_from_env();
        Self::with_defaults_mode_profile(store_path, readonly, profile)
    }

    /// Construct a server with the optional stronger evaluator preservation
    /// boundary. It is valid only for readonly construction.
    pub fn with_defaults_mode_preservation(
        store_path: &std::path::Path,
        readonly: bool,
        preservation_readonly: bool,
    ) -> anyhow::Result<Self> {
        let profile = Self::tool_profile_from_env();
        Self::with_defaults_mode_profile_preservation(
            store_path,
            readonly,
            profile,
            preservation_readonly,
        )
    }

    /// `with_defaults_mode` plus an explicit tool surface profile.
    ///
    /// The full registry is built first (governance internals need their
    /// tools regardless), then filtered to the profile before the `wm`
    /// meta-tool is layered on — so the profile curates both direct dispatch
    /// and NLU routing.
    pub fn with_defaults_mode_profile(
        store_path: &std::path::Path,
        readonly: bool,
        profile: &wm_tools::profiles::ToolProfile,
    ) -> anyhow::Result<Self> {
        Self::with_defaults_mode_profile_preservation(store_path, readonly, profile, false)
    }

    /// `with_defaults_mode_profile` with an explicit evaluator preservation
    /// boundary. The boundary suppresses persisted diagnostics but leaves the
    /// in-memory event bus available to the server.
    pub fn with_defaults_mode_profile_preservation(
        store_path: &std::path::Path,
        readonly: bool,
        profile: &wm_tools::profiles::ToolProfile,
        preservation_readonly: bool,
    ) -> anyhow::Result<Self> {
        if preservation_readonly && !readonly {
            anyhow::bail!("preservation readonly mode requires readonly startup");
        }
        let store = std::sync::Arc::new(if readonly {
            // Inspection open (9.1.6): MDB_NOLOCK|MDB_RDONLY — never touches
            // the lock file, so it cannot block on a live writer or a
            // crashed server's wedged lock. Diagnostic servers must never
            // hang.
            MemoryStore::open_inspection(store_path)?
        } else {
            MemoryStore::open_default(store_path)?
        });

        // Open Tantivy search index alongside LMDB. If the on-disk index was
        // written with an incompatible schema by an older version, a writable
        // open moves it aside and creates a fresh index — rebuild it from the
        // canonical LMDB store so the upgrade is seamless.
        let search_path = store_path.join("tantivy");
        let search = std::sync::Arc::new(if readonly {
            if !search_path.is_dir() {
                anyhow::bail!(
                    "Read-only Tantivy index directory does not exist: {}",
                    search_path.display()
                );
            }
            SearchEngine::open_readonly(&search_path)?
        } else {
            std::fs::create_dir_all(&search_path)?;
            let engine = SearchEngine::open(&search_path)?;
            if engine.schema_migrated() {
                tracing::warn!(
                    "Tantivy index schema was incompatible with this version — rebuilding \
                     the search index from the canonical LMDB store"
                );
                let report = wm_memory::reindex::rebuild_index(&store, &engine, &[])?;
                tracing::warn!(
                    "Search index rebuilt: {} indexed, {} skipped, {} scanned",
                    report.indexed,
                    report.skipped,
                    report.scanned
                );
            }
            // Drain the durable pending-index ledger first: writes that lost
            // the Tantivy writer lock recorded themselves, and this writable
            // context is where they get reconciled (2026-09-21 reviewer
            // finding). Targeted work ahead of the broad drift heal below.
            match wm_memory::reindex::drain_index_pending(&store, &engine) {
                Ok(report) if report.pending > 0 => tracing::warn!(
                    pending = report.pending,
                    drained = report.drained,
                    missing = report.missing,
                    failed = report.failed,
                    "pending-index ledger reconciled at startup"
                ),
                Ok(_) => {}
                Err(e) => tracing::warn!(
                    error = %e,
                    "pending-index drain failed — entries stay for the next writable start"
                ),
            }
            // Self-heal drift that accumulated under previous runs: session
            // tools, dream consolidation, and research cycles write LMDB
            // without a search engine, and best-effort index failures are
            // swallowed at the tool layer. Sub-second at ~10k memories.
            match wm_memory::reindex::heal_index_drift(&store, &engine) {
                Ok(Some(report)) => tracing::warn!(
                    galaxies = report.galaxies.len(),
                    indexed = report.indexed,
                    scanned = report.scanned,
                    "Tantivy index drift detected at startup — rebuilt drifted \
                     galaxies from the canonical LMDB store"
                ),
                Ok(None) => {}
                Err(e) => tracing::warn!(
                    error = %e,
                    "Index-drift heal failed — run 'wm reindex --store <path>' manually"
                ),
            }
            engine
        });

        let karma_ledger = std::sync::Arc::new(KarmaLedger::new(store.clone())?);
        let write_audit =
            std::sync::Arc::new(wm_governance::WriteAuditJournal::new(store.clone())?);
        let dharma_gate = std::sync::Arc::new(DharmaGate::default());
        let substrate = std::sync::Arc::new(SubstrateMonitor::default());
        let resource_rules =
            std::sync::Arc::new(ResourceRules::new(resource_rules_config_from_env()));

        if !substrate.sensors_available() {
            tracing::warn!(
                "Hardware sensors unavailable on this platform — homeostasis running in degraded (neutral) mode"
            );
        }

        // Sample hardware state immediately and feed into the Dharma gate.
        // Test builds (and spawned e2e children with WM_HOMEOSTASIS_FROZEN=1)
        // skip the live sample so strict-mode outcomes never depend on the
        // machine's current load.
        if !Self::homeostasis_frozen() {
            let hv = substrate.sample();
            dharma_gate.update_homeostasis(hv.into());
        }

        let associations = Arc::new(if readonly {
            AssociationStore::open_readonly(store.env())?
        } else {
            AssociationStore::open(store.env())?
        });
        let spiral_tracker =
            Arc::new(std::sync::Mutex::new(wm_cognitive::SpiralTracker::default()));
        let vector_store = Arc::new(std::sync::Mutex::new(wm_memory::VectorStore::new()));

        // v4 subsystems: reflex dispatch table, timescale bus, global workspace
        // Production posture: SAFETY_DEFAULT denies actuation until the operator
        // opts in via WM_SAFETY_MASK (e-stop is unconditional).
        let mut reflex_table = wm_cognitive::ReflexDispatchTable::new(
            wm_cognitive::reflex::safety::production_safety_mask(),
        );
        wm_cognitive::reflex::builtins::register_builtins(&mut reflex_table);
        let reflex_table = Arc::new(std::sync::Mutex::new(reflex_table));

        let timescale_bus = Arc::new(std::sync::Mutex::new(wm_cognitive::TimescaleBus::default()));

        let workspace = Arc::new(std::sync::Mutex::new(wm_workspace::GlobalWorkspace::new()));

        // R4: self-model for predictive introspection
        let self_model = Arc::new(std::sync::Mutex::new(wm_selfmodel::SelfModel::new()));

        // Conformal prediction store — distribution-free uncertainty quantification
        let conformal_store = Arc::new(std::sync::Mutex::new(
            wm_tools::expansion::conformal::ConformalStore::new(),
        ));

        // R5: bicameral reasoning engine
        // Right hemisphere priority: BitNet (local) → LLM (cloud) → stub
        let right: Arc<dyn wm_bicameral::RightHemisphere> =
            if let Some(bitnet) = wm_bicameral::BitNetRightHemisphere::from_env() {
                tracing::info!("BitNet right hemisphere configured");
                Arc::new(bitnet)
            } else if let Some(llm) = LlmRightHemisphere::from_env() {
                tracing::info!("LLM right hemisphere configured");
                Arc::new(llm)
            } else {
                Arc::new(RightHemisphereStub::new())
            };
        let bicameral = Arc::new(std::sync::Mutex::new(
            BicameralEngine::new(BicameralConfig::default(), Some(right)).with_router_from_env(),
        ));

        // R7: drive & emotion core
        let drive_core = Arc::new(std::sync::Mutex::new(DriveCore::new()));

        // L1: autonomic layer (BitMamba) — optional, env-gated
        let autonomic = wm_cognitive::AutonomicLayer::from_env().map(|layer| {
            tracing::info!("autonomic layer configured (BitMamba)");
            Arc::new(std::sync::Mutex::new(layer))
        });

        // ── Deep Integration: Register timescale hooks ──
        // Citta vector decay runs on the Reactive tier (10ms interval)
        // Drive decay runs on the Planning tier (100ms interval)
        // These hooks fire when the timescale bus is ticked during dispatch
        {
            if let Ok(mut bus) = timescale_bus.lock() {
                // Citta decay hook — moves consciousness vector toward neutral
                bus.register(
                    wm_cognitive::Tier::Reactive,
                    "citta_decay",
                    Box::new(|| {
                        // The citta vector decays via the heartbeat post-dispatch,
                        // but we also tick it here for between-dispatch decay.
                        // This is a no-op placeholder — actual decay happens in
                        // the citta heartbeat. The hook exists so the timescale
                        // bus has a consciousness-related entry.
                        wm_cognitive::timescale::hooks::HookResult::Complete
                    }),
                );
                // Drive decay hook — moves drives toward baseline
                bus.register(
                    wm_cognitive::Tier::Planning,
                    "drive_decay",
                    Box::new(|| {
                        // Drive decay is handled in the drive event processing
                        // during dispatch. This hook is a placeholder for
                        // between-dispatch decay when the system is idle.
                        wm_cognitive::timescale::hooks::HookResult::Complete
                    }),
                );
            } else {
                tracing::warn!(
                    "timescale_bus mutex poisoned during startup — hooks not registered"
                );
            }
        }

        // N19-N20: Homeostatic Loop + Anomaly Detector — created early so they
        // can be shared between register_all (homeostasis tools) and the server state.
        let homeostatic_loop = Arc::new(std::sync::Mutex::new(HomeostaticLoop::default()));
        let anomaly_detector = Arc::new(std::sync::Mutex::new(AnomalyDetector::default()));

        // Embodiment I/O: SensorimotorBus + ReflexLoop — created early so they
        // can be shared between register_all (sensorimotor tools) and the server state.
        let sensorimotor_bus = Arc::new(std::sync::Mutex::new(
            wm_substrate::sensorimotor::linux_hardware_bus(),
        ));
        let reflex_loop = Arc::new(std::sync::Mutex::new(ReflexLoop::new()));

        // N16: Gan Ying Bus — created early so it can be shared with sensorimotor tools
        // via register_all.
        let mut gy_bus = GanYingBus::default();
        if !preservation_readonly {
            gy_bus.enable_persistence(store_path.join("resonance_events.jsonl"));
        }
        let gan_ying_bus = Arc::new(std::sync::Mutex::new(gy_bus));

        // Load adaptive aliases from episodic_aliases.json if it exists.
        let aliases_path = store_path.join("episodic_aliases.json");
        if aliases_path.exists() {
            match wm_memory::AdaptiveAliases::from_file(&aliases_path) {
                Ok(aliases) if !aliases.is_empty() => {
                    tracing::info!(
                        "loaded {} adaptive aliases from {:?}",
                        aliases.len(),
                        aliases_path
                    );
                    store.set_episodic_aliases(aliases);
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(
                        "failed to load adaptive aliases from {:?}: {e}",
                        aliases_path
                    );
                }
            }
        }

        // Enable vocabulary enrichment by default for episodic search.
        store.set_episodic_enrichment(wm_memory::enrichment::VocabularyEnrichment::with_defaults());

        let registry = ToolRegistry::new();
        let (recall_engine, embedder_status) = {
            let embedder: Arc<dyn Embedder> = create_embedder().into();
            // When WM_EPISODIC_RERANK_ONLY is set, use a stub embedder for
            // RecallEngine (fast ingest) but set the real embedder only for
            // episodic reranking. This avoids embedding ~500 turns per question
            // during ingest while still enabling vector reranking at search time.
            let episodic_rerank_only =
                std::env::var("WM_EPISODIC_RERANK_ONLY").is_ok_and(|v| v == "1" || v == "true");
            // Init-time embedder disclosure for /status (live counts are
            // added in status_payload). Captured before the embedder moves
            // into the RecallEngine.
            let embedder_status = serde_json::json!({
                "backend": embedder.backend_name(),
                "namespace": embedder.cache_namespace(),
                "dim": embedder.dimension(),
                "episodic_rerank_only": episodic_rerank_only,
            });

            if episodic_rerank_only && embedder.is_available() && embedder.backend_name() != "stub"
            {
                store.set_episodic_embedder(embedder.clone());
                // Use stub for RecallEngine to skip ingest-time embedding
                let stub: Arc<dyn Embedder> = Arc::new(StubEmbedder::default());
                let recall = RecallEngine::new(
                    store.clone(),
                    search.clone(),
                    VectorStore::new(),
                    stub,
                    RecallConfig::from_env(),
                )?;
                (Arc::new(recall), embedder_status)
            } else {
                // Normal mode: share the embedder between RecallEngine and episodic
                if embedder.is_available() && embedder.backend_name() != "stub" {
                    store.set_episodic_embedder(embedder.clone());
                }
                let recall = RecallEngine::new(
                    store.clone(),
                    search.clone(),
                    VectorStore::new(),
                    embedder,
                    RecallConfig::from_env(),
                )?;
                (Arc::new(recall), embedder_status)
            }
        };
        // If the embedder is a stub, hybrid search would produce garbage
        // vectors — so only wire it in when a real embedder is available.
        let recall_for_tools = if recall_engine.embedder_is_real() {
            Some(recall_engine.clone())
        } else {
            None
        };
        let conversational = Some(ConversationalSearch::with_defaults(recall_engine));
        let friction_search = search.clone();
        let transaction_state: wm_tools::expansion::TransactionState =
            Arc::new(std::sync::Mutex::new(None));
        let escalation_queue =
            Arc::new(std::sync::Mutex::new(wm_governance::EscalationQueue::new()));
        let firewall = Arc::new(wm_tools::expansion::firewall::TxFirewall::new());
        let code_graph = Arc::new(std::sync::Mutex::new(
            wm_tools::expansion::code::CodeGraph::new(),
        ));
        let registry_persistence = if preservation_readonly {
            wm_tools::expansion::RegistryPersistenceMode::EvaluatorPreservation
        } else {
            wm_tools::expansion::RegistryPersistenceMode::Normal
        };
        // One registry shared by the dispatch pipeline and the breaker tools.
        let circuit_breakers = Arc::new(wm_dispatch::CircuitBreakerRegistry::from_env());
        let registry = wm_tools::register_all(
            &registry,
            &store,
            Some(Arc::clone(&search)),
            Some(karma_ledger.clone()),
            &Some(dharma_gate.clone()),
            Some(substrate.clone()),
            &Some(resource_rules.clone()),
            associations.clone(),
            spiral_tracker,
            vector_store,
            conversational,
            recall_for_tools,
            Some(Arc::clone(&homeostatic_loop)),
            Some(Arc::clone(&anomaly_detector)),
            Some(Arc::clone(&sensorimotor_bus)),
            Some(Arc::clone(&reflex_loop)),
            Some(&gan_ying_bus),
            Some(&reflex_table),
            transaction_state.clone(),
            Some(&escalation_queue),
            Some(&firewall),
            Some(&code_graph),
            registry_persistence,
            circuit_breakers.clone(),
        );
        let registry = wm_tools::expansion::v4::register_v4(
            &registry,
            Arc::clone(&reflex_table),
            Arc::clone(&timescale_bus),
            Arc::clone(&workspace),
        );
        let registry =
            wm_tools::expansion::selfmodel::register_selfmodel(&registry, Arc::clone(&self_model));
        let registry = wm_tools::expansion::conformal::register_conformal(
            &registry,
            Arc::clone(&conformal_store),
            Some(Arc::clone(&self_model)),
        );
        // Cyberbrain wiring — connect speculative decoder, meta-harness, dense encoder
        let cyberbrain = crate::cyberbrain::wire_cyberbrain(&Some(Arc::clone(&search)));
        let registry = wm_tools::expansion::bicameral::register_bicameral(
            &registry,
            &store,
            Arc::clone(&bicameral),
            cyberbrain.speculative,
            cyberbrain.harness,
            cyberbrain.encoder,
        );
        let registry =
            wm_tools::expansion::drive::register_drive(&registry, Arc::clone(&drive_core));

        // N16-N21: New subsystems — Sangha Mesh, Simulation
        // (Gan Ying Bus already created above and shared with sensorimotor tools)
        let peer_discovery = Arc::new(std::sync::Mutex::new(PeerDiscovery::default()));
        let signal_broadcast = Arc::new(std::sync::Mutex::new(SignalBroadcast::new(100)));
        // Sangha chat signs every message with the node's Ed25519
        // keypair, so peers can verify authorship and identity binding —
        // the trust primitive agent message boards require (cf. the July
        // 2026 agent-incident reporting).
        let sangha_chat = Arc::new(std::sync::Mutex::new(
            SanghaChat::new(100).with_signing_key(mesh_signing_key_quiet()),
        ));
        let lock_manager = Arc::new(std::sync::Mutex::new(ResourceLockManager::default()));
        // Mesh transport slot (R0): one handle shared by the `sangha.mesh.*`
        // tools and the server; `wm serve --mesh` installs the node.
        let mesh_slot = wm_sangha::MeshSlot::new();

        let registry = wm_tools::expansion::resonance::register_resonance(
            &registry,
            Arc::clone(&gan_ying_bus),
        );
        let registry = wm_tools::expansion::sangha_tools::register_sangha(
            &registry,
            Arc::clone(&peer_discovery),
            Arc::clone(&signal_broadcast),
            Arc::clone(&sangha_chat),
            Arc::clone(&lock_manager),
        );
        // R0: mesh transport tools (fail actionably when the CLI never
        // installs a node — i.e. serve was started without --mesh).
        let registry = wm_tools::expansion::mesh_tools::register_sangha_mesh(
            &registry,
            Arc::clone(&mesh_slot),
        );
        let calibration_store =
            Arc::new(std::sync::Mutex::new(wm_simulation::CalibrationStore::new()));
        let registry = wm_tools::expansion::simulation_tools::register_simulation(
            &registry,
            Some(Arc::clone(&calibration_store)),
            Some(Arc::clone(&self_model)),
        );
        let claims_ledger = Arc::new(std::sync::Mutex::new(wm_simulation::ClaimsLedger::new()));
        // Write-through persistence: every successful add/resolve rewrites
        // <store-root>/claims_ledger.json, so the durable record no longer
        // depends on a graceful shutdown (2026-09-17 ledger-loss incident).
        let registry = wm_tools::expansion::claims_tools::register_claims(
            &registry,
            Some(Arc::clone(&claims_ledger)),
            Some(
                store_path
                    .parent()
                    .unwrap_or(store_path)
                    .join("claims_ledger.json"),
            ),
        );
        let registry = wm_tools::expansion::bayesian_tools::register_bayesian(&registry);

        let gana_registry = Arc::new(std::sync::Mutex::new(wm_core::GanaRegistry::new()));
        let dynamic_galaxies =
            Arc::new(std::sync::Mutex::new(wm_core::DynamicGalaxyRegistry::new()));

        let shadow_stats = Arc::new(std::sync::RwLock::new(
            wm_tools::embedding_router::ShadowModeStats::default(),
        ));

        // Build the pipeline BEFORE the meta-tools so the `wm` meta-tool can
        // dispatch inner tools through the full governance chain (destructive
        // confirmation, dharma gate, rate limit, circuit breaker, karma, stats).
        // Bound tool execution with WM_DISPATCH_TIMEOUT_MS (default 300s) so a
        // hung tool can't wedge the stdio loop or block graceful shutdown.
        //
        // P-SANDBOX-3 (Landlock v1): with WM_LANDLOCK_V1=1, tools marked
        // `Sandbox::StoreScoped` run on a fresh scoped thread whose
        // write-class FS rights are confined to the store root. The
        // callback is the same tested ruleset as v0, applied thread-locally
        // (the executor's fresh thread is the unit; v0's whole-process
        // path is untouched and independent). Confinement failures are
        // loud-degrade: the call runs unconfined, a WARN names the reason,
        // and the executor counts it — availability stays up, drift never
        // silent (same doctrine as the v0 report).
        let sandbox_exec = if wm_dispatch::sandbox_exec::v1_requested() {
            let root = store_path.to_path_buf();
            Some(std::sync::Arc::new(
                wm_dispatch::sandbox_exec::ScopedSandboxExecutor::new(move || {
                    let report = crate::landlock_sandbox::restrict_to_store_root_thread(&root);
                    if report.outcome.is_enforcing() {
                        Ok(())
                    } else {
                        Err(format!(
                            "landlock {}: {}",
                            report.outcome.as_str(),
                            report.detail
                        ))
                    }
                }),
            ))
        } else {
            None
        };
        // B2 subprocess spawn sandbox: resolve the OS runner once at startup
        // (WM_SANDBOX_RUNNER → PATH). Attached unconditionally so the
        // dispatch counters and the degraded path are always observable —
        // no runner means declared spawns run unconfined with a WARN and a
        // counter, never silently.
        let subprocess_sandbox = std::sync::Arc::new(wm_dispatch::SubprocessSandbox::detect());
        if let Some(runner) = subprocess_sandbox.runner() {
            tracing::info!(
                runner = %runner.path.display(),
                source = runner.source.as_str(),
                "subprocess sandbox runner resolved (B2)"
            );
        } else {
            tracing::info!(
                "subprocess sandbox: no runner resolved (WM_SANDBOX_RUNNER unset, \
                 mandala-sandbox not on PATH) — Sandbox::Subprocess tools will loud-degrade"
            );
        }
        let pass_mode = wm_dispatch::PassMode::from_env();
        let pass_gate_active = !matches!(pass_mode, wm_dispatch::PassMode::Off);
        let pipeline = Arc::new(
            DispatchPipeline::new(
                std::sync::Arc::new(wm_dispatch::RateLimiter::from_config(
                    &wm_dispatch::RateLimiterConfig::from_env(),
                )),
                circuit_breakers,
                dharma_gate.clone(),
                // Read-only mode must not record karma entries (LMDB writes).
                if readonly {
                    None
                } else {
                    Some(karma_ledger.clone())
                },
            )
            .with_gana_registry(gana_registry.clone())
            .with_resource_rules(resource_rules.clone())
            // V8 S5 stage 2c: junk filter + dedup gate + class ceilings/
            // floors on the memory-create path. On read-only servers the
            // read-only gate (1c) blocks writes before stage 2c runs.
            .with_write_gate(Arc::new(wm_dispatch::write_gate::WriteGate::new(
                store.clone(),
            )))
            // Read-only mode must not append journal entries either.
            .with_write_audit_option(if readonly { None } else { Some(write_audit) })
            .with_sandbox_executor(sandbox_exec)
            .with_subprocess_sandbox(Some(subprocess_sandbox))
            .with_dispatch_timeout(wm_dispatch::DispatchPipeline::timeout_from_env())
            // Authority-seam receipt emission (S1) + governed dispatch (S2):
            // the hook attaches when auto-emit is on OR a pass gate is active;
            // the disabled default costs one Option check on the success path.
            .with_receipt_hook_option(
                if readonly
                    || !(wm_tools::expansion::receipts::auto_emit_enabled() || pass_gate_active)
                {
                    None
                } else {
                    Some(Arc::new(
                        wm_tools::expansion::receipts::AutoEmitReceiptHook::new(
                            store.clone(),
                            Some(karma_ledger.clone()),
                            wm_tools::expansion::receipts::auto_emit_enabled(),
                        ),
                    ))
                },
            )
            // Gate-lite pass gate (S2): offline verification of `mandala_pass`
            // on destructive routes; WM_MANDALA_PASS=off|optional|required.
            .with_pass_gate_option(
                if readonly || !pass_gate_active {
                    None
                } else {
                    Some(Arc::new(
                        wm_tools::expansion::receipts::MandalaPassGate::new(
                            std::env::var("WM_MANDALA_GATE_ISSUER")
                                .ok()
                                .map(|value| value.trim().to_string())
                                .filter(|value| !value.is_empty()),
                        ),
                    ))
                },
                pass_mode,
            ),
        );

        // Curate the tool surface to the active profile BEFORE the meta-tools
        // are layered on — the `wm` meta-tool then routes only within the
        // curated surface, and direct dispatch of filtered tools fails with
        // "Unknown tool". Full-surface internals (karma, friction, governance
        // tools) were already constructed above and keep working internally.
        // memory.ingest lives in wm-mcp (it owns the ingest pipeline). Register
        // it before profile application so prefix-based profiles (curated)
        // include it and the profile contract counts stay honest.
        let registry = registry.register(std::sync::Arc::new(
            crate::ingest_tool::MemoryIngestTool::new(store_path),
        ));
        let full_registry = registry.clone();
        let registry = wm_tools::profiles::apply_profile(registry, profile);
        // Profile contract (Phase 5 surface-drift watch item): the
        // registered surface must be exactly the declared one. Violations
        // are logged loud and reported through /status + `wm doctor` —
        // availability stays up, but drift is never silent again.
        let contract = wm_tools::profiles::profile_contract(&full_registry, &registry, profile);
        if !contract.ok {
            tracing::error!(
                profile = %contract.profile,
                expected = contract.expected_count,
                registered = contract.registered_count,
                dead_prefixes = ?contract.dead_prefixes,
                unexpected_tools = ?contract.unexpected_tools,
                "profile contract violation — advertised tool surface does not match the declared profile"
            );
        } else if profile.name != "full" {
            tracing::info!(
                profile = profile.name,
                tools = registry.len(),
                "Tool surface profile applied"
            );
        }
        if !readonly {
            let root = store_path.parent().unwrap_or(store_path).to_path_buf();
            wm_tools::profiles::save_contract(&root, &contract);
        }

        let (registry, embedding_router) = wm_tools::register_meta_tools_with_router(
            &registry,
            &store,
            shadow_stats.clone(),
            Some(pipeline.clone()),
        );

        let friction_auto_log = Arc::new(FrictionAutoLogTool::new(
            store.clone(),
            Some(friction_search),
        ));

        // Embodiment I/O: SensorimotorBus already created above and shared with tools

        let mut server = Self::new(
            registry,
            pipeline,
            EcoModeController::from_env(),
            store,
            associations,
            substrate,
            dharma_gate,
            resource_rules,
            reflex_table,
            timescale_bus,
            workspace,
            self_model.clone(),
            bicameral,
            drive_core,
            autonomic,
            gan_ying_bus,
            peer_discovery,
            signal_broadcast,
            sangha_chat,
            lock_manager,
            homeostatic_loop,
            anomaly_detector,
            sensorimotor_bus,
            reflex_loop,
            friction_auto_log,
            if readonly { None } else { Some(karma_ledger) },
            transaction_state,
            cyberbrain.tri_model,
            shadow_stats,
        )
        .with_readonly(readonly)
        .with_preservation_readonly(preservation_readonly)
        .with_profile_name(profile.name);

        // The tools and the server share this slot (created above).
        server.mesh_slot = mesh_slot;
        server.embedder_status = embedder_status;

        server.profile_contract = Some(contract);
        server.full_capability_routes = crate::manifest::registered_routes(&full_registry);

        // Disclose the memory scope up front (initialize + tools/list) so an
        // agent knows which store and project it is bound to before its first
        // write — not after a cross-project mixup or a refused write.
        server.store_path = Some(store_path.display().to_string());
        server.project = std::env::var("WM_PROJECT").ok().filter(|s| !s.is_empty());

        // Phase 3 irony tax: track daily store growth on writable servers.
        // Read-only servers never own a ledger (they write nothing and must
        // not create state files); `wm doctor` reads the ledger file itself.
        if !readonly {
            let root = store_path.parent().unwrap_or(store_path).to_path_buf();
            server.write_budget = Some(Arc::new(std::sync::Mutex::new(
                wm_substrate::write_budget::WriteBudgetLedger::load(&root),
            )));
        }

        // Override mutable structure registries with shared instances (Phase 6)
        server.gana_registry = gana_registry;
        server.dynamic_galaxies = dynamic_galaxies;

        // Attach the NLU embedding router so OATS outcome stats auto-persist
        // on shutdown and are restored on startup (mutable_oats.json)
        server.embedding_router = embedding_router;

        // Retain the shared Tantivy engine for daemon-side drift healing
        server.search_engine = Some(Arc::clone(&search));

        // Attach the shared conformal store so it auto-persists on shutdown
        server.conformal_store = Some(Arc::clone(&conformal_store));
        // Attach the Brier calibration store so it auto-persists on shutdown
        server.calibration_store = Some(Arc::clone(&calibration_store));
        // Attach the claims ledger so it auto-persists on shutdown
        server.claims_ledger = Some(Arc::clone(&claims_ledger));
        // Attach the escalation queue + firewall so they auto-persist
        server.escalation_queue = Some(Arc::clone(&escalation_queue));
        server.tx_firewall = Some(Arc::clone(&firewall));

        // Restore persisted conformal calibration state (if any)
        let conformal_path = store_path
            .parent()
            .unwrap_or(store_path)
            .join("conformal_store.json");
        if conformal_path.exists() {
            match std::fs::read_to_string(&conformal_path) {
                Ok(contents) => match serde_json::from_str::<Value>(&contents) {
                    Ok(json) => {
                        if let Ok(mut store) = conformal_store.lock() {
                            match store.from_json(&json) {
                                Ok(()) => tracing::info!(
                                    path = %conformal_path.display(),
                                    "Loaded persisted conformal calibration state"
                                ),
                                Err(e) => tracing::warn!(
                                    path = %conformal_path.display(),
                                    error = %e,
                                    "Failed to restore conformal state"
                                ),
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(path = %conformal_path.display(), error = %e, "Conformal state file unparseable");
                    }
                },
                Err(e) => {
                    tracing::warn!(path = %conformal_path.display(), error = %e, "Cannot read conformal state file");
                }
            }
        }

        // Restore persisted Brier calibration state (if any)
        let calibration_path = store_path
            .parent()
            .unwrap_or(store_path)
            .join("calibration_store.json");
        if calibration_path.exists() {
            match std::fs::read_to_string(&calibration_path) {
                Ok(contents) => match serde_json::from_str::<Value>(&contents) {
                    Ok(json) => {
                        if let Ok(mut store) = calibration_store.lock() {
                            match store.from_json(&json) {
                                Ok(()) => tracing::info!(
                                    path = %calibration_path.display(),
                                    "Loaded persisted Brier calibration state"
                                ),
                                Err(e) => tracing::warn!(
                                    path = %calibration_path.display(),
                                    error = %e,
                                    "Failed to restore calibration state"
                                ),
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(path = %calibration_path.display(), error = %e, "Calibration state file unparseable");
                    }
                },
                Err(e) => {
                    tracing::warn!(path = %calibration_path.display(), error = %e, "Cannot read calibration state file");
                }
            }
        }

        // Restore persisted prescience claims ledger (if any)
        let claims_path = store_path
            .parent()
            .unwrap_or(store_path)
            .join("claims_ledger.json");
        if claims_path.exists() {
            match std::fs::read_to_string(&claims_path) {
                Ok(contents) => match serde_json::from_str::<Value>(&contents) {
                    Ok(json) => {
                        if let Ok(mut ledger) = claims_ledger.lock() {
                            match ledger.from_json(&json) {
                                Ok(()) => tracing::info!(
                                    path = %claims_path.display(),
                                    "Loaded persisted claims ledger"
                                ),
                                Err(e) => tracing::warn!(
                                    path = %claims_path.display(),
                                    error = %e,
                                    "Failed to restore claims ledger"
                                ),
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(path = %claims_path.display(), error = %e, "Claims ledger file unparseable");
                    }
                },
                Err(e) => {
                    tracing::warn!(path = %claims_path.display(), error = %e, "Cannot read claims ledger file");
                }
            }
        }

        // Restore persisted self-model state (metric histories, alert rules,
        // calibrator) — `wm doctor` also reads this file for live drift health.
        let self_model_path = store_path
            .parent()
            .unwrap_or(store_path)
            .join("self_model.json");
        if self_model_path.exists() {
            match std::fs::read_to_string(&self_model_path) {
                Ok(contents) => match serde_json::from_str::<Value>(&contents) {
                    Ok(json) => {
                        if let Ok(model) = self_model.lock() {
                            match model.from_json(&json) {
                                Ok(()) => tracing::info!(
                                    path = %self_model_path.display(),
                                    "Loaded persisted self-model state"
                                ),
                                Err(e) => tracing::warn!(
                                    path = %self_model_path.display(),
                                    error = %e,
                                    "Failed to restore self-model state"
                                ),
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(path = %self_model_path.display(), error = %e, "Self-model state file unparseable");
                    }
                },
                Err(e) => {
                    tracing::warn!(path = %self_model_path.display(), error = %e, "Cannot read self-model state file");
                }
            }
        }

        // Restore persisted dharma escalation queue (if any)
        let escalation_path = store_path
            .parent()
            .unwrap_or(store_path)
            .join("escalation_queue.json");
        if escalation_path.exists() {
            match std::fs::read_to_string(&escalation_path) {
                Ok(contents) => match serde_json::from_str::<Value>(&contents) {
                    Ok(json) => {
                        if let Ok(mut queue) = escalation_queue.lock() {
                            match queue.from_json(&json) {
                                Ok(()) => tracing::info!(
                                    path = %escalation_path.display(),
                                    "Loaded persisted escalation queue"
                                ),
                                Err(e) => tracing::warn!(
                                    path = %escalation_path.display(),
                                    error = %e,
                                    "Failed to restore escalation queue"
                                ),
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(path = %escalation_path.display(), error = %e, "Escalation queue file unparseable");
                    }
                },
                Err(e) => {
                    tracing::warn!(path = %escalation_path.display(), error = %e, "Cannot read escalation queue file");
                }
            }
        }

        // Restore persisted tx firewall policy (if any)
        let firewall_path = store_path
            .parent()
            .unwrap_or(store_path)
            .join("tx_firewall_policy.json");
        if firewall_path.exists() {
            match std::fs::read_to_string(&firewall_path) {
                Ok(contents) => match serde_json::from_str::<Value>(&contents) {
                    Ok(json) => match firewall.from_json(&json) {
                        Ok(()) => tracing::info!(
                            path = %firewall_path.display(),
                            "Loaded persisted tx firewall policy"
                        ),
                        Err(e) => tracing::warn!(
                            path = %firewall_path.display(),
                            error = %e,
                            "Failed to restore tx firewall policy"
                        ),
                    },
                    Err(e) => {
                        tracing::warn!(path = %firewall_path.display(), error = %e, "Tx firewall policy file unparseable");
                    }
                },
                Err(e) => {
                    tracing::warn!(path = %firewall_path.display(), error = %e, "Cannot read tx firewall policy file");
                }
            }
        }

        // Attach LearnedDreamCycle, AutonomousSmarana, and PhagicCognitiveCoordinator for adaptive consolidation
        server.dream = DreamCycle::new()
            .with_learned(wm_core::LearnedDreamCycle::new())
            .with_smarana(wm_cognitive::AutonomousSmarana::default())
            .with_phagic(wm_cognitive::PhagicCognitiveCoordinator::default());

        // Initialize imagination engine for dream cycle + Research cycle
        server.init_imagination();

        // Load mutable structures from disk (Phase 6 persistence)
        server.load_mutable_state();

        // ── Local install funnel (scope 1) ──
        // Writable servers record activation evidence once per store:
        // `first_launch` + `init_ok` here, tool milestones on the dispatch
        // path. Read-only and preservation servers write nothing (scope 1:
        // records stay on-device; no transport, no consent surface).
        if !readonly && !preservation_readonly {
            let root = store_path.parent().unwrap_or(store_path);
            let emitted = wm_tools::expansion::funnel::record_launch(
                &server.store,
                server.search_engine.as_deref(),
                root,
            );
            if emitted > 0 {
                tracing::info!(milestones = emitted, "local funnel milestones recorded");
            }
        }

        Ok(server)
    }

    /// Run the server synchronously: read JSON-RPC from stdin, write responses to stdout.
    ///
    /// This is the blocking version. For the async event-loop version with
    /// brain-wave eco mode, use `run_async()`.
    #[allow(clippy::significant_drop_tightening)] // stdio locks are held for the whole session by design
    pub fn run(&mut self) -> anyhow::Result<()> {
        let rt = tokio::runtime::Runtime::new()?;
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let mut reader = stdin.lock();

        loop {
            let line = match read_bounded_line(&mut reader, MAX_REQUEST_SIZE)? {
                BoundedLine::Eof => break,
                BoundedLine::TooLarge => {
                    let resp = error_response(
                        None,
                        -32600,
                        format!("Request too large (max {MAX_REQUEST_SIZE} bytes)"),
                        None,
                    );
                    writeln!(out, "{}", serde_json::to_string(&resp)?)?;
                    out.flush()?;
                    continue;
                }
                BoundedLine::Ok(line) => line,
            };
            if line.trim().is_empty() {
                continue;
            }

            let request: RpcRequest = match serde_json::from_str(&line) {
                Ok(req) => req,
                Err(e) => {
                    let resp = RpcResponse {
                        jsonrpc: "2.0".into(),
                        id: None,
                        result: None,
                        error: Some(RpcError {
                            code: -32700,
                            message: format!("Parse error: {e}"),
                            data: None,
                        }),
                    };
                    writeln!(out, "{}", serde_json::to_string(&resp)?)?;
                    out.flush()?;
                    continue;
                }
            };

            let response = rt.block_on(self.handle(&request));
            // Only send response if there's an ID (not a notification)
            if request.id.is_some() {
                writeln!(out, "{}", serde_json::to_string(&response)?)?;
                out.flush()?;
            }
        }

        // Graceful shutdown
        self.shutdown();

        Ok(())
    }

    /// Run the server with a tokio async event loop and brain-wave eco mode.
    ///
    /// Uses `tokio::select!` to wait on either stdin input or a timer for
    /// the next brain-wave state transition. Between events, the process
    /// uses zero CPU — the OS wakes it via epoll or timerfd.
    pub async fn run_async(&mut self) -> anyhow::Result<()> {
        use tokio::io::{AsyncWriteExt, BufReader};
        let stdin = tokio::io::stdin();
        let mut reader = BufReader::new(stdin);
        let mut stdout = tokio::io::stdout();

        // Graceful shutdown on SIGINT (all platforms) and SIGTERM (Unix).
        // v2's Python server resisted SIGTERM due to GIL deadlock — v4 must not.
        #[cfg(unix)]
        let shutdown_signal = async {
            let mut sigterm =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
            tokio::select! {
                result = tokio::signal::ctrl_c() => result.map(|()| "SIGINT"),
                _ = sigterm.recv() => Ok("SIGTERM"),
            }
        };
        #[cfg(not(unix))]
        let shutdown_signal = async { tokio::signal::ctrl_c().await.map(|()| "SIGINT") };
        tokio::pin!(shutdown_signal);

        loop {
            // Recompute brain-wave state (may transition after idle)
            let _state = self.eco_mode.recompute();
            let sleep_dur = self.eco_mode.next_transition_duration();

            tokio::select! {
                // Signal received — graceful shutdown
                result = &mut shutdown_signal => {
                    match result {
                        Ok(sig) => tracing::info!(signal = sig, "Shutdown signal received — shutting down gracefully"),
                        Err(e) => tracing::warn!(error = %e, "Signal handler error — shutting down"),
                    }
                    break;
                }

                // stdin ready — MCP request arrived (bounded read)
                result = read_bounded_line_async(&mut reader, MAX_REQUEST_SIZE) => {
                    let line = match result? {
                        BoundedLine::Eof => break,
                        BoundedLine::TooLarge => {
                            let resp = error_response(
                                None,
                                -32600,
                                format!("Request too large (max {MAX_REQUEST_SIZE} bytes)"),
                                None,
                            );
                            stdout.write_all(serde_json::to_string(&resp)?.as_bytes()).await?;
                            stdout.write_all(b"\n").await?;
                            stdout.flush().await?;
                            continue;
                        }
                        BoundedLine::Ok(line) => line,
                    };
                    if line.trim().is_empty() {
                        continue;
                    }

                    let request: RpcRequest = match serde_json::from_str(&line) {
                        Ok(req) => req,
                        Err(e) => {
                            let resp = RpcResponse {
                                jsonrpc: "2.0".into(),
                                id: None,
                                result: None,
                                error: Some(RpcError {
                                    code: -32700,
                                    message: format!("Parse error: {e}"),
                                    data: None,
                                }),
                            };
                            stdout.write_all(serde_json::to_string(&resp)?.as_bytes()).await?;
                            stdout.write_all(b"\n").await?;
                            stdout.flush().await?;
                            continue;
                        }
                    };

                    let response = self.handle(&request).await;
                    // Respond to requests (id present) and to ping (no id but
                    // the spec requires an empty-result response).
                    // Notifications (notifications/*) get no response.
                    if request.id.is_some() || request.method == "ping" {
                        stdout.write_all(serde_json::to_string(&response)?.as_bytes()).await?;
                        stdout.write_all(b"\n").await?;
                        stdout.flush().await?;
                    }
                }

                // Timer fired — brain-wave state transition
                () = tokio::time::sleep(sleep_dur) => {
                    let new_state = self.eco_mode.recompute();
                    tracing::debug!(
                        brain_wave = %new_state,
                        idle_ms = self.eco_mode.idle_duration().as_millis(),
                        "Brain-wave transition"
                    );

                    // Sync timescale bus and tick all due hooks
                    if let Ok(mut bus) = self.timescale_bus.lock() {
                        bus.set_brain_wave(new_state);
                        let (executed, timeouts) = bus.tick_all();
                        if executed > 0 {
                            tracing::debug!(
                                hooks_executed = executed,
                                timeouts,
                                "Timescale tick on brain-wave transition"
                            );
                        }
                    }

                    // Drive decay on brain-wave transition
                    if let Ok(mut drive) = self.drive_core.lock() {
                        drive.decay();
                    }

                    // Check dream cycle on brain-wave transition
                    if self.dream.should_run(new_state) {
                        let ctx = if let Some(ref engine) = self.scenario_engine {
                            DreamContext::new(&self.store, &self.associations)
                                .with_imagination(engine)
                        } else {
                            DreamContext::new(&self.store, &self.associations)
                        };
                        let audit_baseline = self
                            .pipeline
                            .write_audit()
                            .map(|journal| (journal, journal.dispatch_baseline()));
                        let dream_result = self.dream.run(&ctx);
                        // Declare the dream window's store mutations to the
                        // write-audit journal (2026-09-27 field report:
                        // autonomous consolidation deletes were invisible —
                        // doctor could only show them as undeclared mutations).
                        if let Some((journal, baseline)) = audit_baseline {
                            let delta = self.store.mutation_count().saturating_sub(baseline);
                            let actor = wm_governance::ActorIdentity {
                                session: None,
                                user: None,
                                compartment: None,
                                operation_id: Some("dream-cycle".to_string()),
                                act: None,
                                on_behalf_of: None,
                                delegation_chain: Vec::new(),
                            };
                            let _ = journal.record(
                                "dream.cycle",
                                actor,
                                None,
                                None,
                                true,
                                delta.min(u64::from(u32::MAX)) as u32,
                                true,
                            );
                        }
                        tracing::info!(
                            phases = dream_result.phases.len(),
                            duration_ms = dream_result.total_duration.as_millis(),
                            "Dream cycle completed (async)"
                        );

                        // Publish dream completion to workspace
                        if let Ok(mut ws) = self.workspace.lock() {
                            ws.publish_simple(
                                wm_workspace::CoreId::Dream,
                                wm_workspace::EventType::NovelDetection,
                                0.5,
                                0.8,
                                json!({
                                    "phases": dream_result.phases.len(),
                                    "duration_ms": dream_result.total_duration.as_millis(),
                                }),
                            );
                        }
                    }
                }
            }
        }

        // Graceful shutdown — emit SystemShutdown event and log
        self.shutdown();

        Ok(())
    }

    /// Run the server over HTTP + SSE (MCP Streamable HTTP transport).
    ///
    /// Routes:
    /// - `GET /healthz` — liveness probe
    /// - `POST /mcp` — JSON-RPC request, response returned inline on the POST
    ///   connection (server-initiated push is out of scope for v1; the GET
    ///   stream is held open with heartbeat comments only)
    /// - `GET /mcp` — SSE stream (held open, heartbeat comments only)
    ///
    /// Connections are handled sequentially: `McpServer::handle` takes
    /// `&mut self`, and requests are short-lived relative to client wait
    /// tolerances. Concurrent-session latency stays bounded by per-tool
    /// dispatch timeouts (WM_DISPATCH_TIMEOUT_MS).
    pub async fn run_sse(&mut self, addr: std::net::SocketAddr) -> anyhow::Result<()> {
        validate_sse_bind(&addr)?;
        let listener = tokio::net::TcpListener::bind(addr).await?;
        tracing::info!(%addr, "HTTP/SSE MCP server listening");

        #[cfg(unix)]
        let shutdown_signal = async {
            let mut sigterm =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
            tokio::select! {
                result = tokio::signal::ctrl_c() => result.map(|()| "SIGINT"),
                _ = sigterm.recv() => Ok("SIGTERM"),
            }
        };
        #[cfg(not(unix))]
        let shutdown_signal = async { tokio::signal::ctrl_c().await.map(|()| "SIGINT") };
        tokio::pin!(shutdown_signal);

        loop {
            tokio::select! {
                result = &mut shutdown_signal => {
                    match result {
                        Ok(sig) => tracing::info!(signal = sig, "Shutdown signal received — shutting down gracefully"),
                        Err(e) => tracing::warn!(error = %e, "Signal handler error — shutting down"),
                    }
                    break;
                }
                accepted = listener.accept() => {
                    let (stream, peer) = match accepted {
                        Ok(pair) => pair,
                        Err(e) => {
                            tracing::warn!(error = %e, "Accept failed");
                            continue;
                        }
                    };
                    // Bound per-connection wall time so a stalled client
                    // cannot pin the (sequential) handler forever.
                    match tokio::time::timeout(
                        std::time::Duration::from_secs(60),
                        self.handle_http_conn(stream),
                    )
                    .await
                    {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => tracing::debug!(peer = %peer, error = %e, "HTTP connection ended with error"),
                        Err(_) => tracing::debug!(peer = %peer, "HTTP connection timed out"),
                    }
                }
            }
        }

        self.shutdown();
        Ok(())
    }

    /// Handle a single HTTP connection (head + optional body, then route).
    async fn handle_http_conn(&mut self, mut stream: tokio::net::TcpStream) -> anyhow::Result<()> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        const MAX_HEAD_BYTES: usize = 16 * 1024;
        let mut buf: Vec<u8> = Vec::with_capacity(1024);
        let mut chunk = [0u8; 1024];
        let head_end = loop {
            let n = stream.read(&mut chunk).await?;
            if n == 0 {
                return Ok(()); // client closed before completing the head
            }
            buf.extend_from_slice(&chunk[..n]);
            if let Some(pos) = find_subslice(&buf, b"\r\n\r\n") {
                break pos + 4;
            }
            if buf.len() > MAX_HEAD_BYTES {
                return Ok(()); // oversized head — drop the connection
            }
        };

        let head_text = String::from_utf8_lossy(&buf[..head_end]).to_string();
        let (method, path, content_length) = parse_http_head(&head_text);
        let route = path.split('?').next().unwrap_or_default();

        // Read the body, if any (bounded by the JSON-RPC request cap).
        let mut body: Vec<u8> = Vec::new();
        if content_length > 0 {
            if content_length > MAX_REQUEST_SIZE {
                return Ok(());
            }
            body.resize(content_length, 0);
            let buffered = (buf.len() - head_end).min(content_length);
            body[..buffered].copy_from_slice(&buf[head_end..head_end + buffered]);
            let mut got = buffered;
            while got < content_length {
                let n = stream.read(&mut body[got..]).await?;
                if n == 0 {
                    return Ok(());
                }
                got += n;
            }
        }

        match (method.as_str(), route) {
            ("GET", "/healthz") => {
                write_http_response(&mut stream, 200, "text/plain", b"ok\n").await?;
            }
            ("GET", "/manifest") => {
                let payload = self.capability_manifest();
                write_http_response(
                    &mut stream,
                    200,
                    "application/json",
                    payload.to_string().as_bytes(),
                )
                .await?;
            }
            ("GET", "/status") => {
                // Liveness-plus: mode/scope disclosure + the Phase 3 write
                // budget, so an agent (or a cron) can answer "is this store
                // healthy and how much is it costing the SSD?" without LMDB.
                let payload = self.status_payload();
                write_http_response(
                    &mut stream,
                    200,
                    "application/json",
                    payload.to_string().as_bytes(),
                )
                .await?;
            }
            ("POST", "/mcp") => {
                let Ok(payload) = std::str::from_utf8(&body) else {
                    write_http_response(&mut stream, 400, "text/plain", b"body must be UTF-8\n")
                        .await?;
                    return Ok(());
                };
                let response = self.handle_request(payload).await;
                write_http_response(&mut stream, 200, "application/json", response.as_bytes())
                    .await?;
            }
            ("GET", "/mcp") => {
                write_sse_headers(&mut stream).await?;
                let mut interval = tokio::time::interval(std::time::Duration::from_secs(15));
                loop {
                    interval.tick().await;
                    if stream.write_all(b": keep-alive\n\n").await.is_err() {
                        break;
                    }
                    let _ = stream.flush().await;
                }
            }
            _ => {
                write_http_response(&mut stream, 404, "text/plain", b"not found\n").await?;
            }
        }

        Ok(())
    }

    /// Build the `/status` payload — read-only (a status probe never
    /// writes, so the write-budget report samples sizes without persisting).
    fn status_payload(&self) -> serde_json::Value {
        let hv = self.substrate.sample();
        let write_budget = self
            .write_budget
            .as_ref()
            .map_or(serde_json::Value::Null, |ledger| {
                ledger.lock().map_or(serde_json::Value::Null, |mut l| {
                    json!({
                        "today_bytes": l.fresh_report().today_bytes,
                        "report": l.report_json(),
                    })
                })
            });
        json!({
            "status": "ok",
            "build": crate::manifest::build_info(),
            "capability_manifest_method": "capabilities/manifest",
            "readonly": self.readonly,
            "profile": self.profile_name,
            "profile_contract": self.profile_contract.as_ref().map_or(
                serde_json::Value::Null,
                |c| serde_json::to_value(c).unwrap_or(serde_json::Value::Null),
            ),
            "landlock": self.landlock.as_ref().map_or(
                serde_json::Value::Null,
                |r| serde_json::to_value(r).unwrap_or(serde_json::Value::Null),
            ),
            // Sangha mesh transport (R0) — null when started without --mesh.
            "mesh": self
                .mesh_slot
                .get()
                .map_or(serde_json::Value::Null, |node| node.status_try()),
            "project": self.project,
            "store_path": self.store_path,
            "brain_wave": format!("{:?}", self.eco_mode.current()),
            "tool_count": self.tool_count(),
            "harmony": {
                "cpu_load": hv.cpu_load,
                "memory_pressure": hv.memory_pressure,
                "swap_usage": hv.swap_usage,
                "thermal_state": format!("{:?}", hv.thermal_state),
                "temperature_c": hv.temperature_c,
                "battery_percent": hv.battery_percent,
                "disk_io_rate": hv.disk_io_rate,
                "health_score": hv.health_score(),
            },
            "write_budget": write_budget,
            // Circuit-breaker operator snapshot (read-only): open/half-open
            // tools + non-zero trip counts. Env-tunable via WM_BREAKER_*.
            "breaker": self.pipeline.circuit_breakers().snapshot(),
            // Landlock v1 executor counters (B1 pathway) — null when the
            // per-tool pathway is not attached (WM_LANDLOCK_V1 unset).
            "landlock_v1": self.pipeline.sandbox_executor().map_or(
                serde_json::Value::Null,
                |executor| {
                    let (runs, degraded, failures) = executor.stats();
                    json!({"runs": runs, "degraded": degraded, "failures": failures})
                },
            ),
            // Subprocess spawn sandbox (B2) — runner resolution (env →
            // PATH) + dispatch/degraded/unmigrated counters. Always
            // attached; `active:false` means declared spawns are not
            // contained (the unsafe state is itself disclosed).
            "subprocess_sandbox": self.pipeline.subprocess_sandbox().map_or(
                serde_json::Value::Null,
                wm_dispatch::SubprocessSandbox::status,
            ),
            // Embedder honesty (init-time config + live store counts) so
            // fleet rollout/verification needs no store-locking CLI calls.
            "embedder": {
                "configured": self.embedder_status.clone(),
                "vectors": self.store.count(wm_core::Galaxy::Embeddings).unwrap_or(0),
                "cache": self.store.embedding_cache_count().unwrap_or(0),
            },
        })
    }

    /// Runtime-derived registration/profile disclosure. Request-specific authorization
    /// and functional usefulness are intentionally not inferred from registration.
    #[must_use]
    pub fn capability_manifest(&self) -> Value {
        let mut routes = crate::manifest::registered_routes(&self.registry);
        let brain_wave = self.eco_mode.current();
        for route in &mut routes {
            let tool = self.registry.get(route["name"].as_str().unwrap()).unwrap();
            route["blocked_by_readonly"] =
                json!(self.readonly && !tool.effects().writes.is_empty());
            route["allowed_by_brain_wave"] = json!(tool.effects().is_available_in(brain_wave));
            route["request_authorization"] = json!(
                "evaluated per request; registration is not permission or demonstrated usefulness"
            );
        }
        let profiles: Vec<_> = [
            &wm_tools::profiles::PROFILE_FULL, &wm_tools::profiles::PROFILE_CURATED,
            &wm_tools::profiles::PROFILE_MINIMAL, &wm_tools::profiles::PROFILE_PRAY,
        ].iter().map(|p| {
            let names: Vec<_> = self.full_capability_routes.iter().filter_map(|r| r["name"].as_str())
                .filter(|n| p.prefixes.contains(&"*") || wm_tools::profiles::matches_prefixes(n, p.prefixes)).collect();
            json!({"profile":p.name,"prefixes":p.prefixes,"pre_meta_routes":names,"count":names.len()})
        }).collect();
        let entrypoints = self
            .handle_tools_list()
            .ok()
            .and_then(|v| v.get("tools").cloned())
            .unwrap_or(json!([]));
        let routed = routes.iter().filter(|r| r["name"] != "wm").count();
        json!({
            "schema":"wm-capability-manifest-v1", "kind":"store", "build":crate::manifest::build_info(),
            "configuration":{"profile":self.profile_name,"readonly":self.readonly,"project":self.project,
                "store_path":self.store_path,"brain_wave":format!("{brain_wave:?}"),"landlock":self.landlock,
                "request_limit":self.request_budget.limit(),"rate_limit_per_window":self.rate_window.limit(),
                "disclosure_policy":"allowlisted effective fields only; no credentials, arbitrary environment or model URLs"},
            "profile_contract":self.profile_contract, "profiles":profiles,
            "profile_aliases":{"prat":"pray"}, "routes":routes,
            "full_pre_profile_routes":self.full_capability_routes,
            "mcp_entrypoints":entrypoints,
            "counts":{"full_pre_profile":self.full_capability_routes.len(),
                "profile_pre_meta":self.profile_contract.as_ref().map(|c| c.registered_count),
                "boundary_registry_including_meta":self.registry.len(),"wm_routable_names":routed,
                "mcp_entrypoints":entrypoints.as_array().map(Vec::len)},
            "definitions":{"full_pre_profile":"runtime registrations before profile filtering",
                "profile_pre_meta":"profile-filtered registrations before meta-tool layering; gnosis is replaced if present or added if absent; tools.list, tools.usage_report, nlu.shadow_report and wm are added",
                "boundary_registry_including_meta":"final server registry including wm",
                "wm_routable_names":"final registry excluding the outer wm wrapper; includes discovery helpers and compatibility names",
                "aliases":"memory.hybrid_recall shares memory.search implementation; profile alias prat resolves to pray; wrappers and subcommands are not counted as separate registered routes",
                "availability":"readonly and brain-wave observations only; backend/model readiness and per-request gates can still prevent execution"}
        })
    }

    /// Perform graceful shutdown — emit SystemShutdown event, flush state.
    pub fn shutdown(&self) {
        tracing::info!("MCP server shutting down — emitting SystemShutdown event");

        // Emit shutdown event to Gan Ying Bus
        if let Ok(mut bus) = self.gan_ying_bus.lock() {
            bus.emit(
                wm_cognitive::EventType::SystemShutdown,
                "mcp_server",
                json!({
                    "tool_count": self.tool_count(),
                    "brain_wave": format!("{:?}", self.eco_mode.current()),
                }),
            );
        }

        // Final timescale tick to flush any pending hooks
        if let Ok(mut bus) = self.timescale_bus.lock() {
            let (executed, _) = bus.tick_all();
            if executed > 0 {
                tracing::debug!(
                    hooks_executed = executed,
                    "Final timescale tick on shutdown"
                );
            }
        }

        // Save mutable structures to disk (Phase 6 persistence). Read-only
        // mode must not write any state files.
        if !self.readonly {
            self.save_mutable_state();
        }

        // Final write-budget sample so the ledger reflects the session's
        // total growth, not just the last 5-min tick (writable only).
        if !self.readonly {
            if let Some(ledger) = &self.write_budget {
                if let Ok(mut ledger) = ledger.lock() {
                    ledger.observe(chrono::Utc::now());
                }
            }
        }

        // Final index-drift heal so a gracefully stopped store is left fully
        // search-consistent. Session tools and research cycles write LMDB
        // without per-write indexing; startup and daemon-checkpoint heals do
        // not cover the tail of a session that ends here. A SIGKILL still
        // leaves drift for the next writable start to repair.
        if !self.readonly {
            if let Some(engine) = self.search_engine() {
                // Drain the pending-index ledger too: writes that lost the
                // writer lock during this session become searchable before
                // the process exits (2026-09-21 reviewer finding).
                match wm_memory::reindex::drain_index_pending(&self.store, engine) {
                    Ok(report) if report.pending > 0 => tracing::warn!(
                        pending = report.pending,
                        drained = report.drained,
                        missing = report.missing,
                        failed = report.failed,
                        "pending-index ledger reconciled on shutdown"
                    ),
                    Ok(_) => {}
                    Err(e) => tracing::warn!(
                        error = %e,
                        "pending-index drain failed on shutdown — entries stay for the next writable start"
                    ),
                }
                match wm_memory::reindex::heal_index_drift(&self.store, engine) {
                    Ok(Some(report)) => {
                        let detail = report
                            .galaxies
                            .iter()
                            .map(|g| {
                                format!(
                                    "{}: +{} indexed, {} skipped, {} orphans deleted",
                                    g.galaxy, g.indexed, g.skipped, g.deleted
                                )
                            })
                            .collect::<Vec<_>>()
                            .join("; ");
                        tracing::warn!(
                            galaxies = report.galaxies.len(),
                            indexed = report.indexed,
                            deleted = report.deleted,
                            "Index-drift heal on shutdown (incremental) {detail}"
                        );
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!(
                        error = %e,
                        "Index-drift heal on shutdown failed — run 'wm reindex --store <path>' manually"
                    ),
                }
            }
        }

        // Flush the write-audit journal so every dispatch's declared-vs-
        // actual record survives a graceful shutdown (the journal batches
        // up to 64 entries in memory). Skipped in read-only mode — no
        // journal is attached there, and flushing would be an LMDB write.
        if !self.readonly {
            if let Some(journal) = self.pipeline.write_audit() {
                if let Err(e) = journal.flush() {
                    tracing::warn!(error = %e, "Write-audit journal flush failed on shutdown");
                }
            }
        }

        // LMDB is automatically flushed by Drop when Arc<MemoryStore> is dropped.
        // The store uses memory-mapped files, so data is persistent by default.
    }

    /// Get a reference to the eco mode controller.
    #[must_use]
    pub const fn eco_mode(&self) -> &EcoModeController {
        &self.eco_mode
    }

    /// Set the per-session request budget (hard cap on requests per connection).
    ///
    /// Pass `0` for unlimited. Default is [`DEFAULT_MAX_REQUESTS_PER_SESSION`].
    pub const fn set_request_budget(&mut self, max_requests: u64) {
        self.request_budget = crate::input_validation::RequestBudget::new(max_requests);
    }

    /// Set the time-windowed rate limit (requests per 60s window).
    ///
    /// Pass `0` for unlimited. Default is [`DEFAULT_RATE_LIMIT_RPM`].
    pub fn set_rate_limit(&mut self, requests_per_minute: u64) {
        self.rate_window = crate::input_validation::RateWindow::new(
            requests_per_minute,
            std::time::Duration::from_secs(60),
        );
    }

    /// Attach the Landlock v0 startup report (serve path only) so `/status`
    /// discloses the process's filesystem-confinement state.
    /// The shared mesh transport slot — `wm serve --mesh` installs the
    /// live node through here; tests may install their own.
    #[must_use]
    pub fn mesh_slot(&self) -> Arc<wm_sangha::MeshSlot> {
        Arc::clone(&self.mesh_slot)
    }

    /// Install (or replace) the live mesh node after `MeshNode::start`.
    pub fn install_mesh_node(&self, node: Arc<wm_sangha::mesh_node::MeshNode>) {
        self.mesh_slot.set(node);
    }

    pub fn set_landlock_report(&mut self, report: crate::landlock_sandbox::LandlockReport) {
        self.landlock = Some(report);
    }

    /// Get a mutable reference to the eco mode controller.
    pub const fn eco_mode_mut(&mut self) -> &mut EcoModeController {
        &mut self.eco_mode
    }

    /// Get a reference to the citta heartbeat.
    #[must_use]
    pub const fn citta(&self) -> &CittaHeartbeat {
        &self.citta
    }

    /// Get a mutable reference to the citta heartbeat.
    pub const fn citta_mut(&mut self) -> &mut CittaHeartbeat {
        &mut self.citta
    }

    /// Get a reference to the dream cycle.
    #[must_use]
    pub const fn dream(&self) -> &DreamCycle {
        &self.dream
    }

    /// Get a mutable reference to the dream cycle.
    pub const fn dream_mut(&mut self) -> &mut DreamCycle {
        &mut self.dream
    }

    /// Get a reference to the reflex dispatch table.
    #[must_use]
    pub const fn reflex_table(&self) -> &Arc<std::sync::Mutex<ReflexDispatchTable>> {
        &self.reflex_table
    }

    /// Get a reference to the timescale bus.
    #[must_use]
    pub const fn timescale_bus(&self) -> &Arc<std::sync::Mutex<TimescaleBus>> {
        &self.timescale_bus
    }

    /// Get a reference to the global workspace.
    #[must_use]
    pub const fn workspace(&self) -> &Arc<std::sync::Mutex<GlobalWorkspace>> {
        &self.workspace
    }

    /// Get a reference to the memory store.
    #[must_use]
    pub fn store(&self) -> &MemoryStore {
        &self.store
    }

    /// The shared Tantivy search engine, when this server opened one.
    /// `Some` for every server built through the standard constructors;
    /// `None` only in hand-rolled test servers that never opened an index.
    pub const fn search_engine(&self) -> Option<&Arc<SearchEngine>> {
        self.search_engine.as_ref()
    }

    /// Get a clone of the Arc to the memory store.
    #[must_use]
    pub fn store_arc(&self) -> Arc<MemoryStore> {
        Arc::clone(&self.store)
    }

    /// Get a reference to the association store.
    #[must_use]
    pub const fn associations(&self) -> &Arc<AssociationStore> {
        &self.associations
    }

    /// Get a reference to the sensorimotor bus.
    #[must_use]
    pub const fn sensorimotor_bus(&self) -> &Arc<std::sync::Mutex<SensorimotorBus>> {
        &self.sensorimotor_bus
    }

    /// Get a reference to the reflex loop.
    #[must_use]
    pub const fn reflex_loop(&self) -> &Arc<std::sync::Mutex<ReflexLoop>> {
        &self.reflex_loop
    }

    /// Get a reference to the karma ledger (if present).
    #[must_use]
    pub const fn karma_ledger(&self) -> Option<&Arc<KarmaLedger>> {
        self.karma_ledger.as_ref()
    }

    /// Get a reference to the tool registry.
    #[must_use]
    pub const fn registry(&self) -> &ToolRegistry {
        &self.registry
    }

    /// Get a reference to the dispatch pipeline.
    #[must_use]
    pub fn pipeline(&self) -> &DispatchPipeline {
        &self.pipeline
    }

    /// Get a reference to the substrate monitor.
    #[must_use]
    pub fn substrate(&self) -> &SubstrateMonitor {
        &self.substrate
    }

    /// Get a reference to the Dharma gate.
    #[must_use]
    pub fn dharma_gate(&self) -> &DharmaGate {
        &self.dharma_gate
    }

    /// Get a reference to the resource rules.
    #[must_use]
    pub fn resource_rules(&self) -> &ResourceRules {
        &self.resource_rules
    }

    /// Get an owned handle to the resource rules (the `store_arc()`
    /// pattern, S7): the daemon hands the SAME Yama budget instance to
    /// dream-phase contexts without holding a borrow of the server
    /// (the dream context must outlive the shared reborrow).
    #[must_use]
    pub fn resource_rules_arc(&self) -> std::sync::Arc<ResourceRules> {
        std::sync::Arc::clone(&self.resource_rules)
    }

    /// Get a reference to the self-model.
    #[must_use]
    pub fn self_model(&self) -> &std::sync::Mutex<SelfModel> {
        &self.self_model
    }

    /// Get a reference to the bicameral engine.
    #[must_use]
    pub fn bicameral(&self) -> &std::sync::Mutex<BicameralEngine> {
        &self.bicameral
    }

    /// Get a reference to the drive core.
    #[must_use]
    pub fn drive_core(&self) -> &std::sync::Mutex<DriveCore> {
        &self.drive_core
    }

    /// Get the number of registered tools.
    #[must_use]
    pub fn tool_count(&self) -> usize {
        self.registry.all().len()
    }

    /// Initialize the imagination engine (ScenarioEngine) for dream cycle
    /// counterfactual replay and Research cycle hypothesis generation.
    /// Called automatically by `with_defaults`; can be called manually
    /// for custom server setups.
    pub fn init_imagination(&mut self) {
        if self.scenario_engine.is_none() {
            let wm = wm_bicameral::world_model_from_env();
            let evaluator = wm_bicameral::ScenarioEvaluator::with_defaults();
            self.scenario_engine = Some(wm_bicameral::ScenarioEngine::with_defaults(wm, evaluator));
            tracing::info!("Imagination engine initialized on McpServer");
        }
    }

    /// Get a reference to the imagination engine, if initialized.
    #[must_use]
    pub const fn scenario_engine(&self) -> Option<&wm_bicameral::ScenarioEngine> {
        self.scenario_engine.as_ref()
    }

    /// Get a reference to the GanaRegistry for taxonomy drift tracking (Phase 6).
    #[must_use]
    pub const fn gana_registry(&self) -> &Arc<std::sync::Mutex<wm_core::GanaRegistry>> {
        &self.gana_registry
    }

    /// Get a reference to the DynamicGalaxyRegistry (Phase 6).
    #[must_use]
    pub const fn dynamic_galaxies(&self) -> &Arc<std::sync::Mutex<wm_core::DynamicGalaxyRegistry>> {
        &self.dynamic_galaxies
    }

    /// Save mutable structures (GanaRegistry, DynamicGalaxyRegistry, LearnedDreamCycle,
    /// ShadowModeStats) to JSON files in the store directory. Called on shutdown to persist learned state.
    pub fn save_mutable_state(&self) {
        let store_dir = self.store.path();

        if let Ok(registry) = self.gana_registry.lock() {
            let path = store_dir.join("mutable_gana_registry.json");
            match serde_json::to_string_pretty(&*registry) {
                Ok(json) => {
                    if let Err(e) = std::fs::write(&path, json) {
                        tracing::warn!(path = %path.display(), error = %e, "Failed to save GanaRegistry");
                    } else {
                        tracing::info!(path = %path.display(), "Saved GanaRegistry");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to serialize GanaRegistry"),
            }
        }

        if let Ok(galaxies) = self.dynamic_galaxies.lock() {
            let path = store_dir.join("mutable_dynamic_galaxies.json");
            match serde_json::to_string_pretty(&*galaxies) {
                Ok(json) => {
                    if let Err(e) = std::fs::write(&path, json) {
                        tracing::warn!(path = %path.display(), error = %e, "Failed to save DynamicGalaxyRegistry");
                    } else {
                        tracing::info!(path = %path.display(), "Saved DynamicGalaxyRegistry");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to serialize DynamicGalaxyRegistry"),
            }
        }

        if let Some(learned) = self.dream.learned() {
            let path = store_dir.join("mutable_learned_dream.json");
            match serde_json::to_string_pretty(learned) {
                Ok(json) => {
                    if let Err(e) = std::fs::write(&path, json) {
                        tracing::warn!(path = %path.display(), error = %e, "Failed to save LearnedDreamCycle");
                    } else {
                        tracing::info!(path = %path.display(), "Saved LearnedDreamCycle");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to serialize LearnedDreamCycle"),
            }
        }

        // Save shadow mode stats (OATS)
        if let Ok(stats) = self.shadow_stats.read() {
            let path = store_dir.join("mutable_shadow_stats.json");
            match serde_json::to_string_pretty(&*stats) {
                Ok(json) => {
                    if let Err(e) = std::fs::write(&path, json) {
                        tracing::warn!(path = %path.display(), error = %e, "Failed to save ShadowModeStats");
                    } else {
                        tracing::info!(path = %path.display(), "Saved ShadowModeStats");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to serialize ShadowModeStats"),
            }
        }

        // Save per-tool usage stats so `tools.usage_report` ranks on
        // cumulative cross-restart history. Only tools that were actually
        // called are persisted — the file stays small and restore is cheap.
        {
            let snapshots: std::collections::BTreeMap<String, wm_core::ToolStatsSnapshot> = self
                .registry
                .all_ref()
                .iter()
                .filter_map(|t| {
                    let snap = t.stats().snapshot();
                    (snap.call_count > 0).then(|| (t.name().to_string(), snap))
                })
                .collect();
            if !snapshots.is_empty() {
                let path = store_dir.join("mutable_tool_stats.json");
                match serde_json::to_string_pretty(&snapshots) {
                    Ok(json) => {
                        if let Err(e) = std::fs::write(&path, json) {
                            tracing::warn!(path = %path.display(), error = %e, "Failed to save tool usage stats");
                        } else {
                            tracing::info!(path = %path.display(), tools = snapshots.len(), "Saved tool usage stats");
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "Failed to serialize tool usage stats"),
                }
                // P1 (2026-09-15): one daily rollup row beside the snapshot so
                // `wm stats --week` can estimate per-tool activity across
                // restarts without a live process (at most one row per day).
                let date = chrono::Utc::now().format("%Y-%m-%d").to_string();
                if let Err(e) = crate::stats_view::append_daily_rollup(store_dir, &date, &snapshots)
                {
                    tracing::warn!(error = %e, "Failed to append the daily usage rollup");
                }
                // Token-ledger v0 (2026-09-22): fold the savings ledger tail
                // so `wm ledger` / `wm stats` stay O(tail) as it grows.
                // Best-effort: a fold failure never blocks the checkpoint.
                if let Err(e) = crate::ledger::rollup_in_lmdb(store_dir) {
                    tracing::warn!(error = %e, "Failed to fold the savings ledger rollup");
                }
            }
        }

        // Save OATS outcome stats (the NLU router's learned refinement).
        // Without this the router's success/failure centroids are lost on
        // every restart and OATS never accumulates cross-session learning.
        if let Some(router) = &self.embedding_router {
            let path = store_dir.join("mutable_oats.json");
            if let Some(json) = router.save_oats() {
                if let Err(e) = std::fs::write(&path, json) {
                    tracing::warn!(path = %path.display(), error = %e, "Failed to save OATS");
                } else {
                    tracing::info!(path = %path.display(), "Saved OATS outcome stats");
                }
            } else {
                tracing::warn!("Failed to serialize OATS outcome stats");
            }
        }

        // Save conformal calibration state — the doctor reads this file at
        // `<store_root>/conformal_store.json` (store root, not lmdb dir).
        if let Some(conformal) = &self.conformal_store {
            if let Ok(store) = conformal.lock() {
                let path = store_dir
                    .parent()
                    .unwrap_or(store_dir)
                    .join("conformal_store.json");
                match serde_json::to_string_pretty(&store.to_json()) {
                    Ok(json) => {
                        if let Err(e) = std::fs::write(&path, json) {
                            tracing::warn!(path = %path.display(), error = %e, "Failed to save conformal state");
                        } else {
                            tracing::info!(path = %path.display(), "Saved conformal calibration state");
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "Failed to serialize conformal state"),
                }
            }
        }

        // Save Brier calibration state (prediction history for the scorecard)
        if let Some(calibration) = &self.calibration_store {
            if let Ok(store) = calibration.lock() {
                let path = store_dir
                    .parent()
                    .unwrap_or(store_dir)
                    .join("calibration_store.json");
                match serde_json::to_string_pretty(&store.to_json()) {
                    Ok(json) => {
                        if let Err(e) = std::fs::write(&path, json) {
                            tracing::warn!(path = %path.display(), error = %e, "Failed to save calibration state");
                        } else {
                            tracing::info!(path = %path.display(), "Saved Brier calibration state");
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "Failed to serialize calibration state"),
                }
            }
        }

        // Save prescience claims ledger
        if let Some(ledger) = &self.claims_ledger {
            if let Ok(ledger_guard) = ledger.lock() {
                let path = store_dir
                    .parent()
                    .unwrap_or(store_dir)
                    .join("claims_ledger.json");
                match serde_json::to_string_pretty(&ledger_guard.to_json()) {
                    Ok(json) => {
                        if let Err(e) = std::fs::write(&path, json) {
                            tracing::warn!(path = %path.display(), error = %e, "Failed to save claims ledger");
                        } else {
                            tracing::info!(path = %path.display(), "Saved claims ledger");
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "Failed to serialize claims ledger"),
                }
            }
        }

        // Save self-model state (metric histories, alert rules, calibrator) —
        // `wm doctor` reads this file at `<store_root>/self_model.json` for
        // live conformal coverage / Brier drift health.
        {
            let path = store_dir
                .parent()
                .unwrap_or(store_dir)
                .join("self_model.json");
            let model_json = match self.self_model.lock() {
                Ok(model) => model.to_json(),
                Err(e) => {
                    tracing::warn!(error = %e, "Failed to lock self-model for save");
                    serde_json::json!({})
                }
            };
            match serde_json::to_string_pretty(&model_json) {
                Ok(json) => {
                    if let Err(e) = std::fs::write(&path, json) {
                        tracing::warn!(path = %path.display(), error = %e, "Failed to save self-model state");
                    } else {
                        tracing::info!(path = %path.display(), "Saved self-model state");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to serialize self-model state"),
            }
        }

        // Save dharma escalation queue
        if let Some(queue) = &self.escalation_queue {
            if let Ok(queue_guard) = queue.lock() {
                let path = store_dir
                    .parent()
                    .unwrap_or(store_dir)
                    .join("escalation_queue.json");
                match serde_json::to_string_pretty(&queue_guard.to_json()) {
                    Ok(json) => {
                        if let Err(e) = std::fs::write(&path, json) {
                            tracing::warn!(path = %path.display(), error = %e, "Failed to save escalation queue");
                        } else {
                            tracing::info!(path = %path.display(), "Saved escalation queue");
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "Failed to serialize escalation queue"),
                }
            }
        }

        // Save tx firewall policy
        if let Some(firewall) = &self.tx_firewall {
            let path = store_dir
                .parent()
                .unwrap_or(store_dir)
                .join("tx_firewall_policy.json");
            match serde_json::to_string_pretty(&firewall.to_json()) {
                Ok(json) => {
                    if let Err(e) = std::fs::write(&path, json) {
                        tracing::warn!(path = %path.display(), error = %e, "Failed to save tx firewall policy");
                    } else {
                        tracing::info!(path = %path.display(), "Saved tx firewall policy");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to serialize tx firewall policy"),
            }
        }
    }

    /// Load mutable structures from JSON files in the store directory.
    /// Called on startup to restore learned state from previous sessions.
    pub fn load_mutable_state(&mut self) {
        let store_dir = self.store.path();

        let gana_path = store_dir.join("mutable_gana_registry.json");
        if gana_path.exists() {
            match std::fs::read_to_string(&gana_path) {
                Ok(json) => {
                    if let Ok(mut registry) = serde_json::from_str::<wm_core::GanaRegistry>(&json) {
                        registry.rebuild_pairs();
                        if let Ok(mut current) = self.gana_registry.lock() {
                            *current = registry;
                            tracing::info!("Loaded GanaRegistry from disk");
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to read GanaRegistry file"),
            }
        }

        let galaxies_path = store_dir.join("mutable_dynamic_galaxies.json");
        if galaxies_path.exists() {
            match std::fs::read_to_string(&galaxies_path) {
                Ok(json) => {
                    if let Ok(registry) =
                        serde_json::from_str::<wm_core::DynamicGalaxyRegistry>(&json)
                    {
                        if let Ok(mut current) = self.dynamic_galaxies.lock() {
                            *current = registry;
                            tracing::info!("Loaded DynamicGalaxyRegistry from disk");
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to read DynamicGalaxyRegistry file"),
            }
        }

        let dream_path = store_dir.join("mutable_learned_dream.json");
        if dream_path.exists() {
            match std::fs::read_to_string(&dream_path) {
                Ok(json) => {
                    if let Ok(learned) = serde_json::from_str::<wm_core::LearnedDreamCycle>(&json) {
                        self.dream.set_learned(learned);
                        tracing::info!("Loaded LearnedDreamCycle from disk");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to read LearnedDreamCycle file"),
            }
        }

        let shadow_path = store_dir.join("mutable_shadow_stats.json");
        if shadow_path.exists() {
            match std::fs::read_to_string(&shadow_path) {
                Ok(json) => {
                    if let Ok(stats) =
                        serde_json::from_str::<wm_tools::embedding_router::ShadowModeStats>(&json)
                    {
                        if let Ok(mut current) = self.shadow_stats.write() {
                            *current = stats;
                            tracing::info!("Loaded ShadowModeStats from disk");
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to read ShadowModeStats file"),
            }
        }

        let oats_path = store_dir.join("mutable_oats.json");
        if oats_path.exists() {
            match std::fs::read_to_string(&oats_path) {
                Ok(json) => {
                    if let Some(router) = &self.embedding_router {
                        router.load_oats(&json);
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to read OATS file"),
            }
        }

        // Restore per-tool usage stats. Tool Arcs are shared across all
        // registries (tools.list, wm routing, dispatch), so restoring here
        // rehydrates the same atomics the pipeline updates.
        let tool_stats_path = store_dir.join("mutable_tool_stats.json");
        if tool_stats_path.exists() {
            match std::fs::read_to_string(&tool_stats_path) {
                Ok(json) => {
                    match serde_json::from_str::<
                        std::collections::BTreeMap<String, wm_core::ToolStatsSnapshot>,
                    >(&json)
                    {
                        Ok(snapshots) => {
                            let mut restored = 0usize;
                            for tool in self.registry.all_ref() {
                                if let Some(snap) = snapshots.get(tool.name()) {
                                    tool.stats().restore(snap);
                                    restored += 1;
                                }
                            }
                            tracing::info!(restored, "Loaded tool usage stats from disk");
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, "Failed to parse tool usage stats file");
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "Failed to read tool usage stats file"),
            }
        }
    }

    /// Get memory counts per galaxy as a JSON object.
    #[must_use]
    pub fn galaxy_counts(&self) -> Value {
        let mut counts = serde_json::Map::new();
        let mut total = 0u64;
        for galaxy in wm_core::Galaxy::all() {
            let count = self.store.count(galaxy).unwrap_or(0) as u64;
            if count > 0 {
                counts.insert(galaxy.db_name().to_string(), json!(count));
                total += count;
            }
        }
        counts.insert("total".into(), json!(total));
        Value::Object(counts)
    }

    /// Test/build-time determinism seam: under `cfg!(test)` the Dharma gate
    /// keeps its healthy default instead of sampling live hardware, and
    /// spawned-binary e2e children pin it with `WM_HOMEOSTASIS_FROZEN=1`
    /// (`cfg!(test)` is not set for the binary). Tests that need a specific
    /// homeostasis still call `dharma_gate().update_homeostasis(..)` directly.
    fn homeostasis_frozen() -> bool {
        cfg!(test)
            || matches!(
                std::env::var("WM_HOMEOSTASIS_FROZEN").as_deref(),
                Ok("1" | "true")
            )
    }

    /// Parse a freeze env value (`1`/`true`).
    fn frozen_env(value: Option<&str>) -> bool {
        matches!(value, Some("1" | "true"))
    }

    /// Whether self-model metric recording is pinned for deterministic runs.
    ///
    /// Pinned runs keep `SelfModel::confidence()` at its healthy default
    /// (0.5, no metrics), so host load cannot push it below the 0.5
    /// conservative-dispatch threshold and veto every write. That veto is
    /// load-sensitive by design (2026-09-14: a fresh store at load ~2.7
    /// refused `memory.create`/`telemetry.record` at confidence 0.49), and
    /// `WM_HOMEOSTASIS_FROZEN=1` did not cover it — the spawned-binary
    /// e2e/smoke pin now covers both gates.
    ///
    /// Deliberately env-only (no `cfg!(test)`): unit tests must keep
    /// exercising the real metric-recording path.
    fn self_model_frozen() -> bool {
        Self::frozen_env(std::env::var("WM_HOMEOSTASIS_FROZEN").ok().as_deref())
            || Self::frozen_env(std::env::var("WM_SELFMODEL_FROZEN").ok().as_deref())
    }

    /// Sample the current hardware state and update the Dharma gate's homeostasis.
    /// Should be called periodically (e.g., on each MCP request or timer tick).
    pub fn refresh_homeostasis(&self) {
        if Self::homeostasis_frozen() {
            return;
        }
        let hv = self.substrate.sample();
        self.dharma_gate.update_homeostasis(hv.into());
    }

    /// Sample hardware metrics and record them into the self-model.
    /// Also records citta coherence as a metric.
    /// Should be called on each MCP request to keep the self-model's
    /// metric history up to date for forecasting.
    pub fn refresh_self_model(&self) {
        if Self::self_model_frozen() {
            return;
        }
        let hv = self.substrate.sample();
        if let Ok(model) = self.self_model.lock() {
            model.record(wm_selfmodel::MetricKind::CpuLoad, hv.cpu_load);
            model.record(wm_selfmodel::MetricKind::MemoryPressure, hv.memory_pressure);
            model.record(wm_selfmodel::MetricKind::SwapUsage, hv.swap_usage);
            model.record(wm_selfmodel::MetricKind::DiskIo, hv.disk_io_rate);
            // Coherence from citta heartbeat
            let (coherence, _) = self.citta.coherence_valence();
            model.record(wm_selfmodel::MetricKind::Coherence, coherence);
        }
    }

    /// Get a reference to the Gan Ying Bus.
    #[must_use]
    pub const fn gan_ying_bus(&self) -> &Arc<std::sync::Mutex<GanYingBus>> {
        &self.gan_ying_bus
    }

    /// Get a reference to the homeostatic loop.
    #[must_use]
    pub const fn homeostatic_loop(&self) -> &Arc<std::sync::Mutex<HomeostaticLoop>> {
        &self.homeostatic_loop
    }

    /// Get a reference to the anomaly detector.
    #[must_use]
    pub const fn anomaly_detector(&self) -> &Arc<std::sync::Mutex<AnomalyDetector>> {
        &self.anomaly_detector
    }

    /// Handle a single JSON-RPC request string and return a JSON response string.
    ///
    /// This is the primary entry point for the PyO3 bridge — Python calls
    /// this with a JSON-RPC request string and gets back a JSON-RPC response string.
    pub async fn handle_request(&mut self, json_request: &str) -> String {
        let request: RpcRequest = match serde_json::from_str(json_request) {
            Ok(req) => req,
            Err(e) => {
                let resp = RpcResponse {
                    jsonrpc: "2.0".into(),
                    id: None,
                    result: None,
                    error: Some(RpcError {
                        code: -32700,
                        message: format!("Parse error: {e}"),
                        data: None,
                    }),
                };
                return serde_json::to_string(&resp).unwrap_or_else(|_| "{}".into());
            }
        };

        let response = self.handle(&request).await;
        serde_json::to_string(&response).unwrap_or_else(|_| "{}".into())
    }

    /// Handle a single JSON-RPC request.
    async fn handle(&mut self, req: &RpcRequest) -> RpcResponse {
        // Agent-presence signal: any request proves the agent is active
        // (the mesh re-announces presence transitions to connected peers).
        if let Some(node) = self.mesh_slot.get() {
            node.note_agent_activity();
        }

        // Boundary hardening — enforce the per-session request budget first
        if !self.request_budget.record() {
            return error_response(
                req.id.as_ref(),
                -32000,
                "Request budget exhausted — connection limit reached",
                Some(
                    json!({"used": self.request_budget.used(), "limit": self.request_budget.limit()}),
                ),
            );
        }

        // Boundary hardening — time-windowed rate limiting (burst throttle)
        if let Err(retry_after) = self.rate_window.record() {
            return error_response(
                req.id.as_ref(),
                -32000,
                "Rate limit exceeded — slow down",
                Some(
                    json!({"retry_after_secs": retry_after, "limit_rpm": self.rate_window.limit()}),
                ),
            );
        }

        // Boundary hardening — validate tool call params (tools/call only;
        // other methods such as ping or initialize have their own shapes).
        // This enforces the 64KB params cap, string length limits, injection
        // filtering, SSRF protection and path-traversal protection that
        // previously existed only as dead code.
        if req.method == "tools/call" {
            let raw = json!({
                "jsonrpc": req.jsonrpc,
                "method": req.method,
                "id": req.id,
                "params": req.params,
            });
            if let crate::input_validation::ValidationResult::Invalid(reason) =
                crate::input_validation::validate_tools_call(&raw)
            {
                tracing::warn!(method = %req.method, reason = %reason, "MCP request rejected by boundary validation");
                return error_response(
                    req.id.as_ref(),
                    -32602,
                    "Invalid params",
                    Some(json!({"reason": reason})),
                );
            }
        }

        // Record event for brain-wave tracking on every request
        self.eco_mode.record_event();
        // Refresh homeostasis from real hardware data (Lakshmi → Dharma)
        self.refresh_homeostasis();
        // Feed substrate + citta metrics into self-model for forecasting
        self.refresh_self_model();

        let result = match req.method.as_str() {
            "initialize" => self.handle_initialize(),
            "tools/list" => self.handle_tools_list(),
            "capabilities/manifest" => Ok(self.capability_manifest()),
            "tools/call" => self.handle_tools_call(&req.params).await,
            "resources/list" => self.handle_resources_list(),
            "resources/read" => self.handle_resources_read(&req.params),
            "prompts/list" => self.handle_prompts_list(),
            "prompts/get" => self.handle_prompts_get(&req.params),
            // MCP liveness check — the spec requires an empty result response
            // even though ping carries no id. Clients like opencode stall the
            // connection when this goes unanswered.
            "ping" => Ok(json!({})),
            _ => Err(RpcError {
                code: -32601,
                message: format!("Method not found: {}", req.method),
                data: None,
            }),
        };

        match result {
            Ok(value) => RpcResponse {
                jsonrpc: "2.0".into(),
                id: req.id.clone(),
                result: Some(value),
                error: None,
            },
            Err(err) => RpcResponse {
                jsonrpc: "2.0".into(),
                id: req.id.clone(),
                result: None,
                error: Some(err),
            },
        }
    }

    /// Handle `initialize` — return server capabilities.
    fn handle_initialize(&self) -> Result<Value, RpcError> {
        use std::fmt::Write as _;
        let mut instructions = String::from(concat!(
            "WhiteMagic gives you durable local project memory (on-device store). Session rhythm:\n",
            "1. wm(route=\"session.continuity\") before starting work — recall where the last session left off.\n",
            "2. wm(route=\"session.start\", args={\"title\": \"...\"}) when you begin a session.\n",
            "3. Record selectively via wm(route=\"session.record\") — turn_type decision/breakthrough/error/summary, importance 0.0-1.0 — only what a future session needs.\n",
            "4. Finish with a short summary turn, then wm(route=\"session.checkpoint\").\n",
            "Prefer the discrete lifecycle tools emitted in tools/list; wm(route=\"...\") reaches the wider curated catalog and wm(route=\"tools.list\") enumerates the surface.\n",
            "Onboarding: `wm grimoire`; pull existing notes in with `wm ingest --source <folder>`. Memory is not encrypted — Back up the store directory; never record sensitive values."
        ));
        if self.readonly {
            instructions.push_str(
                "\nMode: READ-ONLY — writes (session.*, memory.create/update) are refused by governance; recall only, do not retry writes.",
            );
        } else {
            instructions
                .push_str("\nMode: writable — session recording and memory writes are permitted.");
        }
        match (&self.project, &self.store_path) {
            (Some(project), Some(store)) => write!(
                instructions,
                "\nScope: project '{project}', store {store}. Memories in this store belong to this project."
            )
            .expect("write to String cannot fail"),
            (Some(project), None) => write!(
                instructions,
                "\nScope: project '{project}'. Memories in this store belong to this project."
            )
            .expect("write to String cannot fail"),
            (None, Some(store)) => {
                write!(instructions, "\nScope: store {store}.")
                    .expect("write to String cannot fail");
            }
            (None, None) => {}
        }
        // Phase 2 coordination protocol — the rules ship to every connected
        // agent regardless of surface; tool usage is only advertised when
        // the coordination tools are actually registered (full profile).
        instructions.push_str(
            "\nCoordination (multi-agent checkouts): one writer per checkout — Claim a scope before shared-tree edits, release it when done, and hand off via wm(route=\"session.checkpoint\") structured fields (commit, next_queue, open_flags; lease_id names a held scope).",
        );
        if self.registry.get("code.claim").is_some() {
            instructions.push_str(
                "\nCoordination tools are on this surface: wm(route=\"code.claim\"|\"code.check\"|\"code.release\"|\"code.list\") — advisory TTL leases in the git common dir; claims are coordination signals, not locks.",
            );
        }
        instructions.push_str(
            "\nFailure ladder: a call failing twice means change something — never retry unchanged. If tools vanish or every call errors, run `wm doctor`, restart the client session; do not probe with shell no-ops.",
        );
        Ok(json!({
            "protocolVersion": "2024-11-05",
            "serverInfo": {
                "name": "whitemagic",
                "version": env!("CARGO_PKG_VERSION"),
            },
            "capabilities": {
                "tools": {},
                "resources": {},
                "prompts": {},
            },
            "instructions": instructions,
        }))
    }

    /// Sidecar friction path for read-only mode: `<store-root>/friction_ro.jsonl`.
    ///
    /// Read-only servers suppress all LMDB-backed telemetry (friction
    /// auto-log, karma, audit journal), which left agent failures invisible —
    /// the 2026-08-22 forensics pass could not reconstruct a single failed
    /// dispatch from that day. The sidecar is append-only JSONL and touches
    /// no LMDB structures.
    fn friction_ro_path(&self) -> Option<std::path::PathBuf> {
        let lmdb = self.store_path.as_ref()?;
        let root = std::path::Path::new(lmdb)
            .parent()
            .unwrap_or_else(|| std::path::Path::new(lmdb));
        Some(root.join("friction_ro.jsonl"))
    }

    /// Append one dispatch-failure record to the read-only sidecar.
    fn append_friction_ro(&self, telemetry: &DispatchTelemetry) {
        if self.preservation_readonly {
            // The operator owns the external trace for the frozen evaluator;
            // write an explicit process diagnostic without changing its root.
            tracing::warn!(
                tool = %telemetry.tool,
                error = ?telemetry.error,
                "readonly preservation mode suppressed friction sidecar; use the run-owned trace"
            );
            return;
        }
        let Some(path) = self.friction_ro_path() else {
            return;
        };
        let ts = chrono::Utc::now().timestamp_millis();
        let entry = json!({
            "ts": ts,
            "mode": "read-only",
            "tool": telemetry.tool,
            "success": telemetry.success,
            "error": telemetry.error,
            "latency_ms": telemetry.latency_ms,
            "brain_wave": telemetry.brain_wave,
            "routed_via_wm": telemetry.routed_via_wm,
        });
        match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
        {
            Ok(mut f) => {
                use std::io::Write as _;
                if let Err(e) = writeln!(f, "{entry}") {
                    tracing::warn!(error = %e, "failed to append read-only friction entry");
                }
            }
            Err(e) => {
                tracing::warn!(
                    error = %e,
                    path = %path.display(),
                    "failed to open read-only friction sidecar"
                );
            }
        }
    }

    /// Discovery annotations for the lifecycle catalog: (title, read_only,
    /// destructive, idempotent). openWorld is false for every entry — the
    /// server is local by construction. `wm` is marked destructive because it
    /// can route to destructive tools with explicit confirmation.
    fn catalog_annotations(name: &str, readonly: bool) -> (&'static str, bool, bool, bool) {
        let (title, read_only, destructive, idempotent) = match name {
            "wm" => (
                "WhiteMagic memory and continuity meta-tool",
                false,
                true,
                false,
            ),
            "memory.create" => ("Create memory", false, false, false),
            "memory.search" => ("Search memories", true, false, true),
            "memory.read" => ("Read memory", true, false, true),
            "memory.list" => ("List memories", true, false, true),
            "memory.hybrid_recall" => ("Hybrid recall (compatibility alias)", true, false, true),
            "memory.update" => ("Update memory", false, false, false),
            "memory.revisions" => ("Memory revision chain", true, false, true),
            "memory.ingest" => ("Ingest documents into memory", false, false, false),
            "session.start" => ("Start or resume a session", false, false, false),
            "session.record" => ("Record a session turn", false, false, false),
            "session.checkpoint" => ("Save a session checkpoint", false, false, false),
            "session.continuity" => ("Recall session continuity", true, false, true),
            "receipts.emit" => ("Emit a continuity receipt", false, false, false),
            "receipts.verify" => ("Verify a continuity receipt", true, false, true),
            "memory.count" => ("Count memories", true, false, true),
            "memory.stats" => ("Memory statistics", true, false, true),
            "memory.tags" => ("List memory tags", true, false, true),
            "memory.aggregate" => ("Aggregate memories", true, false, true),
            "memory.associations" => ("Memory associations", true, false, true),
            "memory.batch_read" => ("Batch read memories", true, false, true),
            "memory.query" => ("Query memories", true, false, true),
            "memory.filter" => ("Filter memories", true, false, true),
            "memory.nearby" => ("Nearby memories", true, false, true),
            "memory.vector.search" => ("Vector search memories", true, false, true),
            "session.list" => ("List sessions", true, false, true),
            "session.recall" => ("Recall a session", true, false, true),
            "session.replay" => ("Replay a session", true, false, true),
            "gnosis.status" => ("Knowledge status", true, false, true),
            "gnosis.explain" => ("Explain provenance", true, false, true),
            _ => ("WhiteMagic tool", false, false, false),
        };
        // Read-only servers cannot mutate or destroy anything, whatever the
        // catalog would do in read-write mode: advertise that honestly so
        // directory graders and clients see the real contract.
        if readonly {
            (title, true, false, idempotent)
        } else {
            (title, read_only, destructive, idempotent)
        }
    }

    /// Per-tool result schemas for the discovery catalog (Smithery/Glama
    /// tool-quality surface; PayAI lesson — machine metadata, not prose).
    /// Each schema names the stable fields a client can rely on and stays
    /// open (`additionalProperties: true`): envelopes gain fields over time,
    /// so the schema is a floor, not a closed contract.
    fn catalog_output_schema(name: &str) -> Value {
        let envelope = |description: &str, properties: Value| {
            json!({
                "type": "object",
                "description": description,
                "properties": properties,
                "additionalProperties": true,
            })
        };
        match name {
            "wm" => envelope(
                "The dispatched tool's result envelope plus `_wm_route` dispatch metadata; fields vary by route.",
                json!({
                    "_wm_route": {
                        "type": "object",
                        "description": "Dispatch metadata: resolved tool, routing confidence, matched input.",
                        "properties": {
                            "tool": { "type": "string", "description": "Resolved route name" },
                            "confidence": { "type": "number", "description": "Routing confidence (1.0 for explicit routes)" },
                            "input": { "type": "string", "description": "Routing input that produced the match" },
                        },
                    },
                }),
            ),
            "memory.create" => envelope(
                "Creation receipt for the stored memory.",
                json!({
                    "status": { "type": "string", "description": "Operation status ('success' when stored)" },
                    "id": { "type": "string", "description": "Memory UUID" },
                    "galaxy": { "type": "string", "description": "Galaxy the memory landed in" },
                    "source": { "type": "string", "description": "Authorship class (user, agent, ...)" },
                    "source_trust": { "type": "number", "description": "Trust weight recorded for the authorship class" },
                    "content_hash": { "type": "string", "description": "SHA-256 of the stored content" },
                    "attested": { "type": "boolean", "description": "Whether a record attestation was attached" },
                    "attested_reason": { "type": ["string", "null"], "description": "Why attestation was skipped when it was not attached" },
                }),
            ),
            "memory.search" => envelope(
                "Ranked recall results with an evidence bundle and recall-mode disclosure.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "count": { "type": "integer", "description": "Number of results returned" },
                    "galaxy": { "type": "string", "description": "Galaxy scope the query ran against" },
                    "recall_mode": { "type": "string", "description": "Retrieval path used (hybrid, episodic, fts, importance, none)" },
                    "results": { "type": "array", "items": { "type": "object" }, "description": "Ranked memories (id, content, score, galaxy, source)" },
                    "evidence_bundle": {
                        "type": "object",
                        "description": "Per-result provenance (coverage, history, integrity, retrieval, source_time, visibility) plus conflicts.",
                    },
                    "hint": { "type": ["string", "null"], "description": "Optional recovery hint when results are thin (null when there is none)" },
                }),
            ),
            "memory.read" => envelope(
                "The exact stored memory record.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "id": { "type": "string", "description": "Memory UUID" },
                    "content": { "type": "string", "description": "Full memory content" },
                    "galaxy": { "type": "string", "description": "Galaxy containing the memory" },
                    "created_at": { "type": "string", "description": "RFC 3339 creation timestamp" },
                    "tags": { "type": "array", "items": { "type": "string" }, "description": "Memory tags" },
                }),
            ),
            "memory.list" => envelope(
                "A page of memory records with pagination counters.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "galaxy": { "type": "string", "description": "Galaxy scope listed" },
                    "memories": { "type": "array", "items": { "type": "object" }, "description": "Records (id, content_preview, created_at, tags)" },
                    "matched": { "type": "integer", "description": "Total records matching the filter" },
                    "returned": { "type": "integer", "description": "Records in this page" },
                    "total": { "type": "integer", "description": "Total records in scope" },
                    "offset": { "type": "integer", "description": "Pagination offset applied" },
                }),
            ),
            "memory.hybrid_recall" => envelope(
                "Recall results (memory.search implementation) with an evidence bundle and recall-mode disclosure.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "count": { "type": "integer", "description": "Number of results returned" },
                    "galaxy": { "type": "string", "description": "Galaxy scope the query ran against" },
                    "recall_mode": { "type": "string", "description": "Retrieval path used (hybrid, episodic, fts, importance, none)" },
                    "results": { "type": "array", "items": { "type": "object" }, "description": "Ranked memories with per-result source labels" },
                    "evidence_bundle": {
                        "type": "object",
                        "description": "Per-result provenance (coverage, history, integrity, retrieval, source_time, visibility) plus conflicts.",
                    },
                    "hint": { "type": ["string", "null"], "description": "Optional recovery hint when results are thin (null when there is none)" },
                }),
            ),
            "memory.update" => envelope(
                "Update receipt for the modified memory.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "id": { "type": "string", "description": "Memory UUID" },
                    "galaxy": { "type": "string", "description": "Galaxy containing the memory" },
                    "content_hash": { "type": "string", "description": "SHA-256 of the content after the update" },
                    "importance": { "type": "number", "description": "Importance after the update" },
                    "tags": { "type": "array", "items": { "type": "string" }, "description": "Tags after the update" },
                }),
            ),
            "memory.revisions" => envelope(
                "Revision chain for a memory (newest first).",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "id": { "type": "string", "description": "Memory UUID" },
                    "galaxy": { "type": "string", "description": "Galaxy containing the memory" },
                    "action": { "type": "string", "description": "Action performed (list, restore, ...)" },
                    "count": { "type": "integer", "description": "Number of revisions returned" },
                    "revisions": { "type": "array", "items": { "type": "object" }, "description": "Revision records with content hashes and timestamps" },
                }),
            ),
            "memory.ingest" => envelope(
                "Ingest report for the source folder.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "source": { "type": "string", "description": "Source path that was ingested" },
                    "store": { "type": "string", "description": "Store path that received the chunks" },
                    "dry_run": { "type": "boolean", "description": "True when nothing was written" },
                    "files_found": { "type": "integer", "description": "Candidate files discovered" },
                    "files_ingested": { "type": "integer", "description": "Files written to the store" },
                    "files_unchanged": { "type": "integer", "description": "Files skipped as unchanged (ledger match)" },
                    "chunks_written": { "type": "integer", "description": "Chunks written across ingested files" },
                    "redactions": { "type": "integer", "description": "Files whose credential-shaped spans were redacted" },
                    "skipped": { "type": "array", "items": { "type": "object" }, "description": "Skipped files with reasons" },
                    "errors": { "type": "array", "items": { "type": "object" }, "description": "Per-file errors" },
                    "summary": { "type": "string", "description": "One-line human summary of the run" },
                }),
            ),
            "session.start" => envelope(
                "Session identity for the started or resumed session.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "session_id": { "type": "string", "description": "Session UUID to pass to record/checkpoint" },
                    "title": { "type": "string", "description": "Session title" },
                    "user": { "type": "string", "description": "User identifier the session belongs to" },
                }),
            ),
            "session.record" => envelope(
                "Receipt for the recorded turn.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "memory_id": { "type": "string", "description": "Memory UUID of the stored turn" },
                    "session_id": { "type": "string", "description": "Session the turn landed in" },
                    "sequence": { "type": "integer", "description": "Turn position within the session" },
                }),
            ),
            "session.checkpoint" => envelope(
                "Checkpoint receipt with the stored structured handoff.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "checkpoint_id": { "type": "string", "description": "Memory UUID of the checkpoint" },
                    "session_id": { "type": "string", "description": "Session that was checkpointed" },
                    "label": { "type": "string", "description": "Optional checkpoint label" },
                    "handoff": {
                        "type": "object",
                        "description": "Structured handoff (next_queue, open_flags, git, tests_green, lease_id) as supplied.",
                    },
                    "warnings": { "type": "array", "items": { "type": "string" }, "description": "Non-fatal capture warnings" },
                }),
            ),
            "session.continuity" => envelope(
                "Recent turns plus the latest checkpoint handoff for the prior session.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "previous_session": { "type": "string", "description": "Session the turns were read from" },
                    "turns": { "type": "array", "items": { "type": "object" }, "description": "Turns (memory_id, role, turn_type, sequence, content, content_bytes, content_truncated, importance)" },
                    "count": { "type": "integer", "description": "Turns returned" },
                    "turns_omitted": { "type": "integer", "description": "Turns dropped by the response budget" },
                    "truncated": { "type": "boolean", "description": "Whether the response hit its byte budget" },
                    "checkpoint": { "type": ["object", "null"], "description": "Latest checkpoint handoff, or null" },
                    "checkpoint_id": { "type": ["string", "null"], "description": "Memory UUID of the checkpoint, or null" },
                    "max_content_bytes": { "type": "integer", "description": "Per-turn byte cap applied" },
                    "max_response_bytes": { "type": "integer", "description": "Total response byte budget applied" },
                }),
            ),
            "receipts.emit" => envelope(
                "Continuity receipt emission receipt.",
                json!({
                    "status": { "type": "string", "description": "Operation status" },
                    "id": { "type": "string", "description": "Receipt UUID" },
                    "kind": { "type": "string", "description": "Receipt profile (session, karma-chain-head, ...)" },
                    "digest": { "type": "string", "description": "sha256: digest of the signed bundle" },
                    "memory_id": { "type": "string", "description": "Memory UUID the receipt was stored as" },
                    "session_id": { "type": "string", "description": "Session the receipt covers" },
                    "task_id": { "type": "string", "description": "URN identifying the receipted task" },
                    "turn_count": { "type": "integer", "description": "Turns covered by the receipt" },
                    "verdict": { "type": "string", "description": "Local verification verdict (TRUSTED, ...)" },
                }),
            ),
            "receipts.verify" => envelope(
                "Verification report for a receipt or bundle.",
                json!({
                    "id": { "type": "string", "description": "Receipt UUID that was verified" },
                    "require_anchor": { "type": "boolean", "description": "Whether an external anchor was required" },
                    "result": {
                        "type": "object",
                        "description": "Verdict detail: errors, insufficient/provisional reasons, and a summary (attestations, issuers, receipts, settled, terminated, types).",
                    },
                }),
            ),
            _ => json!({
                "type": "object",
                "description": "Result envelope for this tool; fields vary by operation.",
                "additionalProperties": true,
            }),
        }
    }

    /// Handle `tools/list` — `wm` meta-tool plus the discrete lifecycle catalog.
    ///
    /// The `wm` meta-tool is the single entry point for MCP clients. It routes
    /// natural language input to the active tool surface via TF-IDF NLU
    /// classification, or accepts an explicit `route` parameter for direct
    /// dispatch. Use `wm(thought="list tools")` or `wm(route="tools.list")` to
    /// discover available tools. The description reflects the active profile
    /// instead of advertising the full archive surface.
    ///
    /// In Delta (dormant) state, no tools are returned.
    fn handle_tools_list(&self) -> Result<Value, RpcError> {
        let brain_wave = self.eco_mode.current();

        // Delta: system dormant — no tools available
        if brain_wave == wm_core::BrainWave::Delta {
            return Ok(json!({
                "tools": []
            }));
        }

        let mut tools = Vec::new();

        // 1. Expose the wm meta-tool as the primary versatile entrypoint
        if let Some(wm) = self.registry.get("wm") {
            let tool_count = self
                .registry
                .all()
                .iter()
                .filter(|t| {
                    !["wm", "tools.list", "gnosis", "nlu.shadow_report"].contains(&t.name())
                })
                .count();
            let mode_hint = if self.readonly {
                " Mode: READ-ONLY — writes (session.*, memory.create/update) are refused; recall only."
                    .to_string()
            } else {
                " Mode: writable.".to_string()
            };
            let scope = match (&self.project, &self.store_path) {
                (Some(project), Some(store)) => {
                    format!(" Scope: project '{project}', store {store}.")
                }
                (Some(project), None) => format!(" Scope: project '{project}'."),
                (None, Some(store)) => format!(" Scope: store {store}."),
                (None, None) => String::new(),
            };
            let description = format!(
                "WhiteMagic meta-tool — memory and continuity kernel over the {} tool surface ({} tools): persistent memory, session continuity and recall, governance/audit, and local tool execution.{}{} Invoke with thought=<natural language> (auto-routed), route=<exact tool id> (e.g. 'memory.search', 'session.continuity'), or args=<object> (passthrough). Provide exactly one of thought or route. Say 'list tools' to enumerate the curated surface. Prefer a discrete lifecycle tool when one matches your task; use wm for natural-language routing and the wider curated catalog.",
                self.profile_name, tool_count, mode_hint, scope
            );
            let (wm_title, wm_ro, wm_destructive, wm_idem) =
                Self::catalog_annotations("wm", self.readonly);
            // Gemini rejects a root-level `anyOf` in a tool schema ("only
            // allowed for OBJECT type"), so the dispatcher's thought-or-route
            // requirement is disclosed in the description and enforced at
            // dispatch instead (2026-09-22, Gemini/MCP compatibility).
            tools.push(json!({
                "name": wm.name(),
                "title": wm_title,
                "description": description,
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "thought": {
                            "type": "string",
                            "description": "Natural language input describing what to do. Auto-routes to the best-matching tool via TF-IDF NLU classification.",
                        },
                        "route": {
                            "type": "string",
                            "description": "Explicit tool name for direct dispatch (e.g. 'memory.create', 'tools.list').",
                        },
                        "args": {
                            "type": "object",
                            "description": "Arguments to pass through to the target tool.",
                        },
                    },
                },
                "outputSchema": Self::catalog_output_schema("wm"),
                "annotations": {
                    "title": wm_title,
                    "readOnlyHint": wm_ro,
                    "destructiveHint": wm_destructive,
                    "idempotentHint": wm_idem,
                    "openWorldHint": false,
                },
            }));
        }

        // 2. Discrete tool aliases for MCP registry discovery & Glama 5.0 coherence.
        // Provides direct verb_noun tool schemas for automated evaluators and explicit clients.
        let discrete_definitions = [
            (
                "memory.create",
                "memory.create",
                "Store a new memory in the holographic memory core with 5D spatial coordinates and galaxy routing.",
                json!({
                    "type": "object",
                    "properties": {
                        "content": {
                            "type": "string",
                            "description": "Memory text content to record"
                        },
                        "galaxy": {
                            "type": "string",
                            "description": "Target memory galaxy: codex (knowledge), active (working), audit (governance), sessions, etc."
                        },
                        "tags": {
                            "type": "array",
                            "items": { "type": "string" },
                            "description": "Optional categorization tags"
                        },
                        "importance": {
                            "type": "number",
                            "description": "Subjective salience/importance score (0.0 to 1.0)"
                        },
                        "topic": {
                            "type": "string",
                            "description": "Optional topic or domain label"
                        }
                    },
                    "required": ["content"]
                }),
            ),
            (
                "memory.search",
                "memory.search",
                "Search memories: hybrid BM25 + vector fusion with deterministic episodic and full-text fallbacks; each result discloses its recall_mode. The preferred recall tool.",
                json!({
                    "type": "object",
                    "properties": {
                        "query": {
                            "type": "string",
                            "description": "Search query or natural language question"
                        },
                        "galaxy": {
                            "type": "string",
                            "description": "Galaxy to search in, or 'all' for cross-galaxy discovery"
                        },
                        "limit": {
                            "type": "integer",
                            "description": "Maximum number of memories to return (default: 10)"
                        }
                    },
                    "required": ["query"]
                }),
            ),
            (
                "memory.read",
                "memory.read",
                "Retrieve a specific memory by its ID or coordinate address.",
                json!({
                    "type": "object",
                    "properties": {
                        "id": {
                            "type": "string",
                            "description": "Unique identifier of the memory"
                        },
                        "galaxy": {
                            "type": "string",
                            "description": "Galaxy containing the memory"
                        }
                    },
                    "required": ["id"]
                }),
            ),
            (
                "memory.list",
                "memory.list",
                "List memories with filters (galaxy, tags, limit, offset) for browsing and discovery.",
                json!({
                    "type": "object",
                    "properties": {
                        "galaxy": { "type": "string", "description": "Galaxy to list, or omit for all galaxies" },
                        "limit": { "type": "integer", "description": "Maximum number of memories to return" },
                        "offset": { "type": "integer", "description": "Pagination offset" }
                    }
                }),
            ),
            (
                "memory.hybrid_recall",
                "memory.hybrid_recall",
                "Compatibility alias of memory.search — same implementation, same arguments, same results. Kept for clients pinned to this name; prefer memory.search.",
                json!({
                    "type": "object",
                    "properties": {
                        "query": { "type": "string", "description": "Natural language or keyword query" },
                        "galaxy": { "type": "string", "description": "Galaxy to search, or omit for all galaxies" },
                        "limit": { "type": "integer", "description": "Maximum results (default: 10)" }
                    },
                    "required": ["query"]
                }),
            ),
            (
                "session.record",
                "session.record",
                "Record a session turn (decision, breakthrough, summary) so the next session can resume.",
                json!({
                    "type": "object",
                    "properties": {
                        "content": { "type": "string", "description": "Turn content to persist" },
                        "role": { "type": "string", "enum": ["user", "ai"], "description": "Who produced the turn" },
                        "turn_type": {
                            "type": "string",
                            "enum": wm_tools::expansion::session_ops::TURN_TYPES,
                            "description": "Turn type (default message)"
                        },
                        "importance": { "type": "number", "minimum": 0.0, "maximum": 1.0, "description": "0.0 to 1.0 salience" },
                        "session_id": { "type": "string", "description": "Target session (current session when omitted)" },
                        "supersedes": { "type": "string", "description": "Memory id of an earlier turn this record corrects/replaces" },
                        "track": { "type": "string", "description": "Optional track slug (lowercase: a-z0-9 start, then a-z0-9-_. /)" },
                    },
                    "required": ["content"]
                }),
            ),
            (
                "session.continuity",
                "session.continuity",
                "Recall where the previous session left off: recent turns, checkpoints, and open work.",
                json!({
                    "type": "object",
                    "properties": {
                        "n": { "type": "integer", "description": "Number of recent turns to recall (default: 5)" },
                        "since": { "type": "string", "description": "Time filter (epoch seconds | RFC 3339 | YYYY-MM-DD)" },
                        "session_id": { "type": "string", "description": "Target session (current session when omitted)" }
                    }
                }),
            ),
            (
                "session.start",
                "session.start",
                "Start or resume an agent session for persistent continuity across tool invocations.",
                json!({
                    "type": "object",
                    "properties": {
                        "title": {
                            "type": "string",
                            "description": "Session title"
                        },
                        "user": {
                            "type": "string",
                            "description": "User identifier (default 'default')"
                        }
                    }
                }),
            ),
            (
                "memory.update",
                "memory.update",
                "Update an existing memory in place (content, tags, importance, title, topic); a content change appends to the memory's revision chain.",
                json!({
                    "type": "object",
                    "properties": {
                        "id": { "type": "string", "description": "Memory UUID to update" },
                        "content": { "type": "string", "description": "New content (optional)" },
                        "tags": { "type": "array", "items": { "type": "string" }, "description": "Replacement tags (optional)" },
                        "importance": { "type": "number", "minimum": 0.0, "maximum": 1.0, "description": "New importance (optional)" },
                        "title": { "type": "string", "description": "New title (optional; null clears)" },
                        "topic": { "type": "string", "description": "New topic label (optional; null clears)" },
                        "galaxy": { "type": "string", "description": "Galaxy (default: codex)" }
                    },
                    "required": ["id"]
                }),
            ),
            (
                "memory.revisions",
                "memory.revisions",
                "List or verify a memory's content revision chain (tamper evidence): every content update is chained and head-checked.",
                json!({
                    "type": "object",
                    "properties": {
                        "id": { "type": "string", "description": "Memory UUID to inspect" },
                        "action": { "type": "string", "enum": ["list", "verify"], "description": "Action: list (default) | verify" },
                        "galaxy": { "type": "string", "description": "Galaxy (default: codex)" }
                    },
                    "required": ["id"]
                }),
            ),
            (
                "session.checkpoint",
                "session.checkpoint",
                "Save a structured checkpoint (git state, next queue, open flags) so the next session can resume exactly here.",
                json!({
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Target session (default: most recent)" },
                        "label": { "type": "string", "description": "Checkpoint label" },
                        "root": { "type": "string", "description": "Repository root for git auto-capture" },
                        "commit": { "type": "string", "description": "Manual commit hash" },
                        "branch": { "type": "string", "description": "Manual branch name" },
                        "tests_green": { "type": "boolean", "description": "Whether the suite was green" },
                        "next_queue": { "type": "array", "items": { "type": "string" }, "description": "Ordered next steps" },
                        "open_flags": { "type": "array", "items": { "type": "string" }, "description": "Open concerns to surface on resume" },
                        "lease_id": { "type": "string", "description": "Claimed scope (code.claim lease_id) still held" }
                    }
                }),
            ),
            (
                "memory.ingest",
                "memory.ingest",
                "Harvest a folder of documents or session transcripts into the store (idempotent via a SHA-256 ledger; dry-run and redaction on by default).",
                json!({
                    "type": "object",
                    "properties": {
                        "source": { "type": "string", "description": "Directory to harvest recursively" },
                        "dry_run": { "type": "boolean", "default": true, "description": "Report without writing (default true)" },
                        "redact": { "type": "boolean", "default": true, "description": "Redact credential-shaped spans (default true)" },
                        "limit": { "type": "integer", "default": 0, "description": "Only the first N files (0 = all)" },
                        "galaxy": { "type": "string", "description": "Target galaxy (default: sessions)" }
                    },
                    "required": ["source"]
                }),
            ),
            (
                "receipts.emit",
                "receipts.emit",
                "Emit a signed continuity receipt (Ed25519 did:key): session evidence or a karma-chain-head attestation, verifiable offline.",
                json!({
                    "type": "object",
                    "properties": {
                        "kind": { "type": "string", "enum": ["session", "karma_head"], "description": "Bundle kind (default: session)" },
                        "session_id": { "type": "string", "description": "Session UUID (session kind)" },
                        "limit": { "type": "integer", "description": "Maximum turns covered (default 200)" },
                        "out": { "type": "string", "description": "Optional path to write the bundle JSON" }
                    }
                }),
            ),
            (
                "receipts.verify",
                "receipts.verify",
                "Verify a receipt id or a bundle offline; fail-closed without an anchor (verdict PROVISIONAL).",
                json!({
                    "type": "object",
                    "properties": {
                        "id": { "type": "string", "description": "Receipt task id (UUID)" },
                        "bundle": { "type": "object", "description": "Inline bundle to verify (alternative to id)" },
                        "variant": { "type": "string", "description": "Receipt variant (default: original)" },
                        "require_anchor": { "type": "boolean", "description": "Fail-closed without an anchor" }
                    }
                }),
            ),
            (
                "memory.count",
                "memory.count",
                "Count memories matching optional filters without returning content.",
                json!({
                    "type": "object",
                    "properties": {
                        "galaxy": { "type": "string", "description": "Galaxy to count in, or 'all' (default)" },
                        "tags": { "type": "array", "items": { "type": "string" }, "description": "Only count memories carrying these tags" }
                    }
                }),
            ),
            (
                "memory.stats",
                "memory.stats",
                "Memory index statistics: totals, galaxy spread, and index health.",
                json!({ "type": "object", "properties": {} }),
            ),
            (
                "memory.tags",
                "memory.tags",
                "List the tag vocabulary with usage counts.",
                json!({
                    "type": "object",
                    "properties": {
                        "galaxy": { "type": "string", "description": "Limit to one galaxy (default: all)" },
                        "limit": { "type": "integer", "description": "Maximum tags to return" }
                    }
                }),
            ),
            (
                "memory.aggregate",
                "memory.aggregate",
                "Aggregate a numeric or categorical field over matched memories.",
                json!({
                    "type": "object",
                    "properties": {
                        "field": { "type": "string", "description": "Field to aggregate (e.g. importance)" },
                        "op": { "type": "string", "enum": ["count", "sum", "avg", "min", "max"], "description": "Aggregation operator (default: count)" },
                        "galaxy": { "type": "string", "description": "Galaxy filter (default: all)" }
                    }
                }),
            ),
            (
                "memory.associations",
                "memory.associations",
                "Associative neighbours of a memory (spreading activation over the association graph).",
                json!({
                    "type": "object",
                    "properties": {
                        "id": { "type": "string", "description": "Source memory UUID" },
                        "depth": { "type": "integer", "description": "Traversal depth (default: 1)" },
                        "limit": { "type": "integer", "description": "Maximum neighbours to return" }
                    },
                    "required": ["id"]
                }),
            ),
            (
                "memory.batch_read",
                "memory.batch_read",
                "Read several memories by id in one call.",
                json!({
                    "type": "object",
                    "properties": {
                        "ids": { "type": "array", "items": { "type": "string" }, "description": "Memory UUIDs to read" }
                    },
                    "required": ["ids"]
                }),
            ),
            (
                "memory.query",
                "memory.query",
                "Structured query over memories with filters and ordering.",
                json!({
                    "type": "object",
                    "properties": {
                        "query": { "type": "string", "description": "Text query (optional when filters are given)" },
                        "filters": { "type": "object", "description": "Field filters (galaxy, tags, importance range)" },
                        "limit": { "type": "integer", "description": "Maximum results (default: 10)" }
                    }
                }),
            ),
            (
                "memory.filter",
                "memory.filter",
                "Filter memories by metadata (tags, importance, recency).",
                json!({
                    "type": "object",
                    "properties": {
                        "tags": { "type": "array", "items": { "type": "string" }, "description": "Required tags" },
                        "min_importance": { "type": "number", "description": "Minimum importance (0-1)" },
                        "limit": { "type": "integer", "description": "Maximum results (default: 10)" }
                    }
                }),
            ),
            (
                "memory.nearby",
                "memory.nearby",
                "Memories near a coordinate address (5D spatial neighbourhood).",
                json!({
                    "type": "object",
                    "properties": {
                        "id": { "type": "string", "description": "Anchor memory UUID" },
                        "limit": { "type": "integer", "description": "Maximum neighbours (default: 10)" }
                    },
                    "required": ["id"]
                }),
            ),
            (
                "memory.vector.search",
                "memory.vector.search",
                "Vector-similarity search over memory embeddings.",
                json!({
                    "type": "object",
                    "properties": {
                        "query": { "type": "string", "description": "Query text to embed and match" },
                        "limit": { "type": "integer", "description": "Maximum results (default: 10)" }
                    },
                    "required": ["query"]
                }),
            ),
            (
                "session.list",
                "session.list",
                "List sessions with titles and summaries.",
                json!({
                    "type": "object",
                    "properties": {
                        "limit": { "type": "integer", "description": "Maximum sessions (default: 20)" },
                        "since": { "type": "string", "description": "Only sessions active since this date" }
                    }
                }),
            ),
            (
                "session.recall",
                "session.recall",
                "Recall a session's turns without continuity packaging.",
                json!({
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session UUID (default: current)" },
                        "n": { "type": "integer", "description": "Number of recent turns (default: 10)" }
                    }
                }),
            ),
            (
                "session.replay",
                "session.replay",
                "Replay a session's recorded turns in order.",
                json!({
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session UUID to replay" }
                    },
                    "required": ["session_id"]
                }),
            ),
            (
                "gnosis.status",
                "gnosis.status",
                "Knowledge-surface status: galaxies, counts, and index health.",
                json!({ "type": "object", "properties": {} }),
            ),
            (
                "gnosis.explain",
                "gnosis.explain",
                "Explain why a memory or route was selected (provenance readout).",
                json!({
                    "type": "object",
                    "properties": {
                        "id": { "type": "string", "description": "Memory UUID to explain" },
                        "query": { "type": "string", "description": "Query to explain instead" }
                    }
                }),
            ),
        ];

        for (alias, canonical, desc, fallback_schema) in discrete_definitions {
            if let Some(tool) = self.registry.get(canonical) {
                if self.readonly && !tool.effects().writes.is_empty() {
                    // Read-only servers refuse write-class tools at dispatch
                    // time; advertising them would be a lie (2026-09-24).
                    continue;
                }
                if !tool.effects().is_available_in(brain_wave) {
                    continue;
                }
                let schema = tool.input_schema();
                let final_schema = if schema.is_object()
                    && schema
                        .get("properties")
                        .and_then(Value::as_object)
                        .is_some_and(|p| !p.is_empty())
                {
                    schema
                } else {
                    fallback_schema
                };
                // Prefer the discovery copy written for this catalog; the
                // registry description is the fallback.
                let final_desc = if desc.is_empty() {
                    tool.description()
                } else {
                    desc
                };
                let (title, read_only, destructive, idempotent) =
                    Self::catalog_annotations(alias, self.readonly);
                tools.push(json!({
                    "name": alias,
                    "title": title,
                    "description": final_desc,
                    "inputSchema": final_schema,
                    "outputSchema": Self::catalog_output_schema(alias),
                    "annotations": {
                        "title": title,
                        "readOnlyHint": read_only,
                        "destructiveHint": destructive,
                        "idempotentHint": idempotent,
                        "openWorldHint": false,
                    },
                }));
            }
        }

        if tools.is_empty() {
            // Fallback: if wm meta-tool is not registered, list all available tools
            let available = self.registry.available_in(brain_wave);
            let tools: Vec<Value> = available
                .iter()
                .map(|t| {
                    json!({
                        "name": t.name(),
                        "description": t.description(),
                        "inputSchema": {
                            "type": "object",
                            "properties": {
                                "args": {
                                    "type": "object",
                                    "description": "Tool arguments (passthrough).",
                                },
                            },
                        },
                    })
                })
                .collect();
            Ok(json!({ "tools": tools }))
        } else {
            Ok(json!({ "tools": tools }))
        }
    }

    /// Handle `resources/list` — returns all Grimoire chapters and truth table.
    fn handle_resources_list(&self) -> Result<Value, RpcError> {
        let resources = crate::resources::list_resources();
        Ok(json!({
            "resources": resources
        }))
    }

    /// Handle `resources/read` — returns resource contents for a given uri.
    fn handle_resources_read(&self, params: &Value) -> Result<Value, RpcError> {
        let uri = params
            .get("uri")
            .and_then(|u| u.as_str())
            .ok_or_else(|| RpcError {
                code: -32602,
                message: "Missing 'uri' in params".into(),
                data: None,
            })?;

        if let Some(text) = crate::resources::read_resource(uri) {
            Ok(json!({
                "contents": [
                    {
                        "uri": uri,
                        "mimeType": "text/markdown",
                        "text": text
                    }
                ]
            }))
        } else {
            Err(RpcError {
                code: -32602,
                message: format!("Resource not found: {uri}"),
                data: None,
            })
        }
    }

    /// Handle `prompts/list` — returns available prompt templates (MCP 2024-11-05).
    fn handle_prompts_list(&self) -> Result<Value, RpcError> {
        Ok(json!({
            "prompts": [
                {
                    "name": "session_continuity",
                    "description": "Recall project context, key decisions, and where the previous session left off before starting work.",
                    "arguments": [
                        {
                            "name": "scope",
                            "description": "Optional topic or subsystem to focus continuity recall on (e.g. auth, memory, ci).",
                            "required": false
                        }
                    ]
                },
                {
                    "name": "memory_debug",
                    "description": "Ground an error or bug investigation in WhiteMagic episodic memory to retrieve prior solutions and test cases.",
                    "arguments": [
                        {
                            "name": "error_or_topic",
                            "description": "Error message, stack trace snippet, or topic to search past solutions for.",
                            "required": true
                        }
                    ]
                },
                {
                    "name": "dharma_governance_audit",
                    "description": "Review current system governance posture against Ahimsa principles, Landlock boundaries, and recent write audit entries.",
                    "arguments": []
                }
            ]
        }))
    }

    /// Handle `prompts/get` — renders a prompt template with client-supplied arguments.
    fn handle_prompts_get(&self, params: &Value) -> Result<Value, RpcError> {
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| RpcError {
                code: -32602,
                message: "Missing 'name' in params".into(),
                data: None,
            })?;

        let args = params
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| json!({}));

        match name {
            "session_continuity" => {
                let scope = args
                    .get("scope")
                    .and_then(Value::as_str)
                    .unwrap_or("general");
                Ok(json!({
                    "description": "Session continuity recall prompt",
                    "messages": [
                        {
                            "role": "user",
                            "content": {
                                "type": "text",
                                "text": format!("Please recall session continuity for scope '{scope}'. Call session_start or wm(route=\"session.continuity\") to check where we left off, what decisions were recorded in WhiteMagic memory, and what open tasks or active branches need immediate attention.")
                            }
                        }
                    ]
                }))
            }
            "memory_debug" => {
                let err = args
                    .get("error_or_topic")
                    .and_then(Value::as_str)
                    .unwrap_or("error");
                Ok(json!({
                    "description": "Memory-grounded debug investigation prompt",
                    "messages": [
                        {
                            "role": "user",
                            "content": {
                                "type": "text",
                                "text": format!("Investigate this failure grounded in WhiteMagic memory: '{err}'. Call memory.search or wm(route=\"memory.search\") to check prior occurrences, test cases, and solutions before modifying code.")
                            }
                        }
                    ]
                }))
            }
            "dharma_governance_audit" => Ok(json!({
                "description": "Dharma governance posture audit prompt",
                "messages": [
                    {
                        "role": "user",
                        "content": {
                            "type": "text",
                            "text": "Perform a Dharma governance audit: call citta_status or wm(route=\"citta.status\") to check homeostasis health, review recent write audit journal entries, and ensure all system actions adhere to declared effect rows."
                        }
                    }
                ]
            })),
            _ => Err(RpcError {
                code: -32602,
                message: format!("Unknown prompt: {name}"),
                data: None,
            }),
        }
    }

    /// Yama v0 bridge: drain subprocess-sandbox drift incidents and surface
    /// each as a `SandboxObservation` bus event (exactly-once per incident).
    fn emit_sandbox_observations(&self) {
        let Some(sandbox) = self.pipeline.subprocess_sandbox() else {
            return;
        };
        let events = sandbox.drain_events();
        if events.is_empty() {
            return;
        }
        let status = sandbox.status();
        if let Ok(mut bus) = self.gan_ying_bus.lock() {
            for event in events {
                bus.emit(
                    wm_cognitive::EventType::SandboxObservation,
                    "sandbox",
                    event.to_json(&status),
                );
            }
        }
    }

    /// Handle `tools/call` — dispatch through the governance pipeline.
    async fn handle_tools_call(&mut self, params: &Value) -> Result<Value, RpcError> {
        let name = params
            .get("name")
            .and_then(|v| v.as_str())
            .ok_or_else(|| RpcError {
                code: -32602,
                message: "Missing 'name' in params".into(),
                data: None,
            })?;

        let canonical_name =
            wm_tools::expansion::common::canonical_tool_alias(name).unwrap_or(name);

        // Look up the tool — canonical alias, exact name, or underscore/dot translation
        let tool = self
            .registry
            .get(canonical_name)
            .or_else(|| self.registry.get(name))
            .or_else(|| {
                if name.contains('_') {
                    self.registry.get(&name.replace('_', "."))
                } else if name.contains('.') {
                    self.registry.get(&name.replace('.', "_"))
                } else {
                    None
                }
            })
            .ok_or_else(|| RpcError {
                code: -32602,
                message: format!("Unknown tool: '{name}'"),
                data: None,
            })?;

        let mut arguments = params
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| json!({}));

        // Strip _meta from tool arguments — _meta is a top-level MCP request
        // field, not a tool argument. Untrusted callers could inject _meta
        // inside arguments to bypass compartment/identity controls.
        if let Some(obj) = arguments.as_object_mut() {
            obj.remove("_meta");
        }

        let mut ctx = Context::new(self.eco_mode.current());
        // Read-only mode: the dispatch pipeline refuses every tool that
        // declares writes (both direct dispatch and inner `wm` routing).
        ctx.readonly = self.readonly;

        // Extract agent identity from request _meta (MCP standard metadata field)
        if let Some(meta) = params.get("_meta") {
            if let Some(user_id) = meta.get("user_id").and_then(|v| v.as_str()) {
                ctx.user_id = Some(user_id.to_string());
            }
            if let Some(compartment) = meta.get("compartment").and_then(|v| v.as_str()) {
                ctx.compartment = Some(compartment.to_string());
            }
            if let Some(dharma) = meta.get("dharma_profile").and_then(|v| v.as_str()) {
                ctx.dharma_profile = Some(dharma.to_string());
            }
        }

        // Inject citta coherence and valence into the dispatch context
        let (coherence, valence) = self.citta.coherence_valence();
        ctx.citta_coherence = coherence;
        ctx.citta_valence = valence;

        // Inject self-model confidence into the dispatch context
        // The self-model's confidence (0.0–1.0) reflects forecast accuracy
        // and metric stability. Below 0.5 triggers conservative dispatch.
        if let Ok(model) = self.self_model.lock() {
            ctx.self_model_confidence = model.confidence();
        }

        // Inject drive state into the dispatch context
        // Drive bias influences tool selection and dispatch gates
        let drive_bias = {
            if let Ok(drive) = self.drive_core.lock() {
                let bias = drive.bias();
                let state = drive.state();
                ctx.drive_curiosity = state.curiosity;
                ctx.drive_caution = state.caution;
                ctx.drive_energy = state.energy;
                ctx.drive_exploration_weight = bias.exploration_weight;
                ctx.drive_conservative_weight = bias.conservative_weight;
                bias
            } else {
                wm_cognitive::DriveBias {
                    exploration_weight: 0.5,
                    conservative_weight: 0.3,
                    lightweight_weight: 0.2,
                    social_weight: 0.4,
                    confidence: 0.5,
                }
            }
        };

        // Sync timescale bus brain-wave state
        if let Ok(mut bus) = self.timescale_bus.lock() {
            bus.set_brain_wave(self.eco_mode.current());
        }

        let dispatch_start = std::time::Instant::now();

        // ── Gan Ying Bus: emit ToolDispatchStart event ──
        {
            if let Ok(mut bus) = self.gan_ying_bus.lock() {
                bus.emit(
                    wm_cognitive::EventType::ToolDispatchStart,
                    "mcp_server",
                    json!({
                        "tool": name,
                        "brain_wave": format!("{:?}", self.eco_mode.current()),
                    }),
                );
            }
        }

        let arg_size = serde_json::to_vec(&arguments).map_or(0, |v| v.len());
        let dispatch_result = self
            .pipeline
            .dispatch(tool.as_ref(), &mut ctx, arguments)
            .await;
        let dispatch_latency = dispatch_start.elapsed().as_secs_f32();

        // ── Yama v0 bridge: subprocess-sandbox drift incidents → bus ──
        self.emit_sandbox_observations();

        // The `wm` meta-tool reports inner tool failures as structured
        // `{"status":"error", ...}` payloads (Ok at the JSON-RPC level) so
        // NLU clients get readable errors. Derive the true dispatch outcome
        // from that payload so the self-model, friction logging, citta, drive
        // and workspace layers all see inner failures as failures.
        let (success, inner_error) = match (&dispatch_result, name) {
            (Ok(v), "wm") if v.get("status").and_then(Value::as_str) == Some("error") => (
                false,
                v.get("error")
                    .or_else(|| v.get("message"))
                    .and_then(Value::as_str)
                    .map(ToString::to_string),
            ),
            (Ok(_), _) => (true, None),
            (Err(_), _) => (false, None),
        };

        // ── Local install funnel (scope 1): activation milestones ──
        // First `memory.create`/`session.record` success and first
        // `session.continuity` hit with ≥ 1 prior turn are recorded once per
        // store. Writable servers only — read-only/preservation paths write
        // nothing. Evidence stays on-device.
        if success && !self.readonly && !self.preservation_readonly {
            let effective_tool = if name == "wm" {
                dispatch_result
                    .as_ref()
                    .ok()
                    .and_then(|value| value.get("_wm_route"))
                    .and_then(|route| route.get("tool"))
                    .and_then(Value::as_str)
            } else {
                Some(name)
            };
            if let Some(effective_tool) = effective_tool {
                let store_path = self.store.path();
                let root = store_path.parent().unwrap_or(store_path);
                let emitted = wm_tools::expansion::funnel::record_tool_milestone(
                    &self.store,
                    self.search_engine.as_deref(),
                    root,
                    effective_tool,
                    dispatch_result.as_ref().ok(),
                );
                if emitted > 0 {
                    tracing::info!(tool = effective_tool, "local funnel milestone recorded");
                }
            }
        }

        // Record dispatch metrics into self-model for future forecasting
        // (skipped under the freeze pin: no metrics keeps confidence at 0.5).
        if !Self::self_model_frozen() {
            if let Ok(model) = self.self_model.lock() {
                model.record(wm_selfmodel::MetricKind::Latency, dispatch_latency);
                let error_rate = if success { 0.0 } else { 1.0 };
                model.record(wm_selfmodel::MetricKind::ErrorRate, error_rate);
            }
        }

        // Citta heartbeat — post-dispatch consciousness update
        let effectiveness = tool.stats().effectiveness_f32();

        // ── Gan Ying Bus: emit ToolDispatchComplete/Error event ──
        {
            if let Ok(mut bus) = self.gan_ying_bus.lock() {
                let event_type = if success {
                    wm_cognitive::EventType::ToolDispatchSuccess
                } else {
                    wm_cognitive::EventType::ToolDispatchError
                };
                bus.emit(
                    event_type,
                    "mcp_server",
                    json!({
                        "tool": name,
                        "success": success,
                        "latency_ms": dispatch_latency * 1000.0,
                        "effectiveness": effectiveness,
                    }),
                );
            }
        }

        // ── RSI Phase 2: Rich friction logging with telemetry ──
        let error_msg = match &dispatch_result {
            Err(e) => format!("{e}"),
            Ok(_) => inner_error.unwrap_or_default(),
        };
        let tool_stats_snapshot = tool.stats().snapshot();
        let response_size = match &dispatch_result {
            Ok(v) => serde_json::to_vec(v).map_or(0, |v| v.len()),
            Err(_) => 0,
        };
        let telemetry = DispatchTelemetry {
            tool: name.to_string(),
            success,
            latency_ms: dispatch_latency * 1000.0,
            error: error_msg,
            brain_wave: format!("{:?}", self.eco_mode.current()),
            effectiveness,
            karma_debt: ctx.karma_debt,
            self_model_confidence: ctx.self_model_confidence,
            drive_bias_confidence: drive_bias.confidence,
            citta_coherence: ctx.citta_coherence,
            citta_valence: ctx.citta_valence,
            tool_stats: tool_stats_snapshot,
            routed_via_wm: name == "wm",
            arg_size_bytes: arg_size,
            response_size_bytes: response_size,
        };

        if success {
            if self.friction_autolog {
                // Anomaly detection on successful dispatches (suppressed in
                // read-only mode — friction auto-log writes to the store).
                let peak_ms = telemetry.tool_stats.peak_latency_ns as f32 / 1_000_000.0;
                if !self.readonly && peak_ms > 0.0 && telemetry.latency_ms > peak_ms {
                    if let Err(e) = self
                        .friction_auto_log
                        .log_anomaly(&telemetry, "high_latency")
                    {
                        tracing::warn!("Failed to auto-log anomaly entry: {e}");
                    }
                } else if !self.readonly
                    && effectiveness < 0.3
                    && telemetry.tool_stats.call_count > 5
                {
                    // Only flag low_effectiveness after enough calls for a
                    // meaningful success rate. Skip on fresh processes where
                    // stats haven't accumulated yet (avoids false positives).
                    if let Err(e) = self
                        .friction_auto_log
                        .log_anomaly(&telemetry, "low_effectiveness")
                    {
                        tracing::warn!("Failed to auto-log anomaly entry: {e}");
                    }
                } else if !self.readonly && ctx.karma_debt > 0.5 {
                    if let Err(e) = self
                        .friction_auto_log
                        .log_anomaly(&telemetry, "high_karma_debt")
                    {
                        tracing::warn!("Failed to auto-log anomaly entry: {e}");
                    }
                }
            } else if self.readonly {
                // Autolog off: keep the read-only sidecar trace (a file beside
                // the store, not a memory) so failures stay observable
                // without writing the store.
                self.append_friction_ro(&telemetry);
            }
        } else if self.readonly {
            // Failure + read-only: sidecar trace (LMDB friction logging is
            // suppressed in read-only mode).
            self.append_friction_ro(&telemetry);
        } else {
            // FAILURE RECORDING IS DOCTRINE, NOT AUTOLOG NOISE — always on
            // for writable stores (P0.1 pin:
            // e2e_wm_inner_failure_recorded_as_failure_telemetry). Merge
            // resolution 2026-08-31: bea8554's blanket WM_FRICTION_AUTOLOG
            // gate had silenced this branch too; the gate now governs only
            // the success-anomaly branches above. With anomalies gated off
            // the auto-logger initiates no writes in default mode, so the
            // self-amplifying refusal loop bea8554 fixed cannot re-enter
            // through this branch.
            if let Err(e) = self.friction_auto_log.log_error(&telemetry) {
                tracing::warn!("Failed to auto-log friction entry: {e}");
            }
        }

        // WS-3: Bidirectional karma-friction bridge
        // Friction→karma: record a small debt signal only when actual friction occurred
        let had_friction = !success || (effectiveness < 0.3 && telemetry.tool_stats.call_count > 5);
        if had_friction {
            if let Some(ref karma) = self.karma_ledger {
                if let Err(e) = karma.record_friction_signal(name) {
                    tracing::warn!("Failed to record friction signal to karma ledger: {e}");
                }
            }
        }

        // Karma→friction: if total debt exceeds threshold, log governance friction
        if let Some(ref karma) = self.karma_ledger {
            let total_debt = karma.total_debt();
            if total_debt > 2.0 {
                let gov_severity = if total_debt > 3.0 { "high" } else { "medium" };
                let gov_telemetry = DispatchTelemetry {
                    tool: format!("__karma__:{name}"),
                    success: true,
                    latency_ms: 0.0,
                    error: format!("Karma debt threshold exceeded: {total_debt:.2}"),
                    brain_wave: format!("{:?}", self.eco_mode.current()),
                    effectiveness,
                    karma_debt: total_debt,
                    self_model_confidence: ctx.self_model_confidence,
                    drive_bias_confidence: 0.5,
                    citta_coherence: ctx.citta_coherence,
                    citta_valence: ctx.citta_valence,
                    tool_stats: tool.stats().snapshot(),
                    routed_via_wm: false,
                    arg_size_bytes: 0,
                    response_size_bytes: 0,
                };
                let hash = wm_tools::expansion::friction_hash(
                    &gov_telemetry.tool,
                    "governance",
                    gov_severity,
                    &gov_telemetry.error,
                );
                let hash_tag = format!("rsi:hash:{hash}");
                // Only log if no existing governance friction with this hash
                // (and never in read-only mode — the friction log writes).
                if self.friction_autolog
                    && !self.readonly
                    && !wm_tools::expansion::friction_hash_exists(&self.store, &hash_tag)
                {
                    if let Err(e) = self.friction_auto_log.log_error(&gov_telemetry) {
                        tracing::warn!("Failed to auto-log governance friction: {e}");
                    }
                }
            }
        }

        self.citta.beat(success, name, effectiveness);

        // Karma feedback into citta vector
        self.citta.karma_feedback(ctx.karma_debt);

        // ── Deep Integration: Drive events ──
        // Fire drive events based on dispatch outcome
        if let Ok(mut drive) = self.drive_core.lock() {
            let event_kind = if success {
                wm_cognitive::DriveEventKind::ToolSuccess
            } else {
                wm_cognitive::DriveEventKind::ToolError
            };
            drive.process_event(
                &wm_cognitive::DriveEvent::new(event_kind)
                    .with_source(wm_cognitive::DriveEventSource::Dispatch)
                    .with_detail(format!(
                        "{} dispatch: {}",
                        name,
                        if success { "ok" } else { "error" }
                    )),
            );

            // Feed self-model confidence back into drive system
            if ctx.self_model_confidence < 0.5 {
                drive.process_event(
                    &wm_cognitive::DriveEvent::new(wm_cognitive::DriveEventKind::LowConfidence)
                        .with_source(wm_cognitive::DriveEventSource::SelfModel),
                );
            } else if ctx.self_model_confidence > 0.8 {
                drive.process_event(
                    &wm_cognitive::DriveEvent::new(wm_cognitive::DriveEventKind::HighConfidence)
                        .with_source(wm_cognitive::DriveEventSource::SelfModel),
                );
            }
        }

        // ── Deep Integration: Workspace events ──
        // Publish dispatch outcome to global workspace
        if let Ok(mut ws) = self.workspace.lock() {
            let event_type = if success {
                wm_workspace::EventType::Reward
            } else {
                wm_workspace::EventType::Error
            };
            let novelty = if success { 0.3 } else { 0.7 };
            let confidence = drive_bias.confidence;
            ws.publish_simple(
                wm_workspace::CoreId::Dispatch,
                event_type,
                novelty,
                confidence,
                json!({
                    "tool": name,
                    "success": success,
                    "latency_ms": dispatch_latency * 1000.0,
                    "effectiveness": effectiveness,
                }),
            );
        }

        // ── Deep Integration: Autonomic layer (BitMamba) ──
        // Feed dispatch telemetry to the autonomic layer, then pulse
        // to get salience signals. Route signals into drive and workspace.
        if let Some(ref autonomic) = self.autonomic {
            if let Ok(mut autonomic) = autonomic.lock() {
                // Feed telemetry
                autonomic.add_telemetry(
                    "dispatch",
                    &format!(
                        "tool: {}, success: {}, effectiveness: {:.2}, latency: {:.1}ms",
                        name,
                        success,
                        effectiveness,
                        dispatch_latency * 1000.0
                    ),
                );

                // Pulse and route salience signals
                if let Some(signal) = autonomic.pulse() {
                    // Feed into drive events
                    let drive_events =
                        wm_cognitive::AutonomicLayer::signal_to_drive_events(&signal);
                    if let Ok(mut drive) = self.drive_core.lock() {
                        for kind in drive_events {
                            drive.process_event(
                                &wm_cognitive::DriveEvent::new(kind)
                                    .with_source(wm_cognitive::DriveEventSource::Autonomic)
                                    .with_detail(format!(
                                        "autonomic salience: {} ({:.2})",
                                        signal.signal_type, signal.salience_score
                                    )),
                            );
                        }
                    }

                    // Feed into workspace
                    if let Some((event_type, salience)) =
                        wm_cognitive::AutonomicLayer::signal_to_workspace_event(&signal)
                    {
                        if let Ok(mut ws) = self.workspace.lock() {
                            ws.publish_simple(
                                wm_workspace::CoreId::Autonomous,
                                event_type,
                                salience,
                                signal.salience_score,
                                json!({
                                    "signal_type": format!("{}", signal.signal_type),
                                    "salience_score": signal.salience_score,
                                    "novelty": signal.metadata.novelty_ratio,
                                    "diversity": signal.metadata.diversity,
                                }),
                            );
                        }
                    }

                    tracing::debug!(
                        signal_type = %signal.signal_type,
                        salience = signal.salience_score,
                        "Autonomic salience signal"
                    );
                }
            }
        }

        // ── Deep Integration: Bicameral consensus for high-stakes writes ──
        // Run bicameral reasoning after write operations to provide
        // a dual-hemisphere review of the dispatch decision.
        // The wm meta-tool has pure effects, so we inspect the routed tool's
        // effects from the dispatch result's _wm_route metadata.
        if success {
            let routed_tool_has_writes = dispatch_result
                .as_ref()
                .ok()
                .and_then(|r| r.get("_wm_route"))
                .and_then(|r| r.get("tool"))
                .and_then(|t| t.as_str())
                .and_then(|name| self.registry.get(name))
                .is_some_and(|t| !t.effects().writes.is_empty());

            if routed_tool_has_writes {
                if let Ok(bicam) = self.bicameral.lock() {
                    let input = wm_bicameral::HemisphereInput::new("dispatch write review")
                        .with_evidence(vec![format!(
                            "tool: wm, effectiveness: {:.2}, karma_debt: {:.2}",
                            effectiveness, ctx.karma_debt
                        )])
                        .with_context(json!({
                            "confidence": ctx.self_model_confidence,
                            "drive_caution": ctx.drive_caution,
                        }));
                    let consensus = bicam.reason(&input);
                    tracing::info!(
                        verdict = ?consensus.verdict,
                        confidence = consensus.confidence,
                        rounds = consensus.rounds,
                        "Bicameral review of write dispatch"
                    );
                }
            }
        }

        // Presence activity ratio modulates brain-wave transitions
        let activity_ratio = self.citta.presence.activity_ratio();
        let _ = self.eco_mode.apply_presence(activity_ratio);

        // Hardware harmony gates brain-wave transitions (Tiferet)
        // The health score from the Harmony Vector (Lakshmi) caps the
        // maximum brain-wave state — preventing high-power activity
        // when the hardware is under stress.
        let health_score = self.dharma_gate.homeostasis().health_score();
        let _ = self.eco_mode.apply_harmony(health_score);

        // Dream cycles are NOT run on the request path. The daemon
        // (`wm daemon`) owns dream scheduling via DreamCycle::should_run on
        // its interval — running the 12-phase consolidation cycle inline made
        // per-request latency nondeterministic (a full store pass on Theta).

        // ── Deep Integration: Timescale tick ──
        // Tick the timescale bus to execute any due hooks
        // (citta decay, drive decay, consolidation hooks)
        if let Ok(mut bus) = self.timescale_bus.lock() {
            let (executed, timeouts) = bus.tick_all();
            if executed > 0 {
                tracing::debug!(hooks_executed = executed, timeouts, "Timescale bus tick");
            }
        }

        // ── Deep Integration: Homeostatic Loop (N19) + Sensorimotor (Embodiment) ──
        // Sample hardware state, feed into anomaly detector, run homeostatic
        // loop cycle, and emit any corrective actions to the Gan Ying Bus.
        // Also poll the sensorimotor bus and emit SensorFrameReceived events
        // so that subsystems can react to sensor data in real time.
        //
        // Throttled to at most once per second: /proc and /sys sampling on
        // every request added syscall + file I/O overhead to the hot path for
        // near-zero information gain. The daemon also refreshes homeostasis
        // on its own interval.
        let sample_epoch_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis() as u64;
        let last_sample_ms = self
            .last_hardware_sample_ms
            .load(std::sync::atomic::Ordering::Relaxed);
        let should_sample_hardware =
            sample_epoch_ms.saturating_sub(last_sample_ms) >= HARDWARE_SAMPLE_INTERVAL_MS;
        if should_sample_hardware {
            self.last_hardware_sample_ms
                .store(sample_epoch_ms, std::sync::atomic::Ordering::Relaxed);
            let hv = self.substrate.sample();
            if let Ok(mut detector) = self.anomaly_detector.lock() {
                let alerts = detector.check(&hv);
                if let Ok(mut loop_) = self.homeostatic_loop.lock() {
                    let actions = loop_.sample_cycle(&hv, &detector);
                    if !actions.is_empty() {
                        tracing::debug!(
                            actions = actions.len(),
                            alerts = alerts.len(),
                            "Homeostatic loop produced actions"
                        );
                        // Emit actions to Gan Ying Bus
                        if let Ok(mut bus) = self.gan_ying_bus.lock() {
                            for action in &actions {
                                bus.emit(
                                    wm_cognitive::EventType::HarmonyStressDetected,
                                    "homeostatic_loop",
                                    action.to_json(),
                                );
                            }
                        }
                    }
                }
            }

            // Poll sensorimotor bus and emit SensorFrameReceived
            if let Ok(mut sm_bus) = self.sensorimotor_bus.lock() {
                let readings = sm_bus.poll_all();
                if !readings.is_empty() {
                    if let Ok(mut gy) = self.gan_ying_bus.lock() {
                        gy.emit(
                            wm_cognitive::EventType::SensorFrameReceived,
                            "sensorimotor",
                            json!({
                                "sensor_count": readings.len(),
                                "sensors": readings.iter().map(|r| json!({
                                    "id": r.sensor_id,
                                    "kind": r.kind.as_str(),
                                    "value": r.value,
                                })).collect::<Vec<_>>(),
                            }),
                        );
                    }
                }
            }
        }

        // ── Phase 3: write-budget sampling ──
        // Throttled to 5 min: a stat on data.mdb, an occasional Tantivy
        // walk, one tiny JSON persist. The irony tax must not itself be
        // an irony — this is the cheapest honest measurement.
        if !self.readonly && self.write_budget.is_some() {
            let wb_epoch_ms = sample_epoch_ms;
            let last_wb_ms = self
                .last_write_budget_sample_ms
                .load(std::sync::atomic::Ordering::Relaxed);
            if wb_epoch_ms.saturating_sub(last_wb_ms) >= WRITE_BUDGET_SAMPLE_INTERVAL_MS {
                self.last_write_budget_sample_ms
                    .store(wb_epoch_ms, std::sync::atomic::Ordering::Relaxed);
                if let Some(ledger) = &self.write_budget {
                    if let Ok(mut ledger) = ledger.lock() {
                        let delta = ledger.observe(chrono::Utc::now());
                        if delta.attributed_bytes > 0 {
                            tracing::debug!(
                                bytes = delta.attributed_bytes,
                                "write-budget sample attributed store growth"
                            );
                        }
                    }
                }
            }
        }

        // Autonomous cycles (Sensorimotor, Improve, WS-4 proposal surfacing)
        // are NOT run on the request path. The daemon's cycle sweep owns all
        // 8 cycle types on its own interval — running them inline keyed off
        // request counts duplicated the scheduler and added multi-millisecond
        // (dream: multi-second) latency spikes to user requests.

        let mut result = dispatch_result.map_err(|e| {
            // The most common boundary mistake is writing through a
            // --readonly server (session.start, memory.create). Make the
            // refusal actionable instead of a dead end.
            let mut message = self.note_failure_and_escalate(name, &e.to_string());
            if self.readonly && message.contains("read-only") {
                message.push_str(READONLY_HINT);
            }
            RpcError {
                code: -32603,
                message,
                data: None,
            }
        })?;

        // Inner failures routed through the `wm` meta-tool surface as
        // {"status":"error"} payloads (Ok at the JSON-RPC level) so NLU
        // clients can read them. Enrich read-only refusals there too so both
        // dispatch paths carry the same actionable guidance.
        if let Some(obj) = result.as_object_mut() {
            if obj.get("status").and_then(Value::as_str) == Some("error") {
                let inner = obj
                    .get("error")
                    .or_else(|| obj.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                let escalated = self.note_failure_and_escalate(name, &inner);
                for key in ["error", "message"] {
                    if let Some(Value::String(msg)) = obj.get_mut(key) {
                        msg.clone_from(&escalated);
                    }
                }
                if self.readonly {
                    for key in ["error", "message"] {
                        if let Some(Value::String(msg)) = obj.get_mut(key) {
                            if msg.contains("read-only") && !msg.contains("--readonly") {
                                msg.push_str(READONLY_HINT);
                            }
                        }
                    }
                }
            } else {
                // Success breaks any loop.
                self.loop_sig = 0;
                self.loop_count = 0;
            }
        }

        let text = serde_json::to_string_pretty(&result).unwrap_or_else(|_| result.to_string());
        // Tools declare an object outputSchema, so return structuredContent
        // alongside the text block (MCP output-schema contract).
        if result.is_object() {
            Ok(json!({
                "content": [{ "type": "text", "text": text }],
                "structuredContent": result,
            }))
        } else {
            Ok(json!({
                "content": [{ "type": "text", "text": text }],
            }))
        }
    }
}

/// Build the node's Sangha signing keypair.
///
/// Seeded from `WM_MESH_KEY` when set (stable node identity across restarts).
///
/// Derivation is HKDF-SHA256 (`info = "wm/mesh-identity/v1"`, S9 §2.1) over
/// the canonical root bytes since 9.1.8 ([`wm_core::kdf::root_bytes`] —
/// 64-hex material decoded, other material raw), the same root the record
/// attestations derive their subkey from; [`wm_sangha::MeshKeyPair::accepts_identity`]
/// keeps the legacy XOR-fold identity accepted for the one-release
/// dual-verify migration.
/// When unset, a random per-process key is used — the node appears as a fresh
/// identity each restart, but a hardcoded default would be shared by every
/// WhiteMagic node, letting anyone impersonate another node's messages.
///
/// This is the loud variant: the missing-key disclosure belongs to callers
/// that are starting (or about to start) the mesh transport. Constructing
/// the local Sangha chat does not need a stable node identity, so those
/// call sites use [`mesh_signing_key_quiet`] (2026-09-19 review: a new user
/// running an unrelated local command should not be warned about a mesh key
/// they never asked for).
#[must_use]
pub fn mesh_signing_key() -> wm_sangha::MeshKeyPair {
    mesh_signing_key_inner(true)
}

/// [`mesh_signing_key`] without the missing-key warning.
///
/// Same derivation, disclosure at debug — for local chat construction,
/// where the identity is per-process by design and `WM_MESH_KEY` is not
/// actionable.
#[must_use]
pub fn mesh_signing_key_quiet() -> wm_sangha::MeshKeyPair {
    mesh_signing_key_inner(false)
}

fn mesh_signing_key_inner(loud: bool) -> wm_sangha::MeshKeyPair {
    match std::env::var("WM_MESH_KEY") {
        Ok(key) if !key.is_empty() => {
            wm_sangha::MeshKeyPair::derive_identity(&wm_core::kdf::root_bytes(&key))
        }
        _ => {
            if loud {
                tracing::warn!(
                    "WM_MESH_KEY not set — using a random per-process Sangha identity; \
                     set WM_MESH_KEY for a stable node identity across restarts"
                );
            } else {
                tracing::debug!(
                    "WM_MESH_KEY not set — local Sangha chat uses a random per-process \
                     identity (mesh transport not started)"
                );
            }
            let mut seed = [0u8; 32];
            seed[..16].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
            seed[16..].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
            wm_sangha::MeshKeyPair::from_secret(seed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input_validation::MAX_PARAMS_SIZE;
    use std::sync::Arc;

    #[test]
    fn sse_bind_refuses_non_loopback() {
        let loopback: std::net::SocketAddr = "127.0.0.1:18789".parse().unwrap();
        let loopback6: std::net::SocketAddr = "[::1]:18789".parse().unwrap();
        let wildcard: std::net::SocketAddr = "0.0.0.0:18789".parse().unwrap();
        let lan: std::net::SocketAddr = "192.168.1.10:18789".parse().unwrap();
        assert!(validate_sse_bind(&loopback).is_ok());
        assert!(validate_sse_bind(&loopback6).is_ok());
        assert!(validate_sse_bind(&wildcard).is_err());
        assert!(validate_sse_bind(&lan).is_err());
    }

    #[test]
    fn frozen_env_accepts_the_documented_pins_only() {
        for on in ["1", "true"] {
            assert!(
                McpServer::frozen_env(Some(on)),
                "{on:?} must pin the self-model"
            );
        }
        for off in ["0", "false", "yes", "", "TRUE"] {
            assert!(
                !McpServer::frozen_env(Some(off)),
                "{off:?} must not pin the self-model"
            );
        }
        assert!(!McpServer::frozen_env(None));
    }

    #[test]
    fn http_head_parsing_extracts_method_path_and_length() {
        let head = "POST /mcp?x=1 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 42\r\n\r\n";
        let (method, path, length) = parse_http_head(head);
        assert_eq!(method, "POST");
        assert_eq!(path, "/mcp?x=1");
        assert_eq!(length, 42);

        let head = "GET /healthz HTTP/1.1\r\n\r\n";
        let (method, path, length) = parse_http_head(head);
        assert_eq!(method, "GET");
        assert_eq!(path, "/healthz");
        assert_eq!(length, 0);

        let head = "post /mcp HTTP/1.1\r\ncontent-length: 7\r\n\r\n";
        let (method, _, length) = parse_http_head(head);
        assert_eq!(method, "POST"); // uppercased
        assert_eq!(length, 7); // case-insensitive header name
    }

    #[test]
    fn find_subslice_locates_header_terminator() {
        let raw = b"GET / HTTP/1.1\r\nHost: x\r\n\r\nbody";
        let pos = find_subslice(raw, b"\r\n\r\n").unwrap();
        assert_eq!(&raw[pos..], b"\r\n\r\nbody");
        assert!(find_subslice(b"no terminator", b"\r\n\r\n").is_none());
    }

    #[tokio::test]
    async fn status_payload_reports_write_budget_when_present() {
        let mut server = test_server();
        // No ledger attached → /status must degrade to null, not fail.
        let empty = server.status_payload();
        assert_eq!(empty["status"], "ok");
        assert!(empty["write_budget"].is_null(), "got: {empty}");

        // Attach a ledger over a fake store with real growth (Phase 3 wiring
        // shape: writable servers only).
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        std::fs::create_dir_all(root.join("lmdb/tantivy")).unwrap();
        std::fs::write(root.join("lmdb/data.mdb"), vec![0u8; 4096]).unwrap();
        let ledger = Arc::new(std::sync::Mutex::new(
            wm_substrate::write_budget::WriteBudgetLedger::load(&root),
        ));
        {
            let mut l = ledger.lock().unwrap();
            l.observe(chrono::Utc::now());
        }
        std::fs::write(root.join("lmdb/data.mdb"), vec![0u8; 8192]).unwrap();
        {
            let mut l = ledger.lock().unwrap();
            l.observe(chrono::Utc::now());
        }
        server.write_budget = Some(ledger);
        server.readonly = false;

        let payload = server.status_payload();
        assert_eq!(
            payload["write_budget"]["report"]["today_bytes"], 4096,
            "got: {payload}"
        );
        assert_eq!(payload["write_budget"]["report"]["lmdb_bytes"], 8192);
        assert!(payload["harmony"]["health_score"].is_number());
    }

    #[tokio::test]
    async fn status_payload_on_readonly_server_has_null_write_budget() {
        let mut server = test_server();
        server.readonly = true;
        let payload = server.status_payload();
        assert_eq!(payload["readonly"], true);
        assert!(payload["write_budget"].is_null());
    }

    #[tokio::test]
    async fn status_payload_discloses_landlock_report_when_attached() {
        let mut server = test_server();
        assert!(payload_landlock_is_null(&server), "default is off/null");

        let mut report = crate::landlock_sandbox::LandlockReport::off(std::path::Path::new("/x"));
        report.enabled = true;
        report.outcome = crate::landlock_sandbox::LandlockOutcome::Enforced;
        report.detail = "test".into();
        server.set_landlock_report(report);

        let payload = server.status_payload();
        assert_eq!(payload["landlock"]["enabled"], true, "got: {payload}");
        assert_eq!(payload["landlock"]["outcome"], "enforced");
        assert_eq!(payload["landlock"]["store_root"], "/x");
    }

    fn payload_landlock_is_null(server: &McpServer) -> bool {
        server.status_payload()["landlock"].is_null()
    }

    #[tokio::test]
    async fn status_payload_discloses_subprocess_sandbox() {
        // B2: the pipeline always carries the subprocess registry in the
        // server construction path; `/status` must disclose the runner
        // resolution and counters (including the inactive state).
        let server = test_server();
        let payload = server.status_payload();
        let sandbox = &payload["subprocess_sandbox"];
        assert!(!sandbox.is_null(), "got: {payload}");
        assert_eq!(sandbox["envelope"], "wm-sandbox-exec-v1");
        assert_eq!(sandbox["active"], false, "test server has no runner");
        assert!(sandbox["runner"].is_null());
        assert!(sandbox["dispatches"].is_number());
        assert!(sandbox["degraded"].is_number());
        assert!(sandbox["unconfined_spawns"].is_number());
    }

    #[tokio::test]
    async fn sandbox_drift_emits_bus_observation() {
        // Yama v0 bridge: a drift incident recorded on the pipeline's
        // registry must surface as exactly one SandboxObservation bus event.
        let server = test_server();
        let sandbox = server
            .pipeline
            .subprocess_sandbox()
            .expect("test server carries the subprocess registry");
        sandbox.note_unconfined_spawn("test.spawn");
        server.emit_sandbox_observations();

        {
            let (tool, kind) = {
                let bus = server.gan_ying_bus.lock().unwrap();
                let recent = bus.recent_events(10);
                let hit = recent
                    .iter()
                    .find(|e| e.event_type == wm_cognitive::EventType::SandboxObservation)
                    .expect("sandbox_observation on the bus");
                let values = (hit.payload["tool"].clone(), hit.payload["kind"].clone());
                drop(recent);
                drop(bus);
                values
            };
            assert_eq!(tool, "test.spawn");
            assert_eq!(kind, "unconfined_spawn");
        }

        // Exactly-once: a second drain emits nothing new.
        server.emit_sandbox_observations();
        let count = server
            .gan_ying_bus
            .lock()
            .unwrap()
            .recent_events(20)
            .iter()
            .filter(|e| e.event_type == wm_cognitive::EventType::SandboxObservation)
            .count();
        assert_eq!(count, 1);
    }

    /// Store path for tests: a nested dir inside the tempdir so that
    /// `store.path().parent()` (where self_model.json etc. live) stays inside
    /// the tempdir. Passing the tempdir root directly made those files land
    /// in the shared `/tmp` — cross-test pollution of self_model.json.
    fn test_store_path(tmp: &tempfile::TempDir) -> std::path::PathBuf {
        let dir = tmp.path().join("lmdb");
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Build only the existing LMDB and Tantivy artifacts required by a
    /// read-only open. This intentionally avoids the writable server
    /// constructor so readonly tests can prove it creates no profile receipt.
    fn initialize_readonly_store(store: &std::path::Path) {
        drop(MemoryStore::open_default(store).unwrap());
        let index = store.join("tantivy");
        std::fs::create_dir_all(&index).unwrap();
        drop(SearchEngine::open(index).unwrap());
    }

    /// Snapshot the complete synthetic fixture tree. `lmdb/lock.mdb` is the
    /// one explicitly characterized reader-lock exception; no other path is
    /// omitted, including empty directories and derived-index artifacts.
    fn snapshot_preservation_tree(
        root: &std::path::Path,
    ) -> std::collections::BTreeMap<std::path::PathBuf, (bool, u64, String)> {
        fn visit(
            root: &std::path::Path,
            current: &std::path::Path,
            out: &mut std::collections::BTreeMap<std::path::PathBuf, (bool, u64, String)>,
        ) {
            for entry in std::fs::read_dir(current).unwrap() {
                let entry = entry.unwrap();
                let path = entry.path();
                let relative = path.strip_prefix(root).unwrap().to_path_buf();
                if relative == std::path::Path::new("lmdb/lock.mdb") {
                    continue;
                }
                let metadata = entry.metadata().unwrap();
                if metadata.is_dir() {
                    out.insert(relative, (true, 0, String::new()));
                    visit(root, &path, out);
                } else {
                    use sha2::{Digest as _, Sha256};
                    let contents = std::fs::read(&path).unwrap();
                    out.insert(
                        relative,
                        (
                            false,
                            metadata.len(),
                            format!("{:x}", Sha256::digest(contents)),
                        ),
                    );
                }
            }
        }
        let mut snapshot = std::collections::BTreeMap::new();
        visit(root, root, &mut snapshot);
        snapshot
    }

    fn test_server() -> McpServer {
        let tmp = tempfile::tempdir().unwrap();
        let store = Arc::new(MemoryStore::open_default(tmp.path()).unwrap());
        let tantivy_path = tmp.path().join("tantivy");
        std::fs::create_dir_all(&tantivy_path).unwrap();
        let search = Arc::new(SearchEngine::open(&tantivy_path).unwrap());
        let karma_ledger = Arc::new(KarmaLedger::new(store.clone()).unwrap());
        let dharma_gate = Arc::new(DharmaGate::default());
        let substrate = Arc::new(SubstrateMonitor::default());
        let resource_rules = Arc::new(ResourceRules::new(resource_rules_config_from_env()));

        let associations = Arc::new(AssociationStore::open(store.env()).unwrap());
        let spiral_tracker =
            Arc::new(std::sync::Mutex::new(wm_cognitive::SpiralTracker::default()));
        let vector_store = Arc::new(std::sync::Mutex::new(wm_memory::VectorStore::new()));
        let conformal_store = Arc::new(std::sync::Mutex::new(
            wm_tools::expansion::conformal::ConformalStore::new(),
        ));

        // v4 subsystems
        let mut reflex_table = wm_cognitive::ReflexDispatchTable::permissive();
        wm_cognitive::reflex::builtins::register_builtins(&mut reflex_table);
        let reflex_table = Arc::new(std::sync::Mutex::new(reflex_table));
        let timescale_bus = Arc::new(std::sync::Mutex::new(wm_cognitive::TimescaleBus::default()));
        let workspace = Arc::new(std::sync::Mutex::new(wm_workspace::GlobalWorkspace::new()));
        let self_model = Arc::new(std::sync::Mutex::new(wm_selfmodel::SelfModel::new()));

        // R5: bicameral engine
        let right = Arc::new(wm_bicameral::RightHemisphereStub::new())
            as Arc<dyn wm_bicameral::RightHemisphere>;
        let bicameral = Arc::new(std::sync::Mutex::new(wm_bicameral::BicameralEngine::new(
            wm_bicameral::BicameralConfig::default(),
            Some(right),
        )));

        // R7: drive core
        let drive_core = Arc::new(std::sync::Mutex::new(DriveCore::new()));

        let registry = ToolRegistry::new();
        let recall_engine = {
            let embedder: Arc<dyn Embedder> = create_embedder().into();
            let episodic_rerank_only =
                std::env::var("WM_EPISODIC_RERANK_ONLY").is_ok_and(|v| v == "1" || v == "true");

            // Enable vocabulary enrichment by default for episodic search.
            store.set_episodic_enrichment(
                wm_memory::enrichment::VocabularyEnrichment::with_defaults(),
            );

            if episodic_rerank_only && embedder.is_available() && embedder.backend_name() != "stub"
            {
                store.set_episodic_embedder(embedder.clone());
                let stub: Arc<dyn Embedder> = Arc::new(StubEmbedder::default());
                let recall = RecallEngine::new(
                    store.clone(),
                    search.clone(),
                    VectorStore::new(),
                    stub,
                    RecallConfig::default(),
                )
                .unwrap();
                Arc::new(recall)
            } else {
                if embedder.is_available() && embedder.backend_name() != "stub" {
                    store.set_episodic_embedder(embedder.clone());
                }
                let recall = RecallEngine::new(
                    store.clone(),
                    search.clone(),
                    VectorStore::new(),
                    embedder,
                    RecallConfig::default(),
                )
                .unwrap();
                Arc::new(recall)
            }
        };
        let recall_for_tools = if recall_engine.embedder_is_real() {
            Some(recall_engine.clone())
        } else {
            None
        };
        let conversational = Some(ConversationalSearch::with_defaults(recall_engine));
        // N19-N20: Homeostatic Loop + Anomaly Detector — created early so they
        // can be shared between register_all (homeostasis tools) and the server state.
        let homeostatic_loop = Arc::new(std::sync::Mutex::new(HomeostaticLoop::default()));
        let anomaly_detector = Arc::new(std::sync::Mutex::new(AnomalyDetector::default()));

        let test_search = search.clone();
        let test_transaction_state: wm_tools::expansion::TransactionState =
            Arc::new(std::sync::Mutex::new(None));
        let circuit_breakers = Arc::new(wm_dispatch::CircuitBreakerRegistry::default());
        let registry = wm_tools::register_all(
            &registry,
            &store,
            Some(search),
            Some(karma_ledger.clone()),
            &Some(dharma_gate.clone()),
            Some(substrate.clone()),
            &Some(resource_rules.clone()),
            associations.clone(),
            spiral_tracker,
            vector_store,
            conversational,
            recall_for_tools,
            Some(Arc::clone(&homeostatic_loop)),
            Some(Arc::clone(&anomaly_detector)),
            None,
            None,
            None,
            None,
            test_transaction_state.clone(),
            None,
            None,
            None,
            wm_tools::expansion::RegistryPersistenceMode::Normal,
            circuit_breakers.clone(),
        );
        // Mirror the real construction: memory.ingest lives in wm-mcp and is
        // part of the curated catalog, so the test server registers it too.
        let registry = registry.register(std::sync::Arc::new(
            crate::ingest_tool::MemoryIngestTool::new(tmp.path()),
        ));
        let registry = wm_tools::expansion::v4::register_v4(
            &registry,
            Arc::clone(&reflex_table),
            Arc::clone(&timescale_bus),
            Arc::clone(&workspace),
        );
        let registry =
            wm_tools::expansion::selfmodel::register_selfmodel(&registry, Arc::clone(&self_model));
        let registry = wm_tools::expansion::conformal::register_conformal(
            &registry,
            Arc::clone(&conformal_store),
            Some(Arc::clone(&self_model)),
        );
        let registry = wm_tools::expansion::bicameral::register_bicameral(
            &registry,
            &store,
            Arc::clone(&bicameral),
            None,
            None,
            None,
        );
        let registry =
            wm_tools::expansion::drive::register_drive(&registry, Arc::clone(&drive_core));

        // N16-N21: New subsystems — Gan Ying Bus, Sangha Mesh, Simulation
        let gan_ying_bus = Arc::new(std::sync::Mutex::new(GanYingBus::default()));
        let peer_discovery = Arc::new(std::sync::Mutex::new(PeerDiscovery::default()));
        let signal_broadcast = Arc::new(std::sync::Mutex::new(SignalBroadcast::new(100)));
        // Sangha chat signs every message with the node's Ed25519
        // keypair, so peers can verify authorship and identity binding —
        // the trust primitive agent message boards require (cf. the July
        // 2026 agent-incident reporting).
        let sangha_chat = Arc::new(std::sync::Mutex::new(
            SanghaChat::new(100).with_signing_key(mesh_signing_key_quiet()),
        ));
        let lock_manager = Arc::new(std::sync::Mutex::new(ResourceLockManager::default()));

        let registry = wm_tools::expansion::resonance::register_resonance(
            &registry,
            Arc::clone(&gan_ying_bus),
        );
        let registry = wm_tools::expansion::sangha_tools::register_sangha(
            &registry,
            Arc::clone(&peer_discovery),
            Arc::clone(&signal_broadcast),
            Arc::clone(&sangha_chat),
            Arc::clone(&lock_manager),
        );
        let registry = wm_tools::expansion::mesh_tools::register_sangha_mesh(
            &registry,
            wm_sangha::MeshSlot::new(),
        );
        let calibration_store =
            Arc::new(std::sync::Mutex::new(wm_simulation::CalibrationStore::new()));
        let registry = wm_tools::expansion::simulation_tools::register_simulation(
            &registry,
            Some(Arc::clone(&calibration_store)),
            Some(Arc::clone(&self_model)),
        );
        let claims_ledger = Arc::new(std::sync::Mutex::new(wm_simulation::ClaimsLedger::new()));
        let registry = wm_tools::expansion::claims_tools::register_claims(
            &registry,
            Some(Arc::clone(&claims_ledger)),
            None,
        );
        let registry = wm_tools::expansion::bayesian_tools::register_bayesian(&registry);

        let test_shadow_stats = Arc::new(std::sync::RwLock::new(
            wm_tools::embedding_router::ShadowModeStats::default(),
        ));

        // Build the pipeline BEFORE the meta-tools so the wm meta-tool's inner
        // dispatch is governance-gated (destructive confirm, dharma, rate limit).
        let write_audit = Arc::new(wm_governance::WriteAuditJournal::new(store.clone()).unwrap());
        let pipeline = Arc::new(
            DispatchPipeline::new(
                Arc::new(wm_dispatch::RateLimiter::default()),
                circuit_breakers,
                dharma_gate.clone(),
                Some(karma_ledger.clone()),
            )
            .with_resource_rules(resource_rules.clone())
            .with_write_gate(Arc::new(wm_dispatch::write_gate::WriteGate::new(
                store.clone(),
            )))
            .with_write_audit(write_audit)
            // B2 registry with a deterministic inactive runner so status
            // disclosure is testable without host env/PATH dependence.
            .with_subprocess_sandbox(Some(std::sync::Arc::new(
                wm_dispatch::SubprocessSandbox::with_runner(None),
            ))),
        );
        let (registry, _router) = wm_tools::register_meta_tools_with_router(
            &registry,
            &store,
            test_shadow_stats.clone(),
            Some(pipeline.clone()),
        );

        let friction_auto_log =
            Arc::new(FrictionAutoLogTool::new(store.clone(), Some(test_search)));

        McpServer::new(
            registry,
            pipeline,
            EcoModeController::default(),
            store,
            associations,
            substrate,
            dharma_gate,
            resource_rules,
            reflex_table,
            timescale_bus,
            workspace,
            self_model,
            bicameral,
            drive_core,
            None,
            gan_ying_bus,
            peer_discovery,
            signal_broadcast,
            sangha_chat,
            lock_manager,
            homeostatic_loop,
            anomaly_detector,
            Arc::new(std::sync::Mutex::new(SensorimotorBus::default())),
            Arc::new(std::sync::Mutex::new(ReflexLoop::new())),
            friction_auto_log,
            Some(karma_ledger),
            test_transaction_state,
            None,
            test_shadow_stats,
        )
    }

    #[tokio::test]
    async fn initialize_returns_server_info() {
        let mut server = test_server();
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(1)),
            method: "initialize".into(),
            params: json!({}),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_none());
        let result = resp.result.unwrap();
        assert_eq!(result["serverInfo"]["name"], "whitemagic");
        assert!(result["capabilities"]["tools"].is_object());
        // G1.6: the session rhythm must be delivered via server instructions.
        let instructions = result["instructions"]
            .as_str()
            .expect("instructions present");
        for expected in [
            "session.continuity",
            "session.start",
            "session.record",
            "turn_type",
            "session.checkpoint",
            "tools.list",
            "not encrypted",
            "Back up",
            "wm ingest",
        ] {
            assert!(
                instructions.contains(expected),
                "instructions must mention {expected}"
            );
        }
        // Phase 2 coordination stanza: the protocol ships on every
        // handshake; tool usage is advertised only when registered.
        for expected in [
            "one writer per checkout",
            "Claim a scope before shared-tree edits",
            "lease_id",
        ] {
            assert!(
                instructions.contains(expected),
                "coordination stanza must mention {expected}"
            );
        }
    }

    #[tokio::test]
    async fn initialize_advertises_code_claim_only_when_registered() {
        let mut server = test_server();
        assert!(
            server.registry.get("code.claim").is_some(),
            "test server builds the full registry, so coordination tools register"
        );
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(1)),
            method: "initialize".into(),
            params: json!({}),
        };
        let resp = server.handle(&req).await;
        let instructions = resp.result.unwrap()["instructions"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            instructions.contains("code.claim")
                && instructions.contains("coordination signals, not locks"),
            "full-surface servers must advertise the coordination tools, got: {instructions}"
        );

        // Gating logic: drop the code.* tools (what profile filtering does
        // on the curated surface) and the usage line must vanish.
        let mut builder = wm_dispatch::ToolRegistryBuilder::new();
        for tool in server.registry.all() {
            if !tool.name().starts_with("code.") {
                builder.register(tool);
            }
        }
        server.registry = builder.build();
        let resp = server.handle(&req).await;
        let result = resp.result.unwrap();
        let instructions = result["instructions"].as_str().unwrap();
        assert!(
            !instructions.contains("code.claim"),
            "usage line must not appear when the tool is absent (curated profile), got: {instructions}"
        );
        // The protocol rules themselves stay — they are zero-code.
        assert!(instructions.contains("one writer per checkout"));
    }

    #[tokio::test]
    async fn tools_list_exposes_meta_tool_and_lifecycle_catalog() {
        let mut server = test_server();
        // Trigger an event to move from Delta to Beta
        let _ = server.eco_mode.record_event();
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(2)),
            method: "tools/list".into(),
            params: json!({}),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_none());
        let result = resp.result.unwrap();
        let tools = result["tools"].as_array().unwrap().clone();
        // The wm meta-tool is first, followed by discrete tool aliases for MCP discovery
        assert!(!tools.is_empty());
        assert_eq!(tools[0]["name"], "wm");
        // 30 total: the meta-tool + 29 discrete aliases (writable catalog;
        // expanded 2026-09-24 with read-only memory/session/gnosis reads).
        assert_eq!(tools.len(), 30, "catalog shape changed: {tools:?}");
        assert!(tools.iter().any(|t| t["name"] == "memory.search"));
        assert!(tools.iter().any(|t| t["name"] == "memory.create"));
        for expected in [
            "memory.list",
            "memory.hybrid_recall",
            "memory.update",
            "memory.revisions",
            "memory.ingest",
            "session.start",
            "session.record",
            "session.checkpoint",
            "session.continuity",
            "receipts.emit",
            "receipts.verify",
            "memory.count",
            "memory.stats",
            "memory.tags",
            "memory.aggregate",
            "memory.associations",
            "memory.batch_read",
            "memory.query",
            "memory.filter",
            "memory.nearby",
            "memory.vector.search",
            "session.list",
            "session.recall",
            "session.replay",
            "gnosis.status",
            "gnosis.explain",
        ] {
            assert!(
                tools.iter().any(|t| t["name"] == expected),
                "lifecycle catalog should expose {expected}"
            );
        }
        // Legacy underscore/dotted aliases remain callable even though the
        // exposed discrete names are canonical (first-run feedback 2026-09-13).
        assert_eq!(
            wm_tools::expansion::common::canonical_tool_alias("memory_find"),
            Some("memory.search")
        );
        assert_eq!(
            wm_tools::expansion::common::canonical_tool_alias("memory.find"),
            Some("memory.search")
        );
        assert_eq!(
            wm_tools::expansion::common::canonical_tool_alias("session_continuity"),
            Some("session.continuity")
        );
        assert_eq!(
            wm_tools::expansion::common::canonical_tool_alias("memory_hybrid_recall"),
            Some("memory.hybrid_recall")
        );
        assert!(tools[0]["inputSchema"].is_object());
        // Gemini rejects a root-level `anyOf` ("only allowed for OBJECT
        // type"), so the schema carries plain optional properties and the
        // thought-or-route requirement is disclosed in the description
        // (2026-09-22, Gemini/MCP compatibility).
        assert!(
            tools[0]["inputSchema"].get("anyOf").is_none(),
            "wm inputSchema must not carry a root-level anyOf: {tools:?}"
        );
        let wm_desc = tools[0]["description"].as_str().unwrap_or_default();
        assert!(
            wm_desc.contains("exactly one of thought or route"),
            "wm discovery must disclose the thought-or-route requirement: {wm_desc}"
        );
        assert!(tools[0]["inputSchema"]["properties"]["thought"].is_object());
        assert!(tools[0]["inputSchema"]["properties"]["route"].is_object());
        // Discovery metadata: every catalog entry carries annotations and
        // an outputSchema (Smithery/Glama tool-quality surface).
        for t in &tools {
            let ann = t["annotations"].as_object().expect("annotations object");
            assert!(ann["readOnlyHint"].is_boolean(), "readOnlyHint: {t}");
            assert!(ann["destructiveHint"].is_boolean(), "destructiveHint: {t}");
            assert!(ann["idempotentHint"].is_boolean(), "idempotentHint: {t}");
            assert!(ann["openWorldHint"].is_boolean(), "openWorldHint: {t}");
            assert!(ann["title"].is_string(), "title: {t}");
            assert!(t["outputSchema"].is_object(), "outputSchema: {t}");
            assert!(t["title"].is_string(), "top-level title: {t}");
        }
        // Discovery metadata depth (2026-09-24): catalog outputSchemas name
        // the stable result fields per tool (machine metadata, not a generic
        // open object) while staying open for envelope growth.
        for (tool_name, fields) in [
            ("wm", vec!["_wm_route"]),
            ("memory.create", vec!["id", "galaxy", "content_hash"]),
            ("memory.search", vec!["count", "recall_mode", "results"]),
            ("memory.read", vec!["id", "content", "galaxy"]),
            ("memory.list", vec!["memories", "matched", "returned"]),
            (
                "memory.hybrid_recall",
                vec!["count", "recall_mode", "evidence_bundle"],
            ),
            ("memory.update", vec!["id", "importance", "content_hash"]),
            ("memory.revisions", vec!["id", "revisions", "count"]),
            (
                "memory.ingest",
                vec!["files_found", "files_ingested", "chunks_written"],
            ),
            ("session.start", vec!["session_id", "status"]),
            (
                "session.record",
                vec!["memory_id", "session_id", "sequence"],
            ),
            (
                "session.checkpoint",
                vec!["checkpoint_id", "session_id", "handoff"],
            ),
            (
                "session.continuity",
                vec!["turns", "checkpoint", "previous_session"],
            ),
            ("receipts.emit", vec!["id", "digest", "verdict"]),
            ("receipts.verify", vec!["id", "result"]),
        ] {
            let entry = tools
                .iter()
                .find(|t| t["name"] == tool_name)
                .unwrap_or_else(|| panic!("{tool_name} missing from catalog"));
            let props = entry["outputSchema"]["properties"]
                .as_object()
                .unwrap_or_else(|| panic!("{tool_name} outputSchema.properties missing"));
            for field in fields {
                assert!(
                    props.contains_key(field),
                    "{tool_name} outputSchema must describe '{field}': {entry}"
                );
            }
            assert!(
                entry["outputSchema"]["additionalProperties"] == true,
                "{tool_name} outputSchema must stay open: {entry}"
            );
        }
        // Nullable contract fields (2026-09-27, issue #4): `hint` is null on
        // the calm path (no recovery suggestion). The advertised schema must
        // allow null, or strict clients reject the whole result (-32602:
        // "data/hint must be string") even though the retrieval succeeded.
        for tool_name in ["memory.search", "memory.hybrid_recall"] {
            let entry = tools
                .iter()
                .find(|t| t["name"] == tool_name)
                .unwrap_or_else(|| panic!("{tool_name} missing from catalog"));
            let hint_types = entry["outputSchema"]["properties"]["hint"]["type"]
                .as_array()
                .unwrap_or_else(|| panic!("{tool_name} hint.type must be a type array: {entry}"));
            assert!(
                hint_types.iter().any(|t| t == "null"),
                "{tool_name} hint must allow null (the no-hint path returns null): {entry}"
            );
        }
        // Discovery parity (2026-09-22): exposed lifecycle schemas must carry
        // the real tool parameters, not the historical fallback copies
        // (session.start used to advertise session_id/topic, which the tool
        // does not accept).
        for (tool_name, params) in [
            ("memory.create", vec!["content", "source", "title"]),
            (
                "memory.search",
                vec!["query", "include_cold", "min_importance"],
            ),
            ("memory.list", vec!["limit", "exclude_tags"]),
            ("memory.read", vec!["id"]),
            ("memory.hybrid_recall", vec!["query"]),
            ("session.start", vec!["title", "user"]),
            ("session.record", vec!["turn_type", "track"]),
            ("session.continuity", vec!["n", "max_content_bytes"]),
        ] {
            let entry = tools
                .iter()
                .find(|t| t["name"] == tool_name)
                .unwrap_or_else(|| panic!("{tool_name} missing from the catalog"));
            let props = entry["inputSchema"]["properties"]
                .as_object()
                .unwrap_or_else(|| panic!("{tool_name} has no properties"));
            for param in params {
                assert!(
                    props.contains_key(param),
                    "{tool_name} schema must expose '{param}': {entry}"
                );
            }
        }
        let search = tools.iter().find(|t| t["name"] == "memory.search").unwrap();
        assert_eq!(search["annotations"]["readOnlyHint"], true);
        assert_eq!(search["annotations"]["destructiveHint"], false);
        assert_eq!(tools[0]["annotations"]["destructiveHint"], true);
        assert_eq!(tools[0]["annotations"]["openWorldHint"], false);

        let description = tools[0]["description"].as_str().unwrap();
        assert!(
            description.contains("meta-tool") && description.contains("tool surface"),
            "tools/list description should describe the active surface, got: {description}"
        );
        // The count must be the live active-registry count, not a hardcoded
        // archive size — this assertion survives tool additions. (The
        // curated-profile counterpart lives in
        // tools_list_reflects_active_profile; here the full surface
        // legitimately reports its own count.)
        let expected_count = server
            .registry
            .all()
            .iter()
            .filter(|t| !["wm", "tools.list", "gnosis", "nlu.shadow_report"].contains(&t.name()))
            .count();
        assert!(
            description.contains(&format!("({expected_count} tools)")),
            "description must report the live active count ({expected_count}), got: {description}"
        );
    }

    /// JSON-Schema-subset validator for the advertised `outputSchema`
    /// contracts (type/properties/required/items; `additionalProperties:
    /// true` everywhere, so unknown fields pass).
    fn assert_value_matches_schema(schema: &Value, value: &Value, path: &str) {
        if let Some(types) = schema.get("type") {
            let matches = match types {
                Value::String(t) => type_matches(t, value),
                Value::Array(list) => list
                    .iter()
                    .any(|t| t.as_str().is_some_and(|t| type_matches(t, value))),
                _ => true,
            };
            assert!(
                matches,
                "{path}: value {value} does not match schema type {types}"
            );
        }
        if let Some(obj) = value.as_object() {
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (key, sub) in props {
                    if let Some(v) = obj.get(key) {
                        assert_value_matches_schema(sub, v, &format!("{path}.{key}"));
                    }
                }
            }
            if let Some(required) = schema.get("required").and_then(Value::as_array) {
                for req in required.iter().filter_map(Value::as_str) {
                    assert!(
                        obj.contains_key(req),
                        "{path}: required property '{req}' missing from {value}"
                    );
                }
            }
        }
        if let Some(items) = schema.get("items") {
            if let Some(list) = value.as_array() {
                for (i, v) in list.iter().enumerate() {
                    assert_value_matches_schema(items, v, &format!("{path}[{i}]"));
                }
            }
        }
    }

    fn type_matches(json_type: &str, value: &Value) -> bool {
        match json_type {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "number" => value.is_number(),
            "integer" => value.is_i64() || value.is_u64(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            _ => true,
        }
    }

    /// Issue #4 class (2026-09-27): the advertised `outputSchema` is a
    /// contract with strict clients — one value that does not match it makes
    /// the whole tool result unusable (`-32602`), even when the work
    /// succeeded. This sweep calls every catalog tool with minimal valid
    /// arguments and validates the returned `structuredContent` against the
    /// advertised schema, so a null-vs-string class bug cannot ship silently.
    /// New catalog tools fail the coverage assertion until probed.
    #[tokio::test]
    async fn catalog_structured_content_matches_advertised_output_schema() {
        async fn call(server: &mut McpServer, name: &str, args: Value) -> Value {
            let req = RpcRequest {
                jsonrpc: "2.0".into(),
                id: Some(json!(1)),
                method: "tools/call".into(),
                params: json!({ "name": name, "arguments": args }),
            };
            let resp = server.handle(&req).await;
            assert!(
                resp.error.is_none(),
                "tools/call {name} returned an RPC error: {:?}",
                resp.error
            );
            let result = resp.result.expect("tools/call result");
            assert_eq!(result["content"][0]["type"], "text");
            let structured = result.get("structuredContent").unwrap_or_else(|| {
                panic!("{name} returned no structuredContent — object results are the contract")
            });
            structured.clone()
        }

        macro_rules! probe {
            ($server:ident, $results:ident, $name:literal, $args:expr) => {{
                let value = call(&mut $server, $name, $args).await;
                $results.push(($name.to_string(), value));
            }};
        }

        let mut server = test_server();
        // `test_server` drops its tempdir handle, unlinking the store root
        // while the LMDB environment stays mapped. Recreate the same path so
        // lazily created files (the receipt key at first emit, ledgers) have
        // a home for this sweep.
        let store_root = server.store.path().to_path_buf();
        std::fs::create_dir_all(&store_root).unwrap();
        // Writable catalog entries are brain-wave-gated; move to Beta so the
        // full advertised surface (writes included) is the one under test.
        for _ in 0..3 {
            let _ = server.eco_mode_mut().record_event();
        }
        let tools = server.handle_tools_list().unwrap()["tools"]
            .as_array()
            .unwrap()
            .clone();
        let mut results: Vec<(String, Value)> = Vec::new();

        let ingest_dir = tempfile::tempdir().unwrap();
        std::fs::write(ingest_dir.path().join("probe.md"), "# schema sweep\n").unwrap();

        // Write a target record first so read/update/revisions/nearby probes
        // exercise their success paths.
        probe!(
            server,
            results,
            "memory.create",
            json!({"content": "outputSchema sweep probe", "importance": 0.1})
        );
        let id = results
            .last()
            .and_then(|(_, v)| v["id"].as_str())
            .expect("memory.create must return an id")
            .to_string();

        probe!(
            server,
            results,
            "wm",
            json!({"route": "memory.count", "args": {}})
        );
        probe!(
            server,
            results,
            "memory.search",
            json!({"query": "sweep", "limit": 2})
        );
        probe!(server, results, "memory.read", json!({"id": id}));
        probe!(server, results, "memory.list", json!({"limit": 2}));
        probe!(
            server,
            results,
            "memory.hybrid_recall",
            json!({"query": "sweep", "limit": 2})
        );
        probe!(
            server,
            results,
            "memory.update",
            json!({"id": id, "importance": 0.2})
        );
        probe!(server, results, "memory.revisions", json!({"id": id}));
        probe!(
            server,
            results,
            "memory.ingest",
            json!({"source": ingest_dir.path().to_string_lossy(), "dry_run": true})
        );
        probe!(
            server,
            results,
            "session.start",
            json!({"title": "outputSchema sweep", "user": "sweep"})
        );
        let session_id = results
            .iter()
            .rev()
            .find(|(n, _)| n == "session.start")
            .and_then(|(_, v)| v["session_id"].as_str())
            .expect("session.start must return a session_id")
            .to_string();
        probe!(
            server,
            results,
            "session.record",
            json!({"content": "sweep turn", "turn_type": "context"})
        );
        probe!(server, results, "session.continuity", json!({"n": 2}));
        probe!(
            server,
            results,
            "session.checkpoint",
            json!({"label": "sweep", "data": {"probe": true}})
        );
        probe!(server, results, "receipts.emit", json!({}));
        let receipt_id = results
            .iter()
            .rev()
            .find(|(n, _)| n == "receipts.emit")
            .and_then(|(_, v)| v["id"].as_str())
            .expect("receipts.emit must return an id")
            .to_string();
        probe!(
            server,
            results,
            "receipts.verify",
            json!({"id": receipt_id})
        );
        probe!(server, results, "memory.count", json!({}));
        probe!(server, results, "memory.stats", json!({}));
        probe!(server, results, "memory.tags", json!({}));
        probe!(
            server,
            results,
            "memory.aggregate",
            json!({"query": "sweep", "metric": "count"})
        );
        probe!(server, results, "memory.associations", json!({"id": id}));
        probe!(server, results, "memory.batch_read", json!({"ids": [id]}));
        probe!(
            server,
            results,
            "memory.query",
            json!({"query": "sweep", "limit": 2})
        );
        probe!(server, results, "memory.filter", json!({"limit": 2}));
        probe!(
            server,
            results,
            "memory.nearby",
            json!({"query": "sweep", "limit": 2})
        );
        probe!(
            server,
            results,
            "memory.vector.search",
            json!({"memory_id": id, "limit": 2})
        );
        probe!(server, results, "session.list", json!({}));
        probe!(
            server,
            results,
            "session.recall",
            json!({"session_id": session_id})
        );
        probe!(
            server,
            results,
            "session.replay",
            json!({"session_id": session_id})
        );
        probe!(server, results, "gnosis.status", json!({}));
        probe!(
            server,
            results,
            "gnosis.explain",
            json!({"tool_name": "memory.search"})
        );

        // Every advertised tool must be covered; a new catalog entry fails
        // here until its minimal probe is added.
        let probed: Vec<&str> = results.iter().map(|(n, _)| n.as_str()).collect();
        for tool in &tools {
            let name = tool["name"].as_str().unwrap();
            assert!(
                probed.contains(&name),
                "catalog tool '{name}' is not covered by the structuredContent sweep — add a minimal probe"
            );
        }
        // And every probed result must match its advertised outputSchema.
        for (name, value) in &results {
            let entry = tools
                .iter()
                .find(|t| t["name"].as_str() == Some(name.as_str()))
                .unwrap_or_else(|| panic!("{name} missing from the advertised catalog"));
            assert_value_matches_schema(&entry["outputSchema"], value, name);
        }
    }

    #[tokio::test]
    async fn tools_list_annotations_reflect_readonly_mode() {
        // A read-only server cannot mutate or destroy anything, whatever the
        // catalog would do in read-write mode. Directory graders and clients
        // read these hints, so they must describe the real contract.
        let mut server = test_server();
        server.readonly = true;
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(3)),
            method: "tools/list".into(),
            params: json!({}),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_none());
        let tools = resp.result.unwrap()["tools"].as_array().unwrap().clone();

        let wm = tools.iter().find(|t| t["name"] == "wm").unwrap();
        assert_eq!(wm["annotations"]["readOnlyHint"], true);
        assert_eq!(wm["annotations"]["destructiveHint"], false);

        // Write-class aliases are not advertised at all on a read-only
        // server — they are refused at dispatch, so listing them would lie.
        for write_alias in [
            "memory.create",
            "memory.update",
            "memory.ingest",
            "session.start",
            "session.record",
            "session.checkpoint",
            "receipts.emit",
        ] {
            assert!(
                tools.iter().all(|t| t["name"] != write_alias),
                "{write_alias} must not be advertised on a read-only server"
            );
        }
        let search = tools.iter().find(|t| t["name"] == "memory.search").unwrap();
        assert_eq!(search["annotations"]["readOnlyHint"], true);
        assert_eq!(search["annotations"]["destructiveHint"], false);
        // wm + 7 admitted reads + 15 read-only aliases = 23.
        assert_eq!(
            tools.len(),
            23,
            "read-only catalog shape changed: {tools:?}"
        );
    }

    #[tokio::test]
    async fn readonly_failures_leave_sidecar_friction_trace() {
        // Gap #1 from the isolation forensics: RO servers recorded nothing,
        // so agent failures were unrecoverable. Failures must now append a
        // parseable JSONL entry to <store-root>/friction_ro.jsonl without
        // touching LMDB.
        let tmp = tempfile::tempdir().unwrap();
        let mut server = test_server();
        server.readonly = true;
        let lmdb_dir = tmp.path().join("lmdb");
        std::fs::create_dir_all(&lmdb_dir).unwrap();
        server.store_path = Some(lmdb_dir.display().to_string());

        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(9)),
            method: "tools/call".into(),
            params: json!({
                "name": "wm",
                "arguments": {"route": "session.start", "args": {"title": "refused"}}
            }),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_none() || resp.result.is_some());

        let sidecar = tmp.path().join("friction_ro.jsonl");
        let contents = std::fs::read_to_string(&sidecar)
            .expect("read-only failure must create friction_ro.jsonl");
        let lines: Vec<&str> = contents.lines().collect();
        assert!(!lines.is_empty(), "sidecar must contain at least one entry");
        for line in &lines {
            let entry: Value = serde_json::from_str(line).expect("each line must be valid JSON");
            assert_eq!(entry["mode"], "read-only");
            assert_eq!(entry["success"], false);
        }
        let first: Value = serde_json::from_str(lines[0]).unwrap();
        assert!(
            first["error"]
                .as_str()
                .unwrap_or_default()
                .contains("session.start")
                || first["tool"].as_str() == Some("wm"),
            "entry must identify the failed dispatch, got: {first}"
        );
    }

    #[tokio::test]
    async fn tools_list_delta_returns_empty() {
        let server = test_server();
        // Don't call handle() — that would record_event() and transition to Beta.
        // Test handle_tools_list directly while in Delta state.
        let result = server.handle_tools_list().unwrap();
        let tools = result["tools"].as_array().unwrap().clone();
        assert_eq!(tools.len(), 0);
    }

    #[tokio::test]
    async fn tools_list_discloses_mode_store_and_project() {
        // Per-project isolation: the agent must be able to tell which memory
        // scope and mode it is on from discovery alone, before any dispatch.
        let mut server = test_server();
        server.readonly = true;
        server.store_path = Some("/tmp/wm-test/neon".to_string());
        server.project = Some("neon".to_string());
        let _ = server.eco_mode.record_event();
        let result = server.handle_tools_list().unwrap();
        let description = result["tools"][0]["description"].as_str().unwrap();
        assert!(
            description.contains("READ-ONLY"),
            "read-only server must disclose its mode in tools/list, got: {description}"
        );
        assert!(
            description.contains("project 'neon'"),
            "tools/list must disclose the project scope, got: {description}"
        );
        assert!(
            description.contains("/tmp/wm-test/neon"),
            "tools/list must disclose the store path, got: {description}"
        );

        // Writable counterpart: no read-only claim.
        let mut writable = test_server();
        writable.project = Some("neon".to_string());
        let _ = writable.eco_mode.record_event();
        let result = writable.handle_tools_list().unwrap();
        let description = result["tools"][0]["description"].as_str().unwrap();
        assert!(
            description.contains("writable") && !description.contains("READ-ONLY"),
            "writable server must not claim READ-ONLY, got: {description}"
        );
    }

    #[tokio::test]
    async fn identical_failures_escalate_into_loop_warning() {
        // Incident 2026-08-23: an agent whose MCP server died degenerated
        // into `echo .` loops. Within-server, the boundary can see identical
        // failing dispatches — the third consecutive one must say that
        // retrying is futile and point at diagnostics.
        let mut server = test_server();
        server.readonly = true;
        let call = |id: i32| RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(id)),
            method: "tools/call".into(),
            params: json!({
                "name": "wm",
                "arguments": {"route": "session.start", "args": {"title": "loop"}}
            }),
        };

        for i in 1..=2 {
            let resp = server.handle(&call(i)).await;
            let payload: Value =
                serde_json::from_str(resp.result.unwrap()["content"][0]["text"].as_str().unwrap())
                    .unwrap();
            assert_eq!(payload["status"], "error");
            let message = payload["error"].as_str().unwrap();
            assert!(
                !message.contains("RETRY LOOP"),
                "attempts {i} must not escalate yet, got: {message}"
            );
        }

        let resp = server.handle(&call(3)).await;
        let payload: Value =
            serde_json::from_str(resp.result.unwrap()["content"][0]["text"].as_str().unwrap())
                .unwrap();
        let message = payload["error"].as_str().unwrap();
        assert!(
            message.contains("RETRY LOOP") && message.contains("3 times"),
            "third identical failure must escalate, got: {message}"
        );

        // A different failure resets the counter (no escalation on next).
        let other = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(4)),
            method: "tools/call".into(),
            params: json!({
                "name": "wm",
                "arguments": {"route": "memory.delete"}
            }),
        };
        let resp = server.handle(&other).await;
        let result = resp.result.unwrap_or_else(|| {
            panic!(
                "memory.delete returned RPC error: {:?}",
                resp.error.map(|e| e.message)
            )
        });
        let payload: Value =
            serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        if payload["status"] == "error" {
            let msg = payload["error"]
                .as_str()
                .or_else(|| payload["message"].as_str())
                .unwrap_or_default()
                .to_string();
            assert!(
                !msg.contains("RETRY LOOP"),
                "different failure must not inherit escalation, got: {msg}"
            );
        }
    }

    /// 9.1.9 tester finding: different arguments (whitespace/NUL/control-
    /// heavy payloads) tripped the loop counter and the warning claimed
    /// "this exact call". The fingerprint is (tool, error text) — the
    /// escalation must say that instead.
    #[tokio::test]
    async fn loop_warning_names_the_route_and_error_not_arguments() {
        let mut server = test_server();
        server.readonly = true;
        let call = |id: i32, title: &str| RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(id)),
            method: "tools/call".into(),
            params: json!({
                "name": "wm",
                "arguments": {"route": "session.start", "args": {"title": title}}
            }),
        };

        let mut last = String::new();
        for (id, title) in [(1, "payload A"), (2, "payload B"), (3, "payload C")] {
            let resp = server.handle(&call(id, title)).await;
            let payload: Value =
                serde_json::from_str(resp.result.unwrap()["content"][0]["text"].as_str().unwrap())
                    .unwrap();
            last = payload["error"].as_str().unwrap().to_string();
        }
        assert!(
            last.contains("RETRY LOOP") && last.contains("3 times"),
            "third same-error failure must escalate, got: {last}"
        );
        assert!(
            !last.contains("this exact call"),
            "the fingerprint excludes arguments — the warning must not claim otherwise: {last}"
        );
        assert!(
            last.contains("session.start") && last.contains("arguments are not part of it"),
            "the warning must name what is actually fingerprinted: {last}"
        );
    }

    #[tokio::test]
    async fn readonly_write_refusal_is_actionable() {
        // A write against a --readonly server should say how to fix it, not
        // just refuse — agents were burning turns retrying writes today.

        // Path 1: routed through the `wm` meta-tool — inner failure surfaces
        // as an Ok payload with {"status":"error"}.
        let mut server = test_server();
        server.readonly = true;
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(3)),
            method: "tools/call".into(),
            params: json!({
                "name": "wm",
                "arguments": {
                    "route": "session.start",
                    "args": {"title": "should fail"}
                }
            }),
        };
        let resp = server.handle(&req).await;
        let result = resp
            .result
            .expect("wm-routed failure must be a readable payload");
        let payload: Value =
            serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(payload["status"], "error");
        let message = payload["error"].as_str().unwrap();
        assert!(
            message.contains("--readonly"),
            "wm-routed readonly refusal must include actionable hint, got: {message}"
        );

        // Path 2: direct dispatch of a declaring-writes tool — the pipeline
        // gate refuses at the outer level as a JSON-RPC error.
        let mut direct = test_server();
        direct.readonly = true;
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(4)),
            method: "tools/call".into(),
            params: json!({
                "name": "memory.create",
                "arguments": {"content": "should fail", "galaxy": "Tutorial"}
            }),
        };
        let resp = direct.handle(&req).await;
        let error = resp.error.expect("direct write through readonly must fail");
        assert!(
            error.message.contains("read-only") && error.message.contains("--readonly"),
            "direct readonly refusal must preserve cause + hint, got: {}",
            error.message
        );
    }

    #[tokio::test]
    async fn initialize_instructions_disclose_mode_and_scope() {
        let mut server = test_server();
        server.readonly = true;
        server.store_path = Some("/tmp/wm-test/neon".to_string());
        server.project = Some("neon".to_string());
        let result = server.handle_initialize().unwrap();
        let instructions = result["instructions"].as_str().unwrap();
        assert!(
            instructions.contains("READ-ONLY"),
            "initialize instructions must disclose read-only mode, got: {instructions}"
        );
        assert!(
            instructions.contains("project 'neon'") && instructions.contains("/tmp/wm-test/neon"),
            "initialize instructions must disclose scope, got: {instructions}"
        );
        assert!(
            instructions.contains("recall only"),
            "initialize must tell agents not to write in read-only mode, got: {instructions}"
        );

        // Writable mode keeps the session rhythm usable and says so.
        let writable = test_server();
        let result = writable.handle_initialize().unwrap();
        let instructions = result["instructions"].as_str().unwrap();
        assert!(
            instructions.contains("Mode: writable"),
            "initialize must disclose writable mode, got: {instructions}"
        );
        assert!(!instructions.contains("READ-ONLY"));
    }

    #[tokio::test]
    async fn tools_list_filters_by_brain_wave() {
        let mut server = test_server();

        // Direct call in Delta: 0 tools
        let result = server.handle_tools_list().unwrap();
        let delta_count = result["tools"].as_array().unwrap().len();
        assert_eq!(delta_count, 0);

        // Transition to Beta via handle() (which calls record_event)
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(2)),
            method: "tools/list".into(),
            params: json!({}),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_none());
        let beta_result = resp.result.unwrap();
        let beta_count = beta_result["tools"].as_array().unwrap().len();
        // In Beta: wm meta-tool is exposed at index 0 plus the discrete
        // lifecycle catalog (29 aliases in the writable catalog; citta/captain
        // stay internally callable but are not catalog surface — coherence
        // trim 2026-09-14; expanded 2026-09-23 and again 2026-09-24 with
        // read-only memory/session/gnosis reads).
        // In Delta: 0 tools
        assert!(beta_count > delta_count);
        assert_eq!(beta_result["tools"][0]["name"], "wm");
        assert_eq!(beta_count, 30);
    }

    #[tokio::test]
    async fn tools_call_wm_with_thought() {
        let mut server = test_server();
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(3)),
            method: "tools/call".into(),
            params: json!({
                "name": "wm",
                "arguments": {"thought": "remember that test works"},
            }),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_none());
        let content = resp.result.unwrap()["content"].as_array().unwrap().clone();
        assert_eq!(content[0]["type"], "text");
        let text = content[0]["text"].as_str().unwrap();
        assert!(text.contains("success"));
        assert!(text.contains("memory.create"));
    }

    #[tokio::test]
    async fn tools_call_wm_routes_to_tools_list() {
        let mut server = test_server();
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(10)),
            method: "tools/call".into(),
            params: json!({
                "name": "wm",
                "arguments": {"thought": "list tools"},
            }),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_none());
        let content = resp.result.unwrap()["content"].as_array().unwrap().clone();
        let text = content[0]["text"].as_str().unwrap();
        assert!(text.contains("tools.list") || text.contains("total"));
    }

    #[tokio::test]
    async fn tools_call_rejects_unknown_tool() {
        let mut server = test_server();
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(4)),
            method: "tools/call".into(),
            params: json!({
                "name": "nonexistent.tool",
                "arguments": {},
            }),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_some());
        assert_eq!(resp.error.unwrap().code, -32602);
    }

    #[tokio::test]
    async fn unknown_method_returns_error() {
        let mut server = test_server();
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(5)),
            method: "foobar".into(),
            params: json!({}),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_some());
        assert_eq!(resp.error.unwrap().code, -32601);
    }

    #[tokio::test]
    async fn handle_request_initialize() {
        let mut server = test_server();
        let json_req = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
        let response = server.handle_request(json_req).await;
        let parsed: Value = serde_json::from_str(&response).unwrap();
        assert_eq!(parsed["jsonrpc"], "2.0");
        assert_eq!(parsed["id"], 1);
        assert_eq!(parsed["result"]["serverInfo"]["name"], "whitemagic");
    }

    #[tokio::test]
    async fn handle_request_tools_list() {
        let mut server = test_server();
        // First call initialize to trigger an event (move out of Delta)
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
            .await;
        let response = server
            .handle_request(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#)
            .await;
        let parsed: Value = serde_json::from_str(&response).unwrap();
        let tools = parsed["result"]["tools"].as_array().unwrap();
        // Tools list exposes wm meta-tool and discrete aliases
        assert!(!tools.is_empty());
        assert_eq!(tools[0]["name"], "wm");
    }

    #[tokio::test]
    async fn handle_request_resources_list_and_read() {
        let mut server = test_server();
        // 1. Check initialize advertises resources capability
        let init_resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
            .await;
        let init_parsed: Value = serde_json::from_str(&init_resp).unwrap();
        assert!(init_parsed["result"]["capabilities"]["resources"].is_object());

        // 2. List resources
        let list_resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":2,"method":"resources/list","params":{}}"#)
            .await;
        let list_parsed: Value = serde_json::from_str(&list_resp).unwrap();
        assert!(list_parsed["error"].is_null());
        let resources = list_parsed["result"]["resources"].as_array().unwrap();
        assert_eq!(resources.len(), 31);
        assert_eq!(resources[0]["uri"], "grimoire://chapter/01");
        assert_eq!(resources[30]["uri"], "grimoire://truth-table");

        // 3. Read chapter resource
        let read_resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"grimoire://chapter/01"}}"#)
            .await;
        let read_parsed: Value = serde_json::from_str(&read_resp).unwrap();
        assert!(read_parsed["error"].is_null());
        let contents = read_parsed["result"]["contents"].as_array().unwrap();
        assert_eq!(contents.len(), 1);
        assert_eq!(contents[0]["uri"], "grimoire://chapter/01");
        assert!(
            contents[0]["text"]
                .as_str()
                .unwrap()
                .contains("Chapter 01: The Horn")
        );

        // 4. Read truth-table resource
        let tt_resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"grimoire://truth-table"}}"#)
            .await;
        let tt_parsed: Value = serde_json::from_str(&tt_resp).unwrap();
        assert!(tt_parsed["error"].is_null());
        let tt_contents = tt_parsed["result"]["contents"].as_array().unwrap();
        assert!(
            tt_contents[0]["text"]
                .as_str()
                .unwrap()
                .contains("72-Engine Truth Table")
        );
    }

    #[tokio::test]
    async fn handle_request_tools_call_wm() {
        let mut server = test_server();
        let json_req = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wm","arguments":{"thought":"remember that PyO3 bridge works"}}}"#;
        let response = server.handle_request(json_req).await;
        let parsed: Value = serde_json::from_str(&response).unwrap();
        assert!(parsed["error"].is_null() || parsed.get("error").is_none());
        let content = parsed["result"]["content"].as_array().unwrap();
        assert_eq!(content[0]["type"], "text");
        let text = content[0]["text"].as_str().unwrap();
        assert!(text.contains("success"));
    }

    #[tokio::test]
    async fn handle_request_parse_error() {
        let mut server = test_server();
        let response = server.handle_request("not valid json {{{").await;
        let parsed: Value = serde_json::from_str(&response).unwrap();
        assert_eq!(parsed["error"]["code"], -32700);
        assert!(
            parsed["error"]["message"]
                .as_str()
                .unwrap()
                .contains("Parse error")
        );
    }

    #[tokio::test]
    async fn handle_request_unknown_method() {
        let mut server = test_server();
        let json_req = r#"{"jsonrpc":"2.0","id":99,"method":"unknown_method","params":{}}"#;
        let response = server.handle_request(json_req).await;
        let parsed: Value = serde_json::from_str(&response).unwrap();
        assert_eq!(parsed["error"]["code"], -32601);
    }

    #[tokio::test]
    async fn handle_request_ping_responds() {
        let mut server = test_server();
        // ping has no id — the MCP spec still requires an empty result.
        let response = server
            .handle_request(r#"{"jsonrpc":"2.0","method":"ping"}"#)
            .await;
        let parsed: Value = serde_json::from_str(&response).unwrap();
        assert_eq!(parsed["result"], json!({}));
        assert!(parsed.get("error").is_none());
    }

    #[tokio::test]
    async fn tool_count_is_positive() {
        let server = test_server();
        assert!(server.tool_count() > 0);
    }

    #[tokio::test]
    async fn galaxy_counts_returns_json() {
        let server = test_server();
        let counts = server.galaxy_counts();
        assert!(counts.is_object());
        // Total should be 0 for a fresh test store
        assert_eq!(counts["total"], 0);
    }

    #[tokio::test]
    async fn refresh_self_model_records_metrics() {
        let server = test_server();
        // Before refresh, no metrics tracked
        assert_eq!(server.self_model().lock().unwrap().tracked_count(), 0);
        // Refresh samples substrate + citta into self-model
        server.refresh_self_model();
        // Should now track 5 metrics: CpuLoad, MemoryPressure, SwapUsage, DiskIo, Coherence
        let count = server.self_model().lock().unwrap().tracked_count();
        assert!(
            count >= 5,
            "expected at least 5 tracked metrics, got {count}"
        );
    }

    #[tokio::test]
    async fn handle_records_dispatch_metrics_into_self_model() {
        let mut server = test_server();
        // Send a tools/call request — handle() will refresh_self_model() then
        // dispatch, then record latency + error_rate
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(10)),
            method: "tools/call".into(),
            params: json!({
                "name": "wm",
                "arguments": {"thought": "remember that self-model integration works"},
            }),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_none());

        // After dispatch, self-model should have Latency and ErrorRate metrics
        let (latency_count, error_count) = {
            let model = server.self_model().lock().unwrap();
            (
                model.sample_count(wm_selfmodel::MetricKind::Latency),
                model.sample_count(wm_selfmodel::MetricKind::ErrorRate),
            )
        };
        assert!(
            latency_count > 0,
            "latency should be recorded after dispatch"
        );
        assert!(
            error_count > 0,
            "error_rate should be recorded after dispatch"
        );
    }

    #[tokio::test]
    async fn handle_injects_self_model_confidence_into_context() {
        let mut server = test_server();
        // Pre-record some metrics so confidence is calculable
        {
            let model = server.self_model().lock().unwrap();
            for v in [0.1, 0.15, 0.12, 0.13, 0.11, 0.14] {
                model.record(wm_selfmodel::MetricKind::CpuLoad, v);
            }
        }
        // Send a request — the dispatch pipeline should see a non-default confidence
        let req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(11)),
            method: "tools/call".into(),
            params: json!({
                "name": "wm",
                "arguments": {"route": "gnosis"},
            }),
        };
        let resp = server.handle(&req).await;
        assert!(resp.error.is_none());
        // The self-model should now have even more samples (from refresh_self_model + dispatch)
        let tracked = server.self_model().lock().unwrap().tracked_count();
        assert!(tracked >= 6);
    }

    // ── E2E Integration Tests ──────────────────────────────────────────

    #[tokio::test]
    async fn e2e_full_session_lifecycle() {
        let mut server = test_server();

        // 1. Initialize
        let init_resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
            .await;
        let init: Value = serde_json::from_str(&init_resp).unwrap();
        assert_eq!(init["result"]["serverInfo"]["name"], "whitemagic");

        // 2. tools/list (should now be Beta since handle() records an event)
        let list_resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#)
            .await;
        let list: Value = serde_json::from_str(&list_resp).unwrap();
        let tools = list["result"]["tools"].as_array().unwrap();
        // Tools list exposes wm meta-tool and discrete aliases
        assert!(!tools.is_empty());
        assert_eq!(tools[0]["name"], "wm");

        // 3. tools/call — create a memory
        let call_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wm","arguments":{"thought":"e2e test memory"}}}"#,
        ).await;
        let call: Value = serde_json::from_str(&call_resp).unwrap();
        assert!(call.get("error").is_none() || call["error"].is_null());
        let content = call["result"]["content"].as_array().unwrap();
        assert!(content[0]["text"].as_str().unwrap().contains("success"));

        // 4. tools/call — read the memory back
        let read_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.list"}}}"#,
        ).await;
        let read: Value = serde_json::from_str(&read_resp).unwrap();
        assert!(read.get("error").is_none() || read["error"].is_null());

        // 5. Verify citta was updated (coherence > 0 after beats)
        let (coherence, _) = server.citta().coherence_valence();
        assert!(coherence >= 0.0);

        // 6. Verify self-model has metrics from dispatch
        let latency_count = server
            .self_model()
            .lock()
            .unwrap()
            .sample_count(wm_selfmodel::MetricKind::Latency);
        assert!(
            latency_count > 0,
            "self-model should have latency samples after dispatch"
        );
    }

    #[tokio::test]
    async fn e2e_gan_ying_bus_records_dispatch_events() {
        let mut server = test_server();

        // Verify bus starts empty
        assert_eq!(server.gan_ying_bus().lock().unwrap().events_emitted(), 0);

        // Dispatch a tools/call
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"thought":"bus test"}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert!(parsed.get("error").is_none() || parsed["error"].is_null());

        // Verify Gan Ying Bus recorded events: ToolDispatchStart + ToolDispatchSuccess
        let bus = server.gan_ying_bus().lock().unwrap();
        let emitted = bus.events_emitted();
        assert!(
            emitted >= 2,
            "expected at least 2 bus events, got {emitted}"
        );

        let recent: Vec<_> = bus.recent_events(10).into_iter().cloned().collect();
        drop(bus);
        let has_start = recent
            .iter()
            .any(|e| e.event_type == wm_cognitive::EventType::ToolDispatchStart);
        let has_success = recent
            .iter()
            .any(|e| e.event_type == wm_cognitive::EventType::ToolDispatchSuccess);
        assert!(has_start, "ToolDispatchStart should be in recent events");
        assert!(
            has_success,
            "ToolDispatchSuccess should be in recent events"
        );
    }

    #[tokio::test]
    async fn e2e_gan_ying_bus_persists_events_to_disk() {
        let tmp = tempfile::tempdir().unwrap();
        let mut server = McpServer::with_defaults(&test_store_path(&tmp)).unwrap();

        // Persistence is wired in the production constructor
        let persist_path = {
            let bus = server.gan_ying_bus().lock().unwrap();
            bus.persist_path().map(std::path::Path::to_path_buf)
        };
        assert_eq!(
            persist_path.as_deref(),
            Some(
                test_store_path(&tmp)
                    .join("resonance_events.jsonl")
                    .as_path()
            )
        );

        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"thought":"persistence test"}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert!(parsed.get("error").is_none() || parsed["error"].is_null());

        let log = std::fs::read_to_string(test_store_path(&tmp).join("resonance_events.jsonl"))
            .expect("persistence log should exist after dispatch");
        assert!(
            log.contains("tool_dispatch_start"),
            "log should contain tool_dispatch_start, got: {log}"
        );

        // A fresh server over the same store seeds its recent buffer from the log
        drop(server);
        let server2 = McpServer::with_defaults(&test_store_path(&tmp)).unwrap();
        let any_start = {
            let bus2 = server2.gan_ying_bus().lock().unwrap();
            bus2.recent_events(10)
                .iter()
                .any(|e| e.event_type == wm_cognitive::EventType::ToolDispatchStart)
        };
        assert!(
            any_start,
            "fresh server should seed recent events from the persisted log"
        );
    }

    #[tokio::test]
    async fn e2e_error_recovery_after_malformed_json() {
        let mut server = test_server();

        // 1. Send malformed JSON
        let bad_resp = server.handle_request("not valid json {{{").await;
        let bad: Value = serde_json::from_str(&bad_resp).unwrap();
        assert_eq!(bad["error"]["code"], -32700);

        // 2. Server should still handle valid requests
        let good_resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
            .await;
        let good: Value = serde_json::from_str(&good_resp).unwrap();
        assert_eq!(good["result"]["serverInfo"]["name"], "whitemagic");

        // 3. tools/call should work after error recovery
        let call_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wm","arguments":{"thought":"recovery test"}}}"#,
        ).await;
        let call: Value = serde_json::from_str(&call_resp).unwrap();
        assert!(call.get("error").is_none() || call["error"].is_null());
    }

    #[tokio::test]
    async fn e2e_unknown_tool_then_valid_tool() {
        let mut server = test_server();

        // 1. Call unknown tool — should get error
        let err_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nonexistent","arguments":{}}}"#,
        ).await;
        let err: Value = serde_json::from_str(&err_resp).unwrap();
        assert_eq!(err["error"]["code"], -32602);

        // 2. Call valid wm tool — should succeed
        let ok_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wm","arguments":{"thought":"after error test"}}}"#,
        ).await;
        let ok: Value = serde_json::from_str(&ok_resp).unwrap();
        assert!(ok.get("error").is_none() || ok["error"].is_null());
    }

    #[tokio::test]
    async fn e2e_shutdown_emits_system_shutdown_event() {
        let server = test_server();

        // Verify no events before shutdown
        assert_eq!(server.gan_ying_bus().lock().unwrap().events_emitted(), 0);

        // Call shutdown
        server.shutdown();

        // Verify SystemShutdown event was emitted
        let bus = server.gan_ying_bus().lock().unwrap();
        let emitted = bus.events_emitted();
        assert!(emitted >= 1, "shutdown should emit at least 1 event");

        let recent: Vec<_> = bus.recent_events(5).into_iter().cloned().collect();
        drop(bus);
        let has_shutdown = recent
            .iter()
            .any(|e| e.event_type == wm_cognitive::EventType::SystemShutdown);
        assert!(
            has_shutdown,
            "SystemShutdown event should be in recent events"
        );
    }

    #[tokio::test]
    async fn e2e_homeostasis_tools_share_state_with_server() {
        let mut server = test_server();

        // Dispatch a tools/call — this runs the homeostatic loop in handle_tools_call
        let _ = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"thought":"homeostasis state test"}}}"#,
        ).await;

        // The server's homeostatic_loop and anomaly_detector should have been
        // updated during the dispatch (sample_cycle runs in handle_tools_call).
        // Verify they are accessible and not poisoned.
        let loop_ok = server.homeostatic_loop().lock().is_ok();
        assert!(loop_ok, "homeostatic_loop mutex should not be poisoned");

        let detector_ok = server.anomaly_detector().lock().is_ok();
        assert!(detector_ok, "anomaly_detector mutex should not be poisoned");
    }

    #[tokio::test]
    async fn e2e_multiple_sequential_dispatches() {
        let mut server = test_server();

        // Send 5 sequential tools/call requests
        for i in 0..5 {
            let resp = server.handle_request(&format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"wm","arguments":{{"thought":"sequential test {i}"}}}}}}"#
            )).await;
            let parsed: Value = serde_json::from_str(&resp).unwrap();
            assert!(
                parsed.get("error").is_none() || parsed["error"].is_null(),
                "request {i} should succeed"
            );
        }

        // Verify bus recorded all dispatches (at least 2 events per dispatch: start + success)
        let emitted = server.gan_ying_bus().lock().unwrap().events_emitted();
        assert!(
            emitted >= 10,
            "expected at least 10 bus events from 5 dispatches, got {emitted}"
        );

        // Verify self-model has multiple latency samples
        let latency_count = server
            .self_model()
            .lock()
            .unwrap()
            .sample_count(wm_selfmodel::MetricKind::Latency);
        assert!(
            latency_count >= 5,
            "expected at least 5 latency samples, got {latency_count}"
        );
    }

    #[tokio::test]
    async fn e2e_brain_wave_transitions_through_activity() {
        let mut server = test_server();

        // Start in Delta
        assert_eq!(server.eco_mode().current(), wm_core::BrainWave::Delta);

        // Record events to transition to Beta
        for _ in 0..3 {
            let _ = server.eco_mode_mut().record_event();
        }
        assert_eq!(server.eco_mode().current(), wm_core::BrainWave::Beta);

        // Dispatch should work in Beta
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"thought":"beta state test"}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert!(parsed.get("error").is_none() || parsed["error"].is_null());
    }

    #[tokio::test]
    async fn e2e_tool_count_matches_registry() {
        let server = test_server();
        let count = server.tool_count();
        // Should have well over 100 tools registered
        assert!(count >= 100, "expected at least 100 tools, got {count}");
    }

    #[tokio::test]
    async fn handle_request_empty_string_returns_parse_error() {
        let mut server = test_server();
        let response = server.handle_request("").await;
        let parsed: Value = serde_json::from_str(&response).unwrap();
        assert_eq!(parsed["error"]["code"], -32700);
    }

    #[tokio::test]
    async fn handle_request_null_returns_parse_error() {
        let mut server = test_server();
        let response = server.handle_request("null").await;
        let parsed: Value = serde_json::from_str(&response).unwrap();
        // null is valid JSON but not a valid RPC request
        assert!(parsed.get("error").is_some());
    }

    #[tokio::test]
    async fn handle_request_missing_method_field() {
        let mut server = test_server();
        let response = server.handle_request(r#"{"jsonrpc":"2.0","id":1}"#).await;
        let parsed: Value = serde_json::from_str(&response).unwrap();
        // Missing method field — should get an error, not panic
        assert!(parsed.get("error").is_some() || parsed.get("result").is_none());
    }

    // ── E2E RSI Outward Spiral Test ───────────────────────────────────

    #[tokio::test]
    async fn e2e_rsi_outward_spiral_full_loop() {
        let mut server = test_server();

        // Initialize to move out of Delta (no tools available in Delta)
        let init_req = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#;
        let _ = server.handle_request(init_req).await;

        // 1. Log a friction entry via friction.log tool
        let log_req = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"friction.log","arguments":{"what_happened":"memory.search returns empty results for valid queries","expected_behavior":"Should return matching memories","suggested_fix":"Check Tantivy index state","severity":"medium","category":"ux","tool_name":"memory.search"}}}"#;
        let resp = server.handle_request(log_req).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert!(
            parsed.get("result").is_some(),
            "friction.log should succeed"
        );
        let text = &parsed["result"]["content"][0]["text"];
        let friction_result: Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
        assert_eq!(friction_result["status"], "success");
        let friction_id = friction_result["id"].as_str().unwrap().to_string();

        // 2. Log the same friction again — should dedup
        let dup_req = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"friction.log","arguments":{"what_happened":"memory.search returns empty results for valid queries","expected_behavior":"Should return matching memories","suggested_fix":"Check Tantivy index state","severity":"medium","category":"ux","tool_name":"memory.search"}}}"#;
        let resp = server.handle_request(dup_req).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let text = &parsed["result"]["content"][0]["text"];
        let dup_result: Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
        assert_eq!(dup_result["status"], "duplicate");
        assert_eq!(dup_result["duplicate_count"], 2);

        // 3. Review friction — should show 1 entry with dup_count=2
        let review_req = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"friction.review","arguments":{}}}"#;
        let resp = server.handle_request(review_req).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let text = &parsed["result"]["content"][0]["text"];
        let review: Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
        assert_eq!(review["status"], "success");
        assert!(review["total_friction_entries"].as_u64().unwrap() >= 1);
        assert_eq!(review["resolved"], 0);
        assert_eq!(review["regressions"], 0);
        // Verify the entry shows dup_count=2
        let entries = review["entries"].as_array().unwrap();
        let our_entry = entries
            .iter()
            .find(|e| e["id"] == friction_id)
            .expect("Should find our friction entry");
        assert_eq!(our_entry["duplicate_count"], 2);
        assert_eq!(our_entry["resolved"], false);

        // 4. Resolve the friction entry
        let resolve_args = format!(
            r#"{{"friction_id":"{friction_id}","resolution_note":"Fixed Tantivy index initialization","resolution_method":"code_fix"}}"#
        );
        let resolve_req = format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"friction.resolve","arguments":{resolve_args}}}}}"#
        );
        let resp = server.handle_request(&resolve_req).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert!(
            parsed.get("result").is_some(),
            "friction.resolve should succeed"
        );
        let text = &parsed["result"]["content"][0]["text"];
        let resolve_result: Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
        assert_eq!(resolve_result["status"], "resolved");

        // 5. Review again — should show 1 resolved entry
        let resp = server.handle_request(review_req).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let text = &parsed["result"]["content"][0]["text"];
        let review2: Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
        assert_eq!(review2["resolved"], 1, "Should show 1 resolved entry");
        assert_eq!(review2["regressions"], 0);

        // 6. Log the same friction AGAIN — should detect regression
        let regression_req = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"friction.log","arguments":{"what_happened":"memory.search returns empty results for valid queries","expected_behavior":"Should return matching memories","suggested_fix":"Check Tantivy index state","severity":"medium","category":"ux","tool_name":"memory.search"}}}"#;
        let resp = server.handle_request(regression_req).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let text = &parsed["result"]["content"][0]["text"];
        let reg_result: Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
        assert_eq!(
            reg_result["status"], "regression",
            "Should detect regression when resolved friction reappears"
        );
        assert_eq!(reg_result["escalated_severity"], "high");

        // 7. Final review — should show 1 resolved + 1 regression
        let resp = server.handle_request(review_req).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let text = &parsed["result"]["content"][0]["text"];
        let review3: Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
        assert_eq!(review3["resolved"], 1, "Should still show 1 resolved");
        assert_eq!(review3["regressions"], 1, "Should show 1 regression");
    }

    // ── E2E Transaction Integration Test ──────────────────────────────

    #[tokio::test]
    async fn e2e_transaction_begin_rollback_restores_data() {
        let mut server = test_server();

        // Initialize to move out of Delta
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // 1. Create a memory in Codex
        let create_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"e2e transaction test memory","tags":["transaction","e2e"]}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&create_resp).unwrap();
        assert!(
            parsed.get("error").is_none() || parsed["error"].is_null(),
            "memory.create failed: {parsed}"
        );
        let content = parsed["result"]["content"].as_array().unwrap();
        let create_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(create_result["status"], "success");
        let mem_id = create_result["id"].as_str().unwrap().to_string();

        // 2. Begin transaction — snapshots all galaxies
        let begin_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"transaction.begin","arguments":{}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&begin_resp).unwrap();
        assert!(
            parsed.get("error").is_none() || parsed["error"].is_null(),
            "transaction.begin failed: {parsed}"
        );
        let content = parsed["result"]["content"].as_array().unwrap();
        let begin_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(begin_result["status"], "success");
        assert!(begin_result["total_memories_snapshotted"].as_u64() >= Some(1));

        // 3. Mutate — delete the memory
        let delete_req = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"memory.delete","arguments":{{"galaxy":"codex","id":"{mem_id}","confirm":true}}}}}}"#
        );
        let delete_resp = server.handle_request(&delete_req).await;
        let parsed: Value = serde_json::from_str(&delete_resp).unwrap();
        assert!(
            parsed.get("error").is_none() || parsed["error"].is_null(),
            "memory.delete failed: {parsed}"
        );

        // Verify memory is gone
        let list_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory.list","arguments":{"galaxy":"codex","limit":100}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&list_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let list_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(list_result["status"], "success");
        // Memory should not be in the list
        let memories = list_result["memories"].as_array().unwrap();
        let found = memories.iter().any(|m| m["id"] == mem_id);
        assert!(!found, "memory should be deleted before rollback");

        // 4. Rollback — restore all galaxies from snapshot (destructive, needs confirm)
        let rollback_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"transaction.rollback","arguments":{"confirm":true}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&rollback_resp).unwrap();
        assert!(
            parsed.get("error").is_none() || parsed["error"].is_null(),
            "transaction.rollback failed: {parsed}"
        );
        let content = parsed["result"]["content"].as_array().unwrap();
        let rollback_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(rollback_result["status"], "success");
        assert!(
            rollback_result["memories_restored"].as_u64() >= Some(1),
            "should restore at least 1 memory"
        );

        // 5. Verify memory was restored
        let list_resp2 = server.handle_request(
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"memory.list","arguments":{"galaxy":"codex","limit":100}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&list_resp2).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let list_result2: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(list_result2["status"], "success");
        let memories2 = list_result2["memories"].as_array().unwrap();
        let found2 = memories2.iter().any(|m| {
            m["content_preview"]
                .as_str()
                .unwrap_or("")
                .contains("e2e transaction test")
        });
        assert!(found2, "memory content should be restored after rollback");
    }

    #[tokio::test]
    async fn e2e_transaction_begin_commit_keeps_changes() {
        let mut server = test_server();

        // Initialize to move out of Delta
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // 1. Create a memory
        let create_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"commit test memory","tags":["commit"]}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&create_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let create_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        let _mem_id = create_result["id"].as_str().unwrap().to_string();

        // 2. Begin transaction
        let begin_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"transaction.begin","arguments":{}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&begin_resp).unwrap();
        assert!(parsed.get("error").is_none() || parsed["error"].is_null());

        // 3. Create a second memory (mutation)
        let create2_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"second memory after begin","tags":["commit"]}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&create2_resp).unwrap();
        assert!(parsed.get("error").is_none() || parsed["error"].is_null());

        // 4. Commit — keeps all changes
        let commit_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"transaction.commit","arguments":{}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&commit_resp).unwrap();
        assert!(parsed.get("error").is_none() || parsed["error"].is_null());
        let content = parsed["result"]["content"].as_array().unwrap();
        let commit_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(commit_result["status"], "success");

        // 5. Verify both memories still exist (commit kept changes)
        let list_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"memory.list","arguments":{"galaxy":"codex","limit":100}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&list_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let list_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        let total = list_result["total"].as_u64().unwrap();
        assert!(
            total >= 2,
            "both memories should exist after commit, got {total}"
        );
    }

    #[tokio::test]
    async fn e2e_transaction_rollback_without_begin_errors() {
        let mut server = test_server();

        // Initialize to move out of Delta
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // Rollback without begin — should error
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"transaction.rollback","arguments":{"confirm":true}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        // Should get a governance error (no active transaction)
        assert!(
            parsed.get("error").is_some() || parsed.get("result").is_none(),
            "rollback without begin should fail"
        );
    }

    #[tokio::test]
    async fn e2e_transaction_rollback_without_confirm_blocked() {
        let mut server = test_server();

        // Initialize to move out of Delta
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // Begin a transaction
        let begin_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"transaction.begin","arguments":{}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&begin_resp).unwrap();
        assert!(parsed.get("error").is_none() || parsed["error"].is_null());

        // Rollback without confirm — should be blocked by destructive gate
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"transaction.rollback","arguments":{}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        // Should get an error about destructive/confirm
        assert!(
            parsed.get("error").is_some() || parsed.get("result").is_none(),
            "rollback without confirm should be blocked"
        );
    }

    // ── E2E: wm meta-tool inner dispatch is governance-gated ───────────

    #[tokio::test]
    async fn e2e_wm_route_destructive_without_confirm_blocked() {
        let mut server = test_server();

        // Initialize to move out of Delta
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // Create a memory via the wm meta-tool
        let create_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"e2e destructive gate test"}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&create_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let create_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(create_result["status"], "success");
        let mem_id = create_result["id"].as_str().unwrap().to_string();

        // Delete via wm(route=...) WITHOUT confirm — must be blocked by the
        // pipeline's destructive gate, even though the request went through NLU
        // explicit routing.
        let delete_req = format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"wm","arguments":{{"route":"memory.delete","args":{{"galaxy":"codex","id":"{mem_id}"}}}}}}}}"#
        );
        let delete_resp = server.handle_request(&delete_req).await;
        let parsed: Value = serde_json::from_str(&delete_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let delete_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            delete_result["status"], "error",
            "wm(route=memory.delete) without confirm must fail, got: {delete_result}"
        );
        assert!(
            delete_result["error"]
                .as_str()
                .unwrap()
                .contains("destructive"),
            "expected destructive-gate message, got: {delete_result}"
        );

        // The memory must still exist
        let list_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.list","args":{"galaxy":"codex","limit":100}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&list_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let list_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        let memories = list_result["memories"].as_array().unwrap();
        assert!(
            memories.iter().any(|m| m["id"] == mem_id),
            "memory should survive a blocked destructive call"
        );
    }

    #[tokio::test]
    async fn e2e_wm_inner_failure_recorded_as_failure_telemetry() {
        let mut server = test_server();

        // Initialize to move out of Delta
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // A successful NLU request first, to establish a baseline (no error)
        let ok_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.list","args":{"galaxy":"codex","limit":1}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&ok_resp).unwrap();
        assert!(parsed.get("error").is_none() || parsed["error"].is_null());

        // Inner failure: route to a tool that doesn't exist. The meta-tool
        // returns `{"status":"error", ...}` as a successful JSON-RPC result —
        // the request as a whole must still be seen as a failure by the
        // telemetry layers (friction auto-log below), not as a success.
        let fail_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wm","arguments":{"route":"no.such.tool"}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&fail_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let fail_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(fail_result["status"], "error");

        // The inner failure must surface in the friction log — this is the
        // regression test for inner errors being swallowed as successes.
        let review_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"friction.review","arguments":{}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&review_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let review: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert!(
            review["total_friction_entries"].as_u64().unwrap() >= 1,
            "inner wm failure should be friction-logged, got: {review}"
        );
    }

    #[tokio::test]
    async fn q03_manifest_matches_actual_boundary_and_profile_registries() {
        for profile in [
            &wm_tools::profiles::PROFILE_FULL,
            &wm_tools::profiles::PROFILE_CURATED,
            &wm_tools::profiles::PROFILE_MINIMAL,
            &wm_tools::profiles::PROFILE_PRAY,
        ] {
            let tmp = tempfile::tempdir().unwrap();
            let server =
                McpServer::with_defaults_mode_profile(&test_store_path(&tmp), false, profile)
                    .unwrap();
            let m = server.capability_manifest();
            let routes = m["routes"].as_array().unwrap();
            assert_eq!(routes.len(), server.registry.len());
            assert_eq!(
                m["counts"]["boundary_registry_including_meta"],
                routes.len()
            );
            assert_eq!(m["counts"]["wm_routable_names"], routes.len() - 1);
            let listed = server.handle_tools_list().unwrap();
            assert_eq!(m["mcp_entrypoints"], listed["tools"]);
            let names: std::collections::BTreeSet<_> =
                routes.iter().map(|r| r["name"].as_str().unwrap()).collect();
            assert_eq!(names.len(), routes.len(), "no duplicate registration names");
            let profile_count = m["profile_contract"]["registered_count"].as_u64().unwrap();
            assert_eq!(m["counts"]["profile_pre_meta"], profile_count);
            if profile.name == "full" {
                let alias = routes
                    .iter()
                    .find(|r| r["name"] == "memory.hybrid_recall")
                    .unwrap();
                assert_eq!(alias["canonical_route"], "memory.search");
            }
            if profile.name == "minimal" {
                assert!(!names.contains("code.claim"));
            }
        }
    }

    #[tokio::test]
    async fn q03_manifest_readonly_blocks_writes_without_hiding_registration() {
        let tmp = tempfile::tempdir().unwrap();
        let path = test_store_path(&tmp);
        drop(
            McpServer::with_defaults_mode_profile(
                &path,
                false,
                &wm_tools::profiles::PROFILE_MINIMAL,
            )
            .unwrap(),
        );
        let server = McpServer::with_defaults_mode_profile(
            &path,
            true,
            &wm_tools::profiles::PROFILE_MINIMAL,
        )
        .unwrap();
        let m = server.capability_manifest();
        let routes = m["routes"].as_array().unwrap();
        assert_eq!(
            routes
                .iter()
                .find(|r| r["name"] == "memory.create")
                .unwrap()["blocked_by_readonly"],
            true
        );
        assert_eq!(
            routes.iter().find(|r| r["name"] == "memory.read").unwrap()["blocked_by_readonly"],
            false
        );
    }

    #[tokio::test]
    async fn e2e_curated_profile_filters_tool_surface() {
        let tmp = tempfile::tempdir().unwrap();
        let mut server = McpServer::with_defaults_mode_profile(
            &test_store_path(&tmp),
            false,
            &wm_tools::profiles::PROFILE_CURATED,
        )
        .unwrap();

        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // Memory-hierarchy tools stay reachable through the meta-tool.
        let create_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"curated profile test"}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&create_resp).unwrap();
        assert!(
            parsed.get("error").is_none() || parsed["error"].is_null(),
            "memory.create should work under curated profile, got: {parsed}"
        );

        // Full-surface tools are filtered out: direct dispatch fails…
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"redteam.proposals","arguments":{}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert!(
            parsed.get("error").is_some(),
            "redteam.proposals should be filtered out under curated profile, got: {parsed}"
        );

        // …and the wm meta-tool cannot route to them either.
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wm","arguments":{"route":"redteam.proposals"}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let routed: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(routed["status"], "error");
        assert!(
            routed["message"].as_str().unwrap().contains("Unknown tool"),
            "wm routing must not reach filtered tools, got: {routed}"
        );
    }

    #[tokio::test]
    async fn profile_contract_attaches_and_persists_on_writable_server() {
        let tmp = tempfile::tempdir().unwrap();
        let store = test_store_path(&tmp);
        let server = McpServer::with_defaults_mode_profile(
            &store,
            false,
            &wm_tools::profiles::PROFILE_CURATED,
        )
        .unwrap();

        let contract = server
            .profile_contract
            .as_ref()
            .expect("contract attached at construction");
        assert!(
            contract.ok,
            "curated surface must satisfy its own contract: {contract:?}"
        );
        assert_eq!(contract.profile, "curated");
        assert_eq!(contract.expected_count, contract.registered_count);
        assert!(contract.dead_prefixes.is_empty());
        // memory.delete rides the `memory` prefix by design — confirm-gated.
        assert!(
            contract
                .destructive_tools
                .iter()
                .any(|t| t == "memory.delete")
        );

        let root = store.parent().unwrap();
        let body = std::fs::read_to_string(root.join("profile_contract.json")).unwrap();
        let persisted: wm_tools::profiles::ProfileContract = serde_json::from_str(&body).unwrap();
        assert!(persisted.ok);
        assert_eq!(persisted.registered_count, contract.registered_count);

        let payload = server.status_payload();
        assert_eq!(payload["profile_contract"]["profile"], "curated");
        assert_eq!(payload["profile_contract"]["ok"], true);
    }

    #[tokio::test]
    async fn profile_contract_on_readonly_server_persists_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let store = test_store_path(&tmp);
        initialize_readonly_store(&store);
        let server = McpServer::with_defaults_mode_profile(
            &store,
            true,
            &wm_tools::profiles::PROFILE_CURATED,
        )
        .unwrap();
        assert!(server.profile_contract.as_ref().expect("attached").ok);
        assert!(
            !store
                .parent()
                .unwrap()
                .join("profile_contract.json")
                .exists()
        );
    }

    #[tokio::test]
    async fn readonly_mode_blocks_all_mutations() {
        let tmp = tempfile::tempdir().unwrap();
        let store = test_store_path(&tmp);
        initialize_readonly_store(&store);
        let mut server = McpServer::with_defaults_mode(&store, true).unwrap();

        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // Every mutating tool in the curated surface must fail under --readonly.
        // Regression: `--readonly` used to protect only the Tantivy writer,
        // while session.start and transaction.begin kept writing to LMDB.
        for (route, args) in [
            (
                "memory.create",
                r#"{"galaxy":"codex","content":"readonly regression"}"#,
            ),
            ("session.start", r#"{"title":"readonly regression"}"#),
            ("transaction.begin", "{}"),
        ] {
            let req = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"wm","arguments":{{"route":"{route}","args":{args}}}}}}}"#
            );
            let resp = server.handle_request(&req).await;
            let parsed: Value = serde_json::from_str(&resp).unwrap();
            let content = parsed["result"]["content"]
                .as_array()
                .expect("tools/call should return content");
            let result: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
            assert_eq!(
                result["status"], "error",
                "read-only mode must reject {route}, got: {result}"
            );
        }
    }

    #[tokio::test]
    async fn preservation_readonly_lifecycle_leaves_complete_fixture_tree_unchanged() {
        let tmp = tempfile::tempdir().unwrap();
        let store = test_store_path(&tmp);
        initialize_readonly_store(&store);
        let root = store.parent().unwrap();
        let before = snapshot_preservation_tree(root);
        let mut server = McpServer::with_defaults_mode_profile_preservation(
            &store,
            true,
            &wm_tools::profiles::PROFILE_CURATED,
            true,
        )
        .unwrap();
        let initialized = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;
        assert!(serde_json::from_str::<Value>(&initialized).unwrap()["error"].is_null());
        assert_eq!(server.status_payload()["readonly"], true);
        let read = server
            .handle_request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.list","args":{"galaxy":"codex","limit":1}}}}"#)
            .await;
        let read: Value = serde_json::from_str(&read).unwrap();
        assert!(read["error"].is_null(), "permitted read failed: {read}");
        let rejected = server
            .handle_request(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"synthetic refusal"}}}}"#)
            .await;
        let rejected: Value = serde_json::from_str(&rejected).unwrap();
        let result: Value =
            serde_json::from_str(rejected["result"]["content"][0]["text"].as_str().unwrap())
                .unwrap();
        assert_eq!(result["status"], "error", "write must be refused: {result}");
        server.shutdown();
        assert_eq!(
            snapshot_preservation_tree(root),
            before,
            "preservation lifecycle changed the fixture tree"
        );
        for forbidden in [
            "lmdb/resonance_events.jsonl",
            "friction_ro.jsonl",
            "landlock_state.json",
            "profile_contract.json",
        ] {
            assert!(
                !root.join(forbidden).exists(),
                "forbidden artifact: {forbidden}"
            );
        }
    }

    /// Scope 1 funnel wiring: writable init records launch milestones and
    /// successful tool calls record the memory/resume milestones; read-only
    /// init writes nothing (pinned independently by the preservation tree
    /// snapshot above).
    #[tokio::test]
    async fn local_funnel_records_writable_milestones_only() {
        let tmp = tempfile::tempdir().unwrap();
        let store = test_store_path(&tmp);
        let root = store.parent().unwrap().to_path_buf();

        // Writable launch: first_launch + init_ok, ledger persisted.
        let server = McpServer::with_defaults(&store).unwrap();
        let state = wm_tools::expansion::funnel::read_state(&root).expect("funnel ledger");
        assert!(
            state.milestones.iter().any(|m| m == "first_launch"),
            "{state:?}"
        );
        assert!(state.milestones.iter().any(|m| m == "init_ok"), "{state:?}");
        drop(server);

        // Tool milestones: session.start → record → continuity with history.
        let mut server = McpServer::with_defaults(&store).unwrap();
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;
        let started = crate::selftest::call(
            &mut server,
            1,
            "session.start",
            json!({"title": "funnel wiring probe"}),
        )
        .await;
        assert!(
            started.get("session_id").is_some() || started.get("status").is_some(),
            "session.start should succeed: {started}"
        );
        crate::selftest::call(
            &mut server,
            2,
            "session.record",
            json!({"content": "funnel wiring probe turn", "role": "user", "turn_type": "decision"}),
        )
        .await;
        let state = wm_tools::expansion::funnel::read_state(&root).expect("funnel ledger");
        assert!(
            state.milestones.iter().any(|m| m == "first_memory"),
            "a successful session.record must emit first_memory: {state:?}"
        );
        drop(server);

        let mut reopened = McpServer::with_defaults(&store).unwrap();
        let continuity =
            crate::selftest::call(&mut reopened, 3, "session.continuity", json!({"n": 5})).await;
        assert!(
            continuity["count"].as_u64().unwrap_or(0) >= 1
                && !continuity["previous_session"].is_null(),
            "probe needs a populated previous session: {continuity}"
        );
        let state = wm_tools::expansion::funnel::read_state(&root).expect("funnel ledger");
        assert!(
            state.milestones.iter().any(|m| m == "first_resume"),
            "a continuity hit with ≥ 1 prior turn must emit first_resume: {state:?}"
        );
        drop(reopened);

        // Read-only launch: no ledger, no funnel write of any kind.
        let tmp2 = tempfile::tempdir().unwrap();
        let store2 = test_store_path(&tmp2);
        initialize_readonly_store(&store2);
        let root2 = store2.parent().unwrap();
        let _readonly = McpServer::with_defaults_mode(&store2, true).unwrap();
        assert!(
            !root2.join("funnel_state.json").exists(),
            "read-only init must not write the funnel ledger"
        );
    }

    #[test]
    fn registry_persistence_mode_is_constructor_local_and_preserves_topology() {
        fn route_names(server: &McpServer) -> Vec<String> {
            let mut names: Vec<_> = server
                .registry
                .all_ref()
                .iter()
                .map(|tool| tool.name().to_string())
                .collect();
            names.sort();
            names
        }

        fn stable_contract(server: &McpServer) -> Value {
            let mut value = serde_json::to_value(&server.profile_contract).unwrap();
            value
                .as_object_mut()
                .expect("profile contract")
                .remove("verified_at");
            value
        }

        let preserved_a = tempfile::tempdir().unwrap();
        let preserved_a_store = test_store_path(&preserved_a);
        initialize_readonly_store(&preserved_a_store);
        let preserved_a_server = McpServer::with_defaults_mode_profile_preservation(
            &preserved_a_store,
            true,
            &wm_tools::profiles::PROFILE_CURATED,
            true,
        )
        .unwrap();
        assert!(!preserved_a_store.join("violet").exists());

        let normal = tempfile::tempdir().unwrap();
        let normal_store = test_store_path(&normal);
        initialize_readonly_store(&normal_store);
        let normal_server = McpServer::with_defaults_mode_profile(
            &normal_store,
            true,
            &wm_tools::profiles::PROFILE_CURATED,
        )
        .unwrap();
        assert!(normal_store.join("violet/violet_issuer.key").is_file());
        assert!(normal_store.join("violet/violet_signer.key").is_file());

        // Construct preservation mode again after Normal. A process-global
        // selector would make this order-dependent; the typed input cannot.
        let preserved_b = tempfile::tempdir().unwrap();
        let preserved_b_store = test_store_path(&preserved_b);
        initialize_readonly_store(&preserved_b_store);
        let preserved_b_server = McpServer::with_defaults_mode_profile_preservation(
            &preserved_b_store,
            true,
            &wm_tools::profiles::PROFILE_CURATED,
            true,
        )
        .unwrap();
        assert!(!preserved_b_store.join("violet").exists());

        assert_eq!(
            route_names(&preserved_a_server),
            route_names(&normal_server)
        );
        assert_eq!(
            route_names(&preserved_b_server),
            route_names(&normal_server)
        );
        assert_eq!(
            stable_contract(&preserved_a_server),
            stable_contract(&normal_server)
        );
        assert_eq!(
            stable_contract(&preserved_b_server),
            stable_contract(&normal_server)
        );
    }

    #[tokio::test]
    async fn shutdown_heals_index_drift() {
        // Use the real server construction path (with_defaults_mode_profile)
        // so the search engine is attached to the server like in production.
        let tmp = tempfile::tempdir().unwrap();
        let store_path = test_store_path(&tmp);
        let server = McpServer::with_defaults_mode_profile(
            &store_path,
            false,
            &wm_tools::profiles::PROFILE_CURATED,
        )
        .unwrap();
        let engine = server.search_engine().unwrap().clone();

        // Create drift: a session write that bypasses the Tantivy index,
        // exactly what session tools do (they hold no SearchEngine).
        let mem =
            wm_memory::Memory::new(wm_core::Galaxy::Sessions, "unindexed session record".into());
        server.store().put(wm_core::Galaxy::Sessions, &mem).unwrap();

        let before = wm_memory::reindex::check_consistency(server.store(), &engine);
        assert!(
            before
                .galaxies
                .iter()
                .any(|g| g.galaxy == "sessions" && g.drift),
            "precondition: sessions galaxy should be drifted before shutdown"
        );

        server.shutdown();

        let after = wm_memory::reindex::check_consistency(server.store(), &engine);
        assert!(
            !after
                .galaxies
                .iter()
                .any(|g| g.galaxy == "sessions" && g.drift),
            "shutdown heal left sessions galaxy drifted: {:?}",
            after.galaxies
        );
    }

    #[tokio::test]
    async fn unknown_compartment_fails_closed() {
        let mut server = test_server();

        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // Regression: unknown compartment values used to fail open (full access).
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"compartment regression"}},"_meta":{"compartment":"bogus"}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let content = parsed["result"]["content"]
            .as_array()
            .expect("tools/call should return content");
        let result: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            result["status"], "error",
            "unknown compartment must fail closed, got: {result}"
        );
    }

    #[tokio::test]
    async fn meta_in_tool_arguments_is_stripped() {
        let mut server = test_server();

        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // A caller tries to inject _meta inside tool arguments (not the
        // top-level params _meta). The server must strip it before dispatch
        // so it cannot override compartment/identity controls.
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"meta injection test","_meta":{"compartment":"bogus"}}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let content = parsed["result"]["content"]
            .as_array()
            .expect("tools/call should return content");
        let result: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();

        // The memory.create should succeed (no compartment restriction
        // because _meta in arguments was stripped, not treated as a
        // compartment override from the top-level _meta).
        assert_eq!(
            result["status"], "success",
            "_meta in tool arguments should be stripped, not interpreted — got: {result}"
        );
    }

    #[tokio::test]
    async fn tools_list_reflects_active_profile() {
        let tmp = tempfile::tempdir().unwrap();
        let mut server = McpServer::with_defaults_mode_profile(
            &test_store_path(&tmp),
            false,
            &wm_tools::profiles::PROFILE_CURATED,
        )
        .unwrap();

        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // Regression: tools/list hardcoded the full-surface description
        // ("229 tools") regardless of the active profile. The durable
        // property is that the description names the ACTIVE surface.
        let list_resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#)
            .await;
        let parsed: Value = serde_json::from_str(&list_resp).unwrap();
        let description = parsed["result"]["tools"][0]["description"]
            .as_str()
            .unwrap();
        assert!(
            description.contains("curated tool surface"),
            "curated tools/list description must name the active surface, got: {description}"
        );

        // The inner tools.list must agree with the curated registry size.
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wm","arguments":{"route":"tools.list"}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let listed: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        // tools.list snapshots the pre-meta-tool registry (gnosis excluded),
        // so the expected count is the registry minus the four meta-tools.
        let expected = server
            .registry()
            .all()
            .iter()
            .filter(|t| {
                ![
                    "wm",
                    "tools.list",
                    "tools.usage_report",
                    "gnosis",
                    "nlu.shadow_report",
                ]
                .contains(&t.name())
            })
            .count() as u64;
        assert_eq!(
            listed["total"],
            json!(expected),
            "inner tools.list must report the active profile registry size"
        );
        // The curated surface must not expose galaxy management tools and
        // must expose the explicit claims routes.
        let names: Vec<&str> = listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert!(
            !names.iter().any(|n| n.starts_with("galaxy.")),
            "curated tools.list must exclude galaxy tools, got: {names:?}"
        );
        assert!(
            names.contains(&"claims.calibration"),
            "curated tools.list must include claims.calibration, got: {names:?}"
        );
    }

    #[tokio::test]
    async fn private_memories_never_appear_in_mcp_read_paths() {
        let mut server = test_server();

        // Seed one private and one public memory directly in the store.
        let mut priv_mem = wm_memory::Memory::new(wm_core::Galaxy::Codex, "top secret note".into());
        priv_mem.metadata.is_private = true;
        let priv_id = priv_mem.metadata.id;
        server
            .store()
            .put(wm_core::Galaxy::Codex, &priv_mem)
            .unwrap();
        let pub_mem = wm_memory::Memory::new(wm_core::Galaxy::Codex, "public note".into());
        let pub_id = pub_mem.metadata.id;
        server
            .store()
            .put(wm_core::Galaxy::Codex, &pub_mem)
            .unwrap();

        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // memory.read of a private memory reports not_found.
        let read_req = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"wm","arguments":{{"route":"memory.read","args":{{"galaxy":"codex","id":"{priv_id}"}}}}}}}}"#
        );
        let resp = server.handle_request(&read_req).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let read: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            read["status"], "not_found",
            "private memory.read must report not_found, got: {read}"
        );

        // memory.list excludes private memories.
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.list","args":{"galaxy":"codex","limit":50}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let list: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        let ids: Vec<&str> = list["memories"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["id"].as_str())
            .collect();
        let priv_str = priv_id.to_string();
        let pub_str = pub_id.to_string();
        assert!(
            !ids.contains(&priv_str.as_str()),
            "private memory leaked through list: {list}"
        );
        assert!(
            ids.contains(&pub_str.as_str()),
            "public memory missing from list: {list}"
        );

        // memory.query excludes private memories.
        let resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.query","args":{"galaxy":"codex","limit":50,"query":"note"}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let query: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        let qids: Vec<&str> = query["memories"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["id"].as_str())
            .collect();
        assert!(
            !qids.contains(&priv_str.as_str()),
            "private memory leaked through query: {query}"
        );
        assert!(
            qids.contains(&pub_str.as_str()),
            "public memory missing from query: {query}"
        );
    }

    #[tokio::test]
    async fn e2e_wm_thought_cannot_delete_memory() {
        let mut server = test_server();

        // Initialize to move out of Delta
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // Create a memory via the wm meta-tool
        let create_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"e2e NLU hard-block test"}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&create_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let create_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(create_result["status"], "success");
        let mem_id = create_result["id"].as_str().unwrap().to_string();

        // Natural-language delete — structurally blocked (NLU hard gate)
        let delete_req = format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"wm","arguments":{{"thought":"delete memory {mem_id}"}}}}}}"#
        );
        let delete_resp = server.handle_request(&delete_req).await;
        let parsed: Value = serde_json::from_str(&delete_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let delete_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            delete_result["status"], "error",
            "NLU delete must be blocked, got: {delete_result}"
        );
        assert!(
            delete_result["message"]
                .as_str()
                .unwrap()
                .contains("cannot be reached via natural language"),
            "expected NLU hard-block message, got: {delete_result}"
        );

        // The memory must still exist
        let list_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.list","args":{"galaxy":"codex","limit":100}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&list_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let list_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        let memories = list_result["memories"].as_array().unwrap();
        assert!(
            memories.iter().any(|m| m["id"] == mem_id),
            "memory should survive an NLU delete attempt"
        );
    }

    #[tokio::test]
    async fn e2e_wm_route_destructive_with_confirm_succeeds() {
        let mut server = test_server();

        // Initialize to move out of Delta
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // Create a memory via the wm meta-tool
        let create_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"e2e confirm-path test"}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&create_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let create_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(create_result["status"], "success");
        let mem_id = create_result["id"].as_str().unwrap().to_string();

        // Delete via wm(route=...) WITH confirm — must succeed
        let delete_req = format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"wm","arguments":{{"route":"memory.delete","args":{{"galaxy":"codex","id":"{mem_id}","confirm":true}}}}}}}}"#
        );
        let delete_resp = server.handle_request(&delete_req).await;
        let parsed: Value = serde_json::from_str(&delete_resp).unwrap();
        assert!(
            parsed.get("error").is_none() || parsed["error"].is_null(),
            "wm(route=memory.delete) with confirm should succeed, got: {parsed}"
        );
        let content = parsed["result"]["content"].as_array().unwrap();
        let delete_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(delete_result["status"], "success");

        // The memory must be gone
        let list_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.list","args":{"galaxy":"codex","limit":100}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&list_resp).unwrap();
        let content = parsed["result"]["content"].as_array().unwrap();
        let list_result: Value =
            serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        let memories = list_result["memories"].as_array().unwrap();
        assert!(
            !memories.iter().any(|m| m["id"] == mem_id),
            "memory should be deleted after confirmed destructive call"
        );
    }

    // ── E2E Mutable Structures Integration Tests (Phase 6) ─────────────

    #[tokio::test]
    async fn e2e_gana_registry_records_dispatch_co_usage() {
        let tmp = tempfile::tempdir().unwrap();
        let mut server = McpServer::with_defaults(&test_store_path(&tmp)).unwrap();

        // Initialize to move out of Delta
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // Dispatch multiple tools to generate co-usage patterns
        for i in 0..5 {
            let resp = server.handle_request(&format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"wm","arguments":{{"thought":"gana registry test {i}"}}}}}}"#
            )).await;
            let parsed: Value = serde_json::from_str(&resp).unwrap();
            assert!(
                parsed.get("error").is_none() || parsed["error"].is_null(),
                "dispatch {i} should succeed"
            );
        }

        // Verify GanaRegistry recorded usage
        let total_usage: u64 = {
            let registry = server.gana_registry().lock().unwrap();
            registry.usage_counts().values().sum()
        };
        assert!(
            total_usage >= 5,
            "GanaRegistry should have recorded at least 5 usages, got {total_usage}"
        );
    }

    #[tokio::test]
    async fn e2e_dynamic_galaxy_registry_accessible() {
        let tmp = tempfile::tempdir().unwrap();
        let server = McpServer::with_defaults(&test_store_path(&tmp)).unwrap();

        // Verify DynamicGalaxyRegistry is accessible and starts empty
        let count = {
            let dg = server.dynamic_galaxies().lock().unwrap();
            dg.galaxy_count()
        };
        assert_eq!(count, 0, "DynamicGalaxyRegistry should start empty");
    }

    #[tokio::test]
    async fn e2e_learned_dream_cycle_attached() {
        let tmp = tempfile::tempdir().unwrap();
        let server = McpServer::with_defaults(&test_store_path(&tmp)).unwrap();

        // The dream cycle should have a LearnedDreamCycle attached
        // (verified indirectly: the dream cycle runs without error)
        assert_eq!(server.dream().cycles_completed(), 0);
    }

    #[tokio::test]
    async fn e2e_full_pipeline_with_mutable_structures() {
        let tmp = tempfile::tempdir().unwrap();
        let mut server = McpServer::with_defaults(&test_store_path(&tmp)).unwrap();

        // 1. Initialize
        let _ = server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // 2. Create a memory
        let create_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wm","arguments":{"route":"memory.create","args":{"galaxy":"codex","content":"mutable structures e2e test","tags":["e2e","mutable"]}}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&create_resp).unwrap();
        assert!(parsed.get("error").is_none() || parsed["error"].is_null());

        // 3. List memories
        let list_resp = server.handle_request(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory.list","arguments":{"galaxy":"codex","limit":10}}}"#,
        ).await;
        let parsed: Value = serde_json::from_str(&list_resp).unwrap();
        assert!(parsed.get("error").is_none() || parsed["error"].is_null());

        // 4. Verify GanaRegistry recorded usage from both dispatches
        let (total_usage, distinct_ganas) = {
            let registry = server.gana_registry().lock().unwrap();
            (
                registry.usage_counts().values().sum::<u64>(),
                registry.usage_counts().len(),
            )
        };
        assert!(
            total_usage >= 2,
            "GanaRegistry should have recorded at least 2 usages, got {total_usage}"
        );

        // 5. Verify at least 1 distinct Gana was tracked
        assert!(
            distinct_ganas >= 1,
            "GanaRegistry should track at least 1 Gana, got {distinct_ganas}"
        );
    }

    #[tokio::test]
    async fn e2e_mutable_state_persistence_roundtrip() {
        let tmp = tempfile::tempdir().unwrap();

        // Phase 1: Create server, record usage, save
        {
            let mut server = McpServer::with_defaults(&test_store_path(&tmp)).unwrap();
            let _ = server
                .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
                .await;

            // Dispatch tools to generate GanaRegistry usage
            for i in 0..3 {
                let _ = server.handle_request(&format!(
                    r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"wm","arguments":{{"thought":"persistence test {i}"}}}}}}"#
                )).await;
            }

            // Record some dream phase effectiveness
            if let Some(learned) = server.dream_mut().learned_mut() {
                learned.record_phase(0, true, 0.8, 100);
                learned.record_phase(1, false, 0.2, 200);
            }

            // Record conformal coverage in the self-model (drift health)
            server
                .self_model()
                .lock()
                .unwrap()
                .record(wm_selfmodel::MetricKind::ConformalCoverage, 0.92);
            server
                .self_model()
                .lock()
                .unwrap()
                .record(wm_selfmodel::MetricKind::ConformalCoverage, 0.88);

            // Save mutable state
            server.save_mutable_state();
        }

        // Phase 2: Recreate server from same path, verify state was loaded
        {
            let server = McpServer::with_defaults(&test_store_path(&tmp)).unwrap();

            // GanaRegistry should have recorded usage
            let total_usage: u64 = {
                let registry = server.gana_registry().lock().unwrap();
                registry.usage_counts().values().sum()
            };
            assert!(
                total_usage >= 3,
                "GanaRegistry should have loaded {total_usage} usages from disk (expected >= 3)"
            );

            // LearnedDreamCycle should have phase effectiveness data
            let learned = server.dream().learned();
            assert!(learned.is_some(), "LearnedDreamCycle should be loaded");
            if let Some(learned) = learned {
                let eff0 = learned.effectiveness(0);
                assert!(eff0.is_some(), "Phase 0 should have effectiveness data");
                if let Some(eff) = eff0 {
                    assert_eq!(eff.runs, 1, "Phase 0 should have 1 run recorded");
                }
            }

            // Self-model should have restored conformal coverage history
            assert_eq!(
                server
                    .self_model()
                    .lock()
                    .unwrap()
                    .sample_count(wm_selfmodel::MetricKind::ConformalCoverage),
                2,
                "Self-model conformal coverage history should restore from disk"
            );
        }
    }

    /// Startup drift heal: memories written to LMDB by search-less writers
    /// (session tools, dream consolidation, research cycles) must become
    /// searchable after the first writable server start.
    #[tokio::test]
    async fn startup_heals_index_drift_from_lmdb_only_writers() {
        let tmp = tempfile::tempdir().unwrap();
        let store_path = test_store_path(&tmp);

        // Simulate the systematic drift pattern: LMDB-only write, no index.
        {
            let store = MemoryStore::open_default(&store_path).unwrap();
            store
                .put(
                    wm_core::Galaxy::Sessions,
                    &wm_memory::Memory::new(
                        wm_core::Galaxy::Sessions,
                        "quokka hibernation study".into(),
                    ),
                )
                .unwrap();
        }

        // Writable server start detects and heals the drift...
        let mut server = McpServer::with_defaults(&store_path).unwrap();
        server
            .handle_request(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
            .await;

        // ...so search surfaces a memory that was never explicitly indexed.
        let resp = server
            .handle_request(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory.search","arguments":{"query":"quokka hibernation","galaxy":"sessions"}}}"#,
            )
            .await;
        let value: serde_json::Value = serde_json::from_str(&resp).unwrap();
        let text = value["result"]["content"][0]["text"].as_str().unwrap_or("");
        assert!(
            text.contains("quokka"),
            "healed index must surface the unindexed session memory: {text}"
        );
    }

    /// Deterministic test embedder — returns fixed vectors so the embedding
    /// router can be constructed without a live llama-server.
    struct FixedEmbedder {
        dim: usize,
    }

    impl wm_memory::Embedder for FixedEmbedder {
        fn embed_batch(&self, texts: &[&str]) -> wm_core::Result<Vec<Vec<f32>>> {
            Ok(texts
                .iter()
                .enumerate()
                .map(|(i, _)| {
                    let mut v = vec![0.0; self.dim];
                    v[i % self.dim] = 1.0;
                    v
                })
                .collect())
        }
        fn dimension(&self) -> usize {
            self.dim
        }
        fn is_available(&self) -> bool {
            true
        }
        fn backend_name(&self) -> &'static str {
            "fixed-test"
        }
    }

    #[tokio::test]
    async fn e2e_oats_persistence_roundtrip() {
        let tmp = tempfile::tempdir().unwrap();

        let oats_file = test_store_path(&tmp).join("mutable_oats.json");
        assert!(!oats_file.exists(), "no OATS file before save");

        // Phase 1: server with an injected embedding router; record outcomes;
        // save. The router is normally built by with_defaults when a real
        // embedder is configured — here we inject one to exercise the
        // persistence wiring.
        {
            let mut server = McpServer::with_defaults(&test_store_path(&tmp)).unwrap();
            let descriptions = vec![
                (
                    "memory.create".to_string(),
                    "remember and store information in persistent memory".to_string(),
                ),
                (
                    "memory.list".to_string(),
                    "list all stored memories".to_string(),
                ),
            ];
            let router = wm_tools::embedding_router::EmbeddingRouter::with_descriptions(
                Box::new(FixedEmbedder { dim: 8 }),
                descriptions,
            )
            .expect("router should init with fixed embedder");
            let router = Arc::new(router);
            server.embedding_router = Some(Arc::clone(&router));

            router.record_outcome("memory.create", "remember the sky is blue", true);
            router.record_outcome("memory.create", "store a thought", true);
            router.record_outcome("memory.list", "show all memories", false);

            server.save_mutable_state();
            assert!(
                oats_file.exists(),
                "mutable_oats.json should be written on save"
            );
        }

        // Phase 2: fresh server on the same path; inject a fresh router; load
        // state; verify the OATS counts and centroids came back.
        {
            let server = McpServer::with_defaults(&test_store_path(&tmp)).unwrap();
            assert!(server.embedding_router.is_none());

            let descriptions = vec![
                (
                    "memory.create".to_string(),
                    "remember and store information in persistent memory".to_string(),
                ),
                (
                    "memory.list".to_string(),
                    "list all stored memories".to_string(),
                ),
            ];
            let router = wm_tools::embedding_router::EmbeddingRouter::with_descriptions(
                Box::new(FixedEmbedder { dim: 8 }),
                descriptions,
            )
            .expect("router should init with fixed embedder");
            let router = Arc::new(router);
            let mut server = server;
            server.embedding_router = Some(Arc::clone(&router));
            server.load_mutable_state();

            let counts = router.outcome_counts();
            let create = counts
                .iter()
                .find(|(n, _, _)| n == "memory.create")
                .expect("memory.create should have OATS stats");
            assert_eq!(
                create.1, 2,
                "memory.create success count should restore to 2"
            );
            let list = counts
                .iter()
                .find(|(n, _, _)| n == "memory.list")
                .expect("memory.list should have OATS stats");
            assert_eq!(list.1, 0, "memory.list success count should restore to 0");
            assert_eq!(list.2, 1, "memory.list failure count should restore to 1");
        }
    }

    #[tokio::test]
    async fn boundary_validation_rejects_ssrf_url() {
        let mut server = test_server();
        let resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"http.fetch","arguments":{"url":"http://169.254.169.254/latest/meta-data"}}}"#)
            .await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert_eq!(
            parsed["error"]["code"], -32602,
            "SSRF URL must be rejected at the boundary: {resp}"
        );
    }

    #[tokio::test]
    async fn boundary_validation_rejects_path_traversal() {
        let mut server = test_server();
        let resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"file.read","arguments":{"path":"../../../etc/passwd"}}}"#)
            .await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert_eq!(
            parsed["error"]["code"], -32602,
            "Path traversal must be rejected at the boundary: {resp}"
        );
    }

    #[tokio::test]
    async fn boundary_validation_rejects_oversized_params() {
        let mut server = test_server();
        let huge = "x".repeat(MAX_PARAMS_SIZE + 1);
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"memory.write","arguments":{{"content":"{huge}"}}}}}}"#
        );
        let resp = server.handle_request(&body).await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert_eq!(
            parsed["error"]["code"], -32602,
            "Oversized params must be rejected: {resp}"
        );
    }

    #[tokio::test]
    async fn boundary_validation_allows_safe_call() {
        let mut server = test_server();
        let resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory.search","arguments":{"query":"hello"}}}"#)
            .await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert!(
            parsed["error"].is_null(),
            "Safe call should not be rejected: {resp}"
        );
    }

    /// mcp-input-boundary (2026-09-21) regression: the exact repro — a
    /// direct tools/call session.record whose content merely mentions
    /// security vocabulary must never be refused at the boundary. Later
    /// lifecycle failures are fine; the old `-32602 prohibited content`
    /// rejection is not.
    #[tokio::test]
    async fn boundary_validation_allows_content_data_with_security_vocabulary() {
        let mut server = test_server();
        let resp = server
            .handle_request(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"session.record","arguments":{"role":"ai","turn_type":"summary","content":"threat-model note: the jailbreak attempt and root access review"}}}"#,
            )
            .await;
        assert!(
            !resp.contains("prohibited content"),
            "content is data; the boundary false positive returned: {resp}"
        );
        assert!(
            !resp.contains("Parameter 'content'"),
            "content key must be exempt from the instruction scan: {resp}"
        );
    }

    #[tokio::test]
    async fn request_budget_rejects_after_cap() {
        let mut server = test_server();
        server.set_request_budget(2);

        for i in 1..=2 {
            let req = json!({"jsonrpc":"2.0","id":i,"method":"initialize","params":{}}).to_string();
            let resp = server.handle_request(&req).await;
            let parsed: Value = serde_json::from_str(&resp).unwrap();
            assert!(
                parsed["error"].is_null(),
                "request {i} should succeed: {resp}"
            );
        }

        let resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}"#)
            .await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert_eq!(
            parsed["error"]["code"], -32000,
            "request beyond budget must be rejected: {resp}"
        );
        assert_eq!(
            parsed["error"]["data"]["limit"], 2,
            "error should report the budget limit"
        );
    }

    #[tokio::test]
    async fn request_budget_zero_is_unlimited() {
        let mut server = test_server();
        server.set_request_budget(0);
        for i in 1..=5 {
            let req = json!({"jsonrpc":"2.0","id":i,"method":"initialize","params":{}}).to_string();
            let resp = server.handle_request(&req).await;
            let parsed: Value = serde_json::from_str(&resp).unwrap();
            assert!(
                parsed["error"].is_null(),
                "request {i} should succeed: {resp}"
            );
        }
    }

    #[tokio::test]
    async fn rate_limit_throttles_bursts() {
        let mut server = test_server();
        server.set_rate_limit(3);

        for i in 1..=3 {
            let req = json!({"jsonrpc":"2.0","id":i,"method":"initialize","params":{}}).to_string();
            let resp = server.handle_request(&req).await;
            let parsed: Value = serde_json::from_str(&resp).unwrap();
            assert!(
                parsed["error"].is_null(),
                "request {i} should succeed: {resp}"
            );
        }

        let resp = server
            .handle_request(r#"{"jsonrpc":"2.0","id":4,"method":"initialize","params":{}}"#)
            .await;
        let parsed: Value = serde_json::from_str(&resp).unwrap();
        assert_eq!(
            parsed["error"]["code"], -32000,
            "burst beyond rate cap must be throttled: {resp}"
        );
        assert_eq!(parsed["error"]["data"]["limit_rpm"], 3);
    }

    #[tokio::test]
    async fn rate_limit_zero_is_unlimited() {
        let mut server = test_server();
        server.set_rate_limit(0);
        for i in 1..=5 {
            let req = json!({"jsonrpc":"2.0","id":i,"method":"initialize","params":{}}).to_string();
            let resp = server.handle_request(&req).await;
            let parsed: Value = serde_json::from_str(&resp).unwrap();
            assert!(
                parsed["error"].is_null(),
                "request {i} should succeed: {resp}"
            );
        }
    }

    #[test]
    fn bounded_line_read_returns_line() {
        let mut input: &[u8] = b"hello world\nsecond line\n";
        let line = read_bounded_line(&mut input, 1024).unwrap();
        match line {
            BoundedLine::Ok(s) => assert_eq!(s, "hello world"),
            _ => panic!("expected a line"),
        }
    }

    #[test]
    fn bounded_line_read_handles_crlf() {
        let mut input: &[u8] = b"hello\r\n";
        let line = read_bounded_line(&mut input, 1024).unwrap();
        match line {
            BoundedLine::Ok(s) => assert_eq!(s, "hello"),
            _ => panic!("expected a line"),
        }
    }

    #[test]
    fn bounded_line_read_detects_oversize() {
        // 10 bytes of 'x' but max is 8 — must return TooLarge, not allocate 10 bytes
        let mut input: &[u8] = b"xxxxxxxxxx\nrest\n";
        let line = read_bounded_line(&mut input, 8).unwrap();
        match line {
            BoundedLine::TooLarge => {}
            _ => panic!("expected TooLarge"),
        }
        // Stream must be positioned after the oversized line so `rest` is next
        let next = read_bounded_line(&mut input, 1024).unwrap();
        match next {
            BoundedLine::Ok(s) => assert_eq!(s, "rest"),
            _ => panic!("expected next line to be 'rest'"),
        }
    }

    #[test]
    fn bounded_line_read_eof() {
        let mut input: &[u8] = b"";
        match read_bounded_line(&mut input, 1024).unwrap() {
            BoundedLine::Eof => {}
            _ => panic!("expected Eof"),
        }
    }

    #[test]
    fn bounded_line_read_no_trailing_newline() {
        let mut input: &[u8] = b"last line without newline";
        let line = read_bounded_line(&mut input, 1024).unwrap();
        match line {
            BoundedLine::Ok(s) => assert_eq!(s, "last line without newline"),
            _ => panic!("expected a line"),
        }
    }

    #[test]
    fn bounded_line_read_oversize_no_newline() {
        let mut input: &[u8] = b"xxxxxxxxxxxxxxxxxxxxxxxxxxxx";
        match read_bounded_line(&mut input, 8).unwrap() {
            BoundedLine::TooLarge => {}
            _ => panic!("expected TooLarge"),
        }
    }

    #[tokio::test]
    async fn prompts_list_and_get_e2e() {
        let mut server = test_server();
        // 1. Check initialize advertises prompts capability
        let init_req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(1)),
            method: "initialize".into(),
            params: json!({}),
        };
        let init_resp = server.handle(&init_req).await;
        assert!(init_resp.error.is_none());
        let caps = init_resp.result.unwrap()["capabilities"].clone();
        assert!(caps["prompts"].is_object());

        // 2. List prompts
        let list_req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(2)),
            method: "prompts/list".into(),
            params: json!({}),
        };
        let list_resp = server.handle(&list_req).await;
        assert!(list_resp.error.is_none());
        let prompts = list_resp.result.unwrap()["prompts"]
            .as_array()
            .unwrap()
            .clone();
        assert!(prompts.len() >= 3);
        let names: Vec<&str> = prompts
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"session_continuity"));
        assert!(names.contains(&"memory_debug"));
        assert!(names.contains(&"dharma_governance_audit"));

        // 3. Get specific prompt with arguments
        let get_req = RpcRequest {
            jsonrpc: "2.0".into(),
            id: Some(json!(3)),
            method: "prompts/get".into(),
            params: json!({
                "name": "session_continuity",
                "arguments": {"scope": "mcp"}
            }),
        };
        let get_resp = server.handle(&get_req).await;
        assert!(get_resp.error.is_none());
        let res = get_resp.result.unwrap();
        let msgs = res["messages"].as_array().unwrap();
        assert_eq!(msgs.len(), 1);
        let text = msgs[0]["content"]["text"].as_str().unwrap();
        assert!(text.contains("scope 'mcp'"));
        assert!(text.contains("session.continuity"));
    }
}
