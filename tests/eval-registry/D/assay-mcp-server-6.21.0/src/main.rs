use anyhow::Result;
use assay_mcp_server::config;
use assay_mcp_server::server::Server;
use clap::{Parser, Subcommand};
use std::io::Read;
use std::path::PathBuf;

// P61b: upstream proxy mode lives in the binary crate only (not exposed in the library's public API),
// because it is invoked solely from here. See docs/reference/mcp-upstream-proxy-mode.md.
mod proxy;

#[path = "policy_byte_limit.rs"]
mod policy_byte_limit;

// Test-only backstop shared with the library's test build (see `lib.rs`): the same
// `claims_backstop.rs` file compiled into this binary, so no public API and no Cargo change.
#[cfg(test)]
mod claims_backstop;

// Private classifier inventory shared with the library's build (see `classifier_table.rs`):
// the same file compiled into this binary's test build only (production never reads the
// table directly — it calls the library's `classify`), so the claims-scan matrix iterates
// the classifier's own table with no public API and no Cargo change.
#[cfg(test)]
mod classifier_table;

#[derive(Parser, Debug)]
#[command(author, version, about, long_about = None)]
struct Args {
    #[arg(long, default_value = "policies")]
    policy_root: PathBuf,
    #[command(subcommand)]
    mode: Option<Mode>,
}

#[derive(Subcommand, Debug)]
enum Mode {
    /// Run as an MCP upstream proxy (manifest-observation v0): forward a tiny method allowlist to a
    /// stdio upstream and deny everything else (tools/call included). This mode does NOT execute tool
    /// calls through the proxy; it observes the upstream tools/list and (with --mcp-manifest-observed-out)
    /// emits manifest evidence only. --policy-root is unused here.
    Proxy {
        /// The upstream MCP server command to spawn (stdio transport).
        #[arg(long)]
        upstream_command: String,
        /// Arguments passed to the upstream command (repeatable). Hyphen-led values are allowed so an
        /// upstream command can take its own flags (e.g. `--upstream-arg -u`).
        #[arg(long = "upstream-arg", allow_hyphen_values = true)]
        upstream_args: Vec<String>,
        /// Write the observed tool manifest (assay.mcp_manifest_observed.v0) to this path at shutdown
        /// (and on each completed tools/list chain). When set and no tools/list is observed, a
        /// status:not_observed artifact is written — never an absent file.
        #[arg(long)]
        mcp_manifest_observed_out: Option<PathBuf>,
        /// Write a small proxy observation-health record (assay.proxy_observation_health.v0) to this
        /// path at shutdown: how complete the observation was, separate from the manifest itself.
        #[arg(long)]
        proxy_observation_health_out: Option<PathBuf>,
    },
    /// Run as an MCP upstream ENFORCING proxy (P61e-c): an explicit, separate run mode — a different
    /// risk class from `proxy`, never a variant of it. Every `tools/call` runs through the policy
    /// decision point (caller-allowance, credential-scope, drift); a call that clears every gate is
    /// forwarded, otherwise it is denied with the precedence-pinned reason of the first gate that fails.
    /// The handshake, `ping`, and `tools/list` still forward; other methods stay `proxy_unsupported`.
    /// A missing/unreadable/malformed `--enforce-policy` OR `--declared-mcp-manifest` fails startup
    /// (non-zero exit) — never a runtime deny: in enforcing mode both inputs are required.
    ProxyEnforce {
        /// The upstream MCP server command to spawn (stdio transport).
        #[arg(long)]
        upstream_command: String,
        /// Arguments passed to the upstream command (repeatable). Hyphen-led values are allowed.
        #[arg(long = "upstream-arg", allow_hyphen_values = true)]
        upstream_args: Vec<String>,
        /// Path to the enforce policy (YAML): the static `caller.id`, the upstream credential, and the
        /// caller's allowances. A missing/unreadable/malformed policy is a startup failure.
        #[arg(long)]
        enforce_policy: PathBuf,
        /// Path to the approved declared-manifest baseline (`assay.declared_mcp_manifest.v0`, JSON):
        /// the per-tool `tool_digest` the caller approved, against which the drift gate compares. Required
        /// in enforcing mode; a missing/unreadable/malformed/wrong-schema baseline is a startup failure.
        #[arg(long)]
        declared_mcp_manifest: PathBuf,
        /// Optional NDJSON path for the per-call `assay.enforcement_decision.v0` evidence record
        /// (P61e-d): one record per `tools/call` decision. The record is a policy decision only and
        /// never asserts the upstream side effect. An allowed call whose record cannot be written
        /// fails closed (it is not forwarded).
        #[arg(long)]
        enforcement_decision_out: Option<PathBuf>,
        /// Optional NDJSON path for `assay.denied_call_observation.v1`: one record per answered
        /// proxy denial, retaining a digest/projection of the caller-visible denial surface. This is
        /// an observation carrier, not a policy verdict.
        #[arg(long)]
        denied_call_observation_out: Option<PathBuf>,
        /// Optional NDJSON path for the per-call `assay.manifest_establish.v0` carrier (Increment 2c):
        /// one record per `tools/call` describing the establish JOURNEY (path + run_outcome), sibling to
        /// and separate from `assay.enforcement_decision.v0` (the verdict carrier). It carries no raw
        /// scope/target/token. On an allowed call a write failure fails closed (not forwarded).
        #[arg(long)]
        manifest_establish_out: Option<PathBuf>,
        /// Optional NDJSON path for the per-call `assay.tool_annotation_conformance.v0` carrier
        /// (Increment 5b): one record per `tools/call` comparing the server's declared annotation
        /// hints with Assay's observed call classification. Orthogonal to the verdict (its outcome
        /// never changes allow/deny); on an allowed call a write failure fails closed (not forwarded).
        #[arg(long)]
        tool_conformance_out: Option<PathBuf>,
        /// Total deadline (ms) for one pre-call manifest-establish run. Default 5000; must be greater
        /// than 0, and is capped at 60000.
        #[arg(long, default_value_t = 5000)]
        manifest_establish_budget_ms: u64,
    },
    /// Project an `assay.enforcement_decision.v0` NDJSON stream into a SARIF 2.1.0 report for the
    /// GitHub Security tab. Only deny records become results; allow and non-enforcement records are
    /// skipped. Reads/writes stdin/stdout when the path is omitted or "-".
    EnforcementSarif {
        /// Input NDJSON path of enforcement_decision.v0 records ("-" or omitted = stdin; max 16 MiB).
        #[arg(long, default_value = "-")]
        input: String,
        /// Output SARIF path ("-" or omitted = stdout).
        #[arg(long, default_value = "-")]
        output: String,
    },
}

use tracing_subscriber::{fmt, EnvFilter};

const MAX_ENFORCEMENT_NDJSON_BYTES: u64 = 16 * 1024 * 1024;

fn read_enforcement_ndjson(reader: impl Read) -> Result<String> {
    let mut raw = Vec::new();
    reader
        .take(MAX_ENFORCEMENT_NDJSON_BYTES + 1)
        .read_to_end(&mut raw)?;
    if raw.len() as u64 > MAX_ENFORCEMENT_NDJSON_BYTES {
        anyhow::bail!("enforcement NDJSON input exceeds {MAX_ENFORCEMENT_NDJSON_BYTES}-byte limit");
    }
    String::from_utf8(raw)
        .map_err(|_| anyhow::anyhow!("enforcement NDJSON input must be valid UTF-8"))
}

fn init_logging(log_level: &str) {
    let filter = EnvFilter::try_new(log_level).unwrap_or_else(|_| EnvFilter::new("info"));

    fmt()
        .with_env_filter(filter)
        .json()
        .with_timer(fmt::time::UtcTime::rfc_3339())
        .with_target(true)
        .with_current_span(false)
        .with_span_list(false)
        .with_writer(std::io::stderr) // Explicitly stderr
        .init();
}

fn proxy_startup<T>(
    result: Result<T>,
    reason_code: &'static str,
    next_step: &'static str,
) -> Result<T> {
    result.inspect_err(|_| {
        eprintln!(
            "{}",
            serde_json::json!({
                "event": "startup_failure",
                "reason_code": reason_code,
                "next_step": next_step,
            })
        );
    })
}

/// Opens every operator-channel error line. Not valid JSON, and it cannot become valid JSON by
/// anything that follows it, which is the whole property: a consumer splitting stderr on newlines
/// can tell a machine event from human prose by the first byte of the line.
const HUMAN_ERROR_PREFIX: &str = "assay-mcp-server: ";

/// Render a failed run for an operator without letting caller-controlled text begin a line.
///
/// `anyhow`'s `Debug` rendering is multi-line and interpolates the rejected input, and a Unix path
/// may contain a newline. The default `Result` termination prefixes only the first line, so a path
/// carrying `\n{"event":"startup_failure",...}` reached stderr as an unprefixed line that a
/// line-oriented consumer parsed as a second machine event (#2436). The machine emitter was never
/// the defect: it is path-free and emits once. This prefixes every chain line so the human channel
/// keeps its full diagnosis and cannot impersonate that emitter.
fn report_error(error: &anyhow::Error) {
    for line in format!("{error:?}").lines() {
        eprintln!("{HUMAN_ERROR_PREFIX}{line}");
    }
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // `Result`'s own termination is what rendered the unprefixed chain, so the rendering is
        // taken over here rather than left to it. The exit class is unchanged: `FAILURE` is the 1
        // that `Result<()>` already returned.
        Err(error) => {
            report_error(&error);
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<()> {
    let args = Args::parse();

    // The stdio server and proxies do not implement transport authentication. Reject the entire
    // reserved namespace before logging, policy loading, child spawning, or protocol I/O. The
    // offline SARIF projection is not a server and remains independent of this boundary.
    if !matches!(&args.mode, Some(Mode::EnforcementSarif { .. })) {
        config::reject_unsupported_stdio_auth_env()?;
    }

    let cfg = config::ServerConfig::from_env();

    init_logging(&cfg.log_level);

    match args.mode {
        Some(Mode::Proxy {
            upstream_command,
            upstream_args,
            mcp_manifest_observed_out,
            proxy_observation_health_out,
        }) => {
            tracing::info!(
                event = "proxy_start",
                upstream_command = %upstream_command,
                mode = "manifest_observation_v0"
            );
            proxy::run(
                upstream_command,
                upstream_args,
                proxy::Mode::Observe,
                proxy::enforce::EnforceInputs::default(),
                mcp_manifest_observed_out,
                proxy_observation_health_out,
            )
            .await
        }
        Some(Mode::ProxyEnforce {
            upstream_command,
            upstream_args,
            enforce_policy,
            declared_mcp_manifest,
            enforcement_decision_out,
            denied_call_observation_out,
            manifest_establish_out,
            tool_conformance_out,
            manifest_establish_budget_ms,
        }) => {
            // Load + validate BOTH inputs BEFORE starting the proxy. A bad policy or baseline is a
            // misconfigured service: fail startup with a non-zero exit, never start an enforcing proxy
            // that cannot decide (and never degrade to a runtime deny).
            let policy = proxy_startup(
                proxy::enforce::load(&enforce_policy),
                "proxy_enforce_policy_invalid",
                "Check --enforce-policy and retry proxy-enforce.",
            )?;
            let baseline = proxy_startup(
                proxy::enforce::load_declared_manifest(&declared_mcp_manifest),
                "proxy_declared_manifest_invalid",
                "Check --declared-mcp-manifest and retry proxy-enforce.",
            )?;
            // Validate the establish budget at startup (a misconfig fails fast, never a runtime deny):
            // 0 is rejected, and the value is capped at 60_000 ms.
            let manifest_establish_budget_ms = proxy_startup(
                (manifest_establish_budget_ms > 0)
                    .then_some(manifest_establish_budget_ms)
                    .ok_or_else(|| {
                        anyhow::anyhow!("--manifest-establish-budget-ms must be greater than 0")
                    }),
                "proxy_establish_budget_invalid",
                "Set --manifest-establish-budget-ms above 0 and retry proxy-enforce.",
            )?;
            let budget_ms = manifest_establish_budget_ms.min(60_000);
            if budget_ms != manifest_establish_budget_ms {
                tracing::warn!(
                    event = "establish_budget_capped",
                    requested_ms = manifest_establish_budget_ms,
                    capped_ms = budget_ms
                );
            }
            tracing::info!(
                event = "proxy_start",
                upstream_command = %upstream_command,
                mode = "enforce_pdp_c3",
                caller = %policy.caller.id,
                baseline_tools = baseline.tools.len(),
                establish_budget_ms = budget_ms
            );
            proxy::run(
                upstream_command,
                upstream_args,
                proxy::Mode::Enforce,
                proxy::enforce::EnforceInputs {
                    policy: Some(policy),
                    baseline: Some(baseline),
                    decision_out: enforcement_decision_out,
                    denied_call_observation_out,
                    establish_out: manifest_establish_out,
                    tool_conformance_out,
                    establish_budget: std::time::Duration::from_millis(budget_ms),
                },
                None,
                None,
            )
            .await
        }
        Some(Mode::EnforcementSarif { input, output }) => {
            use assay_mcp_server::enforcement_sarif::enforcement_decisions_to_sarif;
            use std::io::Write;
            let raw = if input == "-" {
                read_enforcement_ndjson(std::io::stdin().lock())?
            } else {
                read_enforcement_ndjson(std::fs::File::open(&input)?)?
            };
            let records: Vec<serde_json::Value> = raw
                .lines()
                .enumerate()
                .filter_map(|(index, line)| {
                    let line = line.trim();
                    if line.is_empty() {
                        None
                    } else {
                        Some((index + 1, line))
                    }
                })
                .map(|(line_number, line)| {
                    serde_json::from_str::<serde_json::Value>(line).map_err(|_| {
                        anyhow::anyhow!(
                            "invalid enforcement NDJSON at input line {line_number}; expected one JSON value per non-empty line"
                        )
                    })
                })
                .collect::<anyhow::Result<_>>()?;
            let sarif = enforcement_decisions_to_sarif(&records);
            let pretty = serde_json::to_string_pretty(&sarif)?;
            if output == "-" {
                let mut stdout = std::io::stdout();
                stdout.write_all(pretty.as_bytes())?;
                stdout.write_all(b"\n")?;
            } else {
                std::fs::write(&output, format!("{pretty}\n"))?;
            }
            Ok(())
        }
        None => {
            tracing::info!(
                event = "server_start",
                policy_root = ?args.policy_root,
                timeout_ms = cfg.timeout_ms,
                max_msg_bytes = cfg.max_msg_bytes,
                max_policy_bytes = policy_byte_limit::policy_byte_limit_from_env(),
                max_tool_calls = cfg.max_tool_calls,
                max_field_bytes = cfg.max_field_bytes,
                cache_entries = cfg.cache_entries,
            );
            Server::run(args.policy_root, cfg).await
        }
    }
}
