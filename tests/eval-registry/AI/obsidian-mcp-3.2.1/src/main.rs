use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;

use rmcp::ServiceExt;
use tracing_subscriber::EnvFilter;

use obsidian_mcp::client::semantic_daemon::{DaemonConnectPolicy, SemanticDaemonClient};
use obsidian_mcp::config::{
    Config, SemanticMode, SemanticRuntimeConfig, ToolFilter, Transport, parse_cli_args,
};
use obsidian_mcp::daemon::bootstrap::{BootstrapAttempt, BootstrapConfig, begin_daemon_bootstrap};
use obsidian_mcp::daemon::server::IpcEndpoint;
use obsidian_mcp::error::VaultError;
use obsidian_mcp::tools::{ObsidianMcp, PendingDaemonBootstrap, SemanticRuntime};
use obsidian_mcp::upgrade::BuildIdentity;
use obsidian_mcp::upgrade::orchestrator::{self, UpgradeOptions, UpgradeRunOutcome};
use obsidian_mcp::vault::Vault;

tokio::task_local! {
    static REQUEST_DISABLED_TOOLS: HashSet<String>;
}

const DAEMON_DISABLED_BY_WATCH_REASON: &str =
    "semantic daemon disabled because OBSIDIAN_WATCH is false";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Some(code) = handle_cli_flags().await {
        std::process::exit(code);
    }

    let cli = parse_cli_args();
    let config = Config::load(&cli)?;
    let semantic_runtime_config = SemanticRuntimeConfig::load_from_env();

    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::new(&config.log_level))
        .with_writer(std::io::stderr)
        .init();

    tracing::info!(
        vault = %config.vault_path.display(),
        transport = ?config.transport,
        "starting obsidian-mcp"
    );

    let semantic_runtime = init_semantic_runtime(&config, &semantic_runtime_config).await;
    tracing::info!(
        semantic_mode = semantic_runtime.mode.as_str(),
        daemon_client_configured = semantic_runtime.daemon_client.is_some(),
        "semantic runtime configured"
    );

    let vault = if semantic_runtime.uses_local_backend() {
        Vault::open(&config).await?
    } else {
        Vault::open_deferred_embeddings(&config).await?
    };
    let disabled_tools = config.tool_filter.disabled_tools();

    match config.transport {
        Transport::Stdio => {
            let server =
                ObsidianMcp::new(vault, config.hybrid_alpha, semantic_runtime, disabled_tools)
                    .serve(rmcp::transport::io::stdio())
                    .await?;
            server.waiting().await?;
        }
        Transport::Http => {
            serve_http(
                vault,
                config.hybrid_alpha,
                semantic_runtime,
                disabled_tools,
                &config,
            )
            .await?;
        }
    }

    Ok(())
}

async fn serve_http(
    vault: Vault,
    hybrid_alpha: f32,
    semantic_runtime: SemanticRuntime,
    server_disabled: HashSet<String>,
    config: &Config,
) -> Result<(), Box<dyn std::error::Error>> {
    use axum::{Router, middleware, routing::get};
    use rmcp::transport::StreamableHttpServerConfig;
    use rmcp::transport::streamable_http_server::{
        session::local::LocalSessionManager, tower::StreamableHttpService,
    };

    let mut mcp_config = StreamableHttpServerConfig::default();
    mcp_config.legacy_session_mode = true;
    mcp_config.json_response = true;

    let health_vault = vault.clone();
    let mcp_service: StreamableHttpService<ObsidianMcp, LocalSessionManager> =
        StreamableHttpService::new(
            move || {
                let mut disabled = server_disabled.clone();
                REQUEST_DISABLED_TOOLS
                    .try_with(|extra| {
                        disabled.extend(extra.iter().cloned());
                    })
                    .map_err(|error| {
                        std::io::Error::other(format!(
                            "HTTP tool filter context unavailable: {error}"
                        ))
                    })?;
                Ok(ObsidianMcp::new(
                    vault.clone(),
                    hybrid_alpha,
                    semantic_runtime.clone(),
                    disabled,
                ))
            },
            Arc::new(LocalSessionManager::default()),
            mcp_config,
        );

    let mcp_router = Router::new()
        .nest_service("/mcp", mcp_service)
        .layer(middleware::from_fn(tool_filter_middleware));

    let app = Router::new()
        .route("/health", get(move || health_handler(health_vault.clone())))
        .merge(mcp_router);

    let addr = std::net::SocketAddr::new(config.http_host, config.http_port);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    tracing::info!(%addr, "HTTP MCP server listening");

    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown_signal())
        .await?;

    Ok(())
}

async fn tool_filter_middleware(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;

    let disabled = match request.headers().get("X-Obsidian-Tools") {
        Some(header) => {
            let filter = header
                .to_str()
                .map_err(|error| format!("Invalid X-Obsidian-Tools encoding: {error}"))
                .and_then(ToolFilter::parse);
            match filter {
                Ok(filter) => filter.disabled_tools(),
                Err(error) => {
                    tracing::warn!(%error, "rejected invalid X-Obsidian-Tools header");
                    return (axum::http::StatusCode::BAD_REQUEST, error).into_response();
                }
            }
        }
        None => HashSet::new(),
    };

    REQUEST_DISABLED_TOOLS
        .scope(disabled, next.run(request))
        .await
}

async fn health_handler(vault: Vault) -> axum::Json<serde_json::Value> {
    let stats = vault.vault_stats().ok();
    let note_count = stats.as_ref().map(|s| s.total_notes);

    #[allow(unused_mut)]
    let mut resp = serde_json::json!({
        "status": "ok",
        "server": env!("CARGO_PKG_NAME"),
        "version": env!("CARGO_PKG_VERSION"),
        "notes": note_count,
    });

    #[cfg(has_embeddings)]
    {
        let status = vault.embedding_status();
        resp["embeddings_ready"] =
            serde_json::json!(status.as_ref().is_some_and(|status| status.queryable));
        if let Some(status) = &status {
            resp["embeddings_phase"] = serde_json::json!(status.phase);
            resp["embeddings_indexed_notes"] = serde_json::json!(status.indexed_notes);
            resp["embeddings_total_notes"] = serde_json::json!(status.total_notes);
            resp["embeddings_pending_notes"] = serde_json::json!(status.pending_notes);
        }
        if let Some(err) = status
            .as_ref()
            .and_then(|status| status.last_error.as_deref())
            .or_else(|| vault.embedding_load_error())
        {
            resp["embeddings_error"] = serde_json::json!(err);
        }
    }

    axum::Json(resp)
}

async fn shutdown_signal() {
    let ctrl_c = async { tokio::signal::ctrl_c().await.ok() };

    #[cfg(unix)]
    let terminate = async {
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .ok()?
            .recv()
            .await
    };

    #[cfg(not(unix))]
    let terminate = std::future::pending::<Option<()>>();

    tokio::select! {
        _ = ctrl_c => tracing::info!("received Ctrl+C, shutting down"),
        _ = terminate => tracing::info!("received SIGTERM, shutting down"),
    }
}

enum InitializedDaemonClient {
    Resolved {
        client: SemanticDaemonClient,
        health_pending: bool,
    },
    BootstrapPending {
        bootstrap: Arc<PendingDaemonBootstrap>,
        reason: String,
    },
}

async fn init_semantic_runtime(
    config: &Config,
    runtime_cfg: &SemanticRuntimeConfig,
) -> SemanticRuntime {
    let mut runtime = SemanticRuntime {
        mode: runtime_cfg.mode,
        pending_daemon_bootstrap: None,
        daemon_client: None,
        daemon_unavailable_reason: None,
        prefetch_count: runtime_cfg.prefetch_count,
        vault_ensured: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        local_fallback_active: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        daemon_health_pending: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    };

    if runtime_cfg.mode == SemanticMode::Local {
        return runtime;
    }
    if !config.watch {
        runtime.daemon_unavailable_reason = Some(DAEMON_DISABLED_BY_WATCH_REASON.to_string());
        if cfg!(has_embeddings) && config.embeddings {
            runtime.activate_local_fallback(&VaultError::DaemonUnavailable(
                DAEMON_DISABLED_BY_WATCH_REASON.to_string(),
            ));
        }
        tracing::info!("semantic daemon disabled because OBSIDIAN_WATCH=false");
        return runtime;
    }

    match initialize_daemon_client(runtime_cfg).await {
        Ok(InitializedDaemonClient::Resolved {
            client,
            health_pending,
        }) => {
            runtime
                .daemon_health_pending
                .store(health_pending, std::sync::atomic::Ordering::Release);
            runtime.daemon_client = Some(client);
        }
        Ok(InitializedDaemonClient::BootstrapPending { bootstrap, reason }) => {
            tracing::warn!(error = %reason, "semantic daemon bootstrap timed out; semantic search will resume startup");
            runtime.pending_daemon_bootstrap = Some(bootstrap);
            runtime.daemon_unavailable_reason = Some(reason);
        }
        Err(err) => {
            let reason = err.to_string();
            runtime.daemon_unavailable_reason = Some(reason.clone());
            // Classify before retaining the display reason. Later tool calls must
            // not reinterpret a startup timeout as proof of a daemon outage.
            let local_selected =
                cfg!(has_embeddings) && config.embeddings && runtime.activate_local_fallback(&err);
            match runtime_cfg.mode {
                SemanticMode::Daemon => {
                    tracing::error!(
                        error = %reason,
                        "semantic daemon mode requested but daemon is unavailable"
                    );
                }
                SemanticMode::Auto if !local_selected => {
                    tracing::warn!(
                        error = %reason,
                        "semantic daemon initialization failed; local indexing remains dormant"
                    );
                }
                SemanticMode::Auto | SemanticMode::Local => {}
            }
        }
    }

    runtime
}

async fn initialize_daemon_client(
    runtime_cfg: &SemanticRuntimeConfig,
) -> Result<InitializedDaemonClient, VaultError> {
    let policy = DaemonConnectPolicy::from_runtime_config(runtime_cfg);
    let endpoint = if let Some(raw_endpoint) = runtime_cfg.daemon_endpoint_override.as_deref() {
        endpoint_from_override(raw_endpoint)
    } else {
        match begin_daemon_bootstrap(&BootstrapConfig {
            semantic_home_override: runtime_cfg.semantic_home_override.clone(),
            daemon_path_override: runtime_cfg.daemon_path_override.clone(),
            model_name: runtime_cfg.model_name.clone(),
            download_url_override: runtime_cfg.daemon_download_url.clone(),
            bootstrap_client_name: "obsidian-mcp".to_string(),
            bootstrap_client_version: env!("CARGO_PKG_VERSION").to_string(),
        })
        .await?
        {
            BootstrapAttempt::Ready(initialized) => initialized.endpoint,
            BootstrapAttempt::Pending(pending) => {
                let reason = pending.timeout_error().to_string();
                return Ok(InitializedDaemonClient::BootstrapPending {
                    bootstrap: Arc::new(PendingDaemonBootstrap::new(pending, policy)),
                    reason,
                });
            }
        }
    };
    let client = SemanticDaemonClient::new(endpoint, policy);

    let health = match client
        .health("obsidian-mcp", env!("CARGO_PKG_VERSION"))
        .await
    {
        Ok(health) => health,
        Err(error @ VaultError::DaemonTimeout { .. }) => {
            tracing::warn!(error = %error, "daemon health probe timed out; later calls will retry the handshake");
            return Ok(InitializedDaemonClient::Resolved {
                client,
                health_pending: true,
            });
        }
        Err(error) => return Err(error),
    };
    tracing::info!(
        daemon_version = %health.daemon_version,
        daemon_api_version = health.daemon_api_version,
        daemon_status = %health.status,
        daemon_semantic_home = %health.semantic_home,
        "semantic daemon connection established"
    );
    Ok(InitializedDaemonClient::Resolved {
        client,
        health_pending: false,
    })
}

async fn handle_cli_flags() -> Option<i32> {
    let arg = std::env::args().nth(1)?;
    match arg.as_str() {
        "--__build-info" => {
            match BuildIdentity::embedded().to_json() {
                Ok(identity) => println!("{identity}"),
                Err(err) => {
                    eprintln!("error: {err}");
                    return Some(1);
                }
            }
            Some(0)
        }
        "--version" | "-v" => {
            println!("{} {}", env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"));
            Some(0)
        }
        "--help" | "-h" | "help" => {
            print_help();
            Some(0)
        }
        "upgrade" => Some(run_upgrade_command().await),
        #[cfg(windows)]
        "__apply-upgrade" => Some(run_windows_upgrade_helper().await),
        "serve" | "stop" | "restart" => {
            if subcommand_wants_help() {
                print_help();
                return Some(0);
            }
            let result = match arg.as_str() {
                "stop" => stop_server(),
                _ => daemonize(),
            };
            match result {
                Ok(()) => Some(0),
                Err(e) => {
                    eprintln!("error: {e}");
                    Some(1)
                }
            }
        }
        _ => None,
    }
}

fn subcommand_wants_help() -> bool {
    std::env::args().any(|a| a == "--help" || a == "-h")
}

fn print_help() {
    println!(
        "{name} {version} — {description}\n\
         \n\
         USAGE:\n    \
             {name} [OPTIONS] [VAULT_PATH]          Run with stdio transport (default)\n    \
             {name} --http [OPTIONS] [VAULT_PATH]   Run with Streamable HTTP transport\n    \
             {name} serve [OPTIONS] [VAULT_PATH]    Start HTTP server in background\n    \
             {name} stop [--host ADDR] [--port PORT]              Stop a running HTTP server\n    \
             {name} restart [OPTIONS] [VAULT_PATH]  Restart HTTP server (stop + serve)\n    \
             {name} upgrade [--dry-run]             Safely upgrade Cargo-installed binaries\n\
         \n\
         The 'serve' and 'restart' commands daemonize and log to a platform-specific file:\n    \
             macOS:   ~/Library/Logs/obsidian-mcp.log\n    \
             Linux:   $XDG_STATE_HOME/obsidian-mcp/obsidian-mcp.log\n    \
             Windows: %LOCALAPPDATA%/obsidian-mcp/obsidian-mcp.log\n\
         \n\
         ARGUMENTS:\n    \
             VAULT_PATH    Path to Obsidian vault (or set OBSIDIAN_VAULT_PATH)\n\
         \n\
         OPTIONS:\n    \
             -h, --help           Print this help message\n    \
             -v, --version        Print version\n    \
             --http               Use Streamable HTTP transport instead of stdio\n    \
             --port <PORT>        HTTP listen port                  [default: 37842]\n    \
             --host <ADDR>        HTTP bind address                 [default: 127.0.0.1]\n\
         \n\
         ENVIRONMENT VARIABLES:\n    \
             OBSIDIAN_VAULT_PATH     Vault root (required if not passed as argument)\n    \
             OBSIDIAN_TRANSPORT      Transport: stdio | http        [default: stdio]\n    \
             OBSIDIAN_HTTP_PORT      HTTP listen port               [default: 37842]\n    \
             OBSIDIAN_HTTP_HOST      HTTP bind address              [default: 127.0.0.1]\n    \
             OBSIDIAN_WATCH          Enable filesystem watcher      [default: true]\n    \
             OBSIDIAN_LOG_LEVEL      Tracing log level              [default: info]\n    \
             OBSIDIAN_TANTIVY        Enable BM25 full-text index    [default: true]\n    \
             OBSIDIAN_EMBEDDINGS     Enable semantic embeddings     [default: false]\n    \
             OBSIDIAN_EMBEDDINGS_MODEL  HuggingFace model name      [default: BAAI/bge-small-en-v1.5]\n    \
             OBSIDIAN_HYBRID_ALPHA   BM25/semantic blend weight     [default: 0.25]\n    \
             OBSIDIAN_EMBEDDING_PROVIDER  Backend: local | api      [default: infer from features]\n    \
             OBSIDIAN_EMBEDDING_API_KEY   API auth key              (or OPENAI_API_KEY)\n    \
             OBSIDIAN_EMBEDDING_API_BASE  API base URL              [default: https://api.openai.com/v1]\n    \
             OBSIDIAN_EMBEDDING_API_MODEL API model name            (or OPENAI_MODEL)\n    \
             OBSIDIAN_EMBEDDING_DIM  Override embedding dimension   [default: probed from API]\n    \
             OBSIDIAN_EMBEDDING_CA_CERT   PEM CA cert path for API TLS\n    \
             OBSIDIAN_EMBEDDING_TLS_VERIFY  Verify API TLS certs    [default: true]\n    \
             OBSIDIAN_TOOLS          Tool filter: profile (full/core/read/minimal),\n    \
                                     comma-separated allow-list, or !-prefixed deny-list\n    \
             OBSIDIAN_MCP_DATA       External data dir for embeddings  [default: {{vault}}/.obsidian-mcp]\n    \
             OBSIDIAN_EXCLUDE_PATHS  Comma-separated exclusion globs   [default: none]",
        name = env!("CARGO_PKG_NAME"),
        version = env!("CARGO_PKG_VERSION"),
        description = env!("CARGO_PKG_DESCRIPTION"),
    );
}

async fn run_upgrade_command() -> i32 {
    let args = std::env::args().skip(2).collect::<Vec<_>>();
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        print_upgrade_help();
        return 0;
    }
    if args.iter().any(|arg| arg != "--dry-run") || args.len() > 1 {
        eprintln!(
            "error: usage: obsidian-mcp upgrade [--dry-run]\n\
             Try 'obsidian-mcp upgrade --help' for more information."
        );
        return 2;
    }
    let options = UpgradeOptions::normal(args.first().is_some_and(|arg| arg == "--dry-run"));
    match orchestrator::run(options).await {
        Ok(outcome) => print_upgrade_outcome(outcome),
        Err(err) => {
            eprintln!("upgrade failed: {err}");
            1
        }
    }
}

fn print_upgrade_help() {
    println!(
        "obsidian-mcp upgrade — safely update Cargo-installed binaries\n\
         \n\
         USAGE:\n    \
             obsidian-mcp upgrade [--dry-run]\n\
         \n\
         OPTIONS:\n    \
             --dry-run    Verify ownership and show the exact preserved build settings\n    \
             -h, --help   Print this help message\n\
         \n\
         Only official crates.io installations tracked by Cargo are supported.\n\
         Vault settings, semantic caches, and service definitions are not rewritten."
    );
}

fn print_upgrade_outcome(outcome: UpgradeRunOutcome) -> i32 {
    match outcome {
        UpgradeRunOutcome::DryRun(plan) => {
            println!(
                "Upgrade preflight passed for obsidian-mcp {}\n  target: {}\n  features: {}\n  Cargo root: {}",
                plan.identity.version,
                plan.identity.target,
                plan.identity.feature_list(),
                plan.install.root.display()
            );
            println!(
                "  command: cargo {}",
                display_command_args(&plan.cargo_args)
            );
            if plan.services.is_empty() {
                println!("  managed HTTP services: none detected");
            } else {
                println!("  managed HTTP services:");
                for service in &plan.services {
                    println!(
                        "    - {} ({:?}, {}:{})",
                        service.id, service.owner, service.host, service.port
                    );
                }
            }
            println!("Dry run complete; no files or processes were changed.");
            println!("Next: run 'obsidian-mcp upgrade' to install and activate the update.");
            0
        }
        UpgradeRunOutcome::Completed(report) => {
            if report.binaries_changed {
                println!(
                    "Updated obsidian-mcp {} -> {} (target {}, features {}).",
                    report.old_identity.version,
                    report.new_identity.version,
                    report.new_identity.target,
                    report.new_identity.feature_list()
                );
            } else {
                if report.activation_attempted {
                    println!(
                        "obsidian-mcp {} is already the latest Cargo version; pending runtime activation was repaired.",
                        report.new_identity.version
                    );
                } else {
                    println!(
                        "obsidian-mcp {} is already up to date; nothing was restarted.",
                        report.new_identity.version
                    );
                }
            }
            if let Some(semantic) = &report.semantic {
                println!("Semantic daemon: {}", semantic.diagnostic);
            }
            for service in &report.services {
                println!("Service {}: {}", service.target_id, service.diagnostic);
            }
            if report.stdio_reconnect_required {
                println!(
                    "Reconnect stdio MCP clients to start sessions with the updated binary; their settings are unchanged."
                );
            }
            if report.activation_succeeded() {
                0
            } else {
                eprintln!(
                    "The binaries were installed, but one or more running components could not be activated. Re-run 'obsidian-mcp upgrade' after resolving the diagnostics above."
                );
                1
            }
        }
        #[cfg(windows)]
        UpgradeRunOutcome::WindowsHandoff { helper } => {
            println!(
                "Validated the Cargo installation. Continuing from temporary helper '{}'; this process will now exit. This status confirms handoff only—the helper prints the final upgrade result.",
                helper.display()
            );
            0
        }
    }
}

fn display_command_args(args: &[std::ffi::OsString]) -> String {
    args.iter()
        .map(|argument| {
            let argument = argument.to_string_lossy();
            if argument
                .chars()
                .all(|character| character.is_ascii_alphanumeric() || "-._/:,=".contains(character))
            {
                argument.into_owned()
            } else {
                format!("{:?}", argument.as_ref())
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(windows)]
async fn run_windows_upgrade_helper() -> i32 {
    let mut parent_pid = None;
    let mut original_exe = None;
    let mut args = std::env::args_os().skip(2);
    while let Some(argument) = args.next() {
        if argument == "--parent-pid" {
            parent_pid = args
                .next()
                .and_then(|value| value.to_string_lossy().parse::<u32>().ok());
        } else if argument == "--original-exe" {
            original_exe = args.next().map(PathBuf::from);
        } else {
            eprintln!("upgrade helper received an unknown argument");
            return 2;
        }
    }
    let (Some(parent_pid), Some(original_exe)) = (parent_pid, original_exe) else {
        eprintln!("upgrade helper arguments are incomplete");
        return 2;
    };
    match orchestrator::run(UpgradeOptions::windows_helper(original_exe, parent_pid)).await {
        Ok(outcome) => print_upgrade_outcome(outcome),
        Err(err) => {
            eprintln!("upgrade failed: {err}");
            1
        }
    }
}

/// Resolve the HTTP bind endpoint without requiring a vault path.
fn resolve_endpoint_from_args() -> Result<std::net::SocketAddr, Box<dyn std::error::Error>> {
    obsidian_mcp::config::resolve_http_endpoint(&parse_cli_args()).map_err(Into::into)
}

fn connect_address(endpoint: std::net::SocketAddr) -> std::net::SocketAddr {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
    let ip = match endpoint.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, endpoint.port())
}

fn stop_server() -> Result<(), Box<dyn std::error::Error>> {
    let endpoint = resolve_endpoint_from_args()?;
    if !is_port_in_use(endpoint) {
        println!("no server running on {endpoint}");
        return Ok(());
    }
    stop_existing_server(endpoint)?;
    println!("server on {endpoint} stopped");
    Ok(())
}

/// Spawn a detached child running `--http` and exit the parent.
/// Kills any existing server on the target port first.
fn daemonize() -> Result<(), Box<dyn std::error::Error>> {
    let exe = std::env::current_exe()?;

    let mut child_args = vec!["--http".to_string()];
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "serve" || arg == "restart" {
            continue;
        }
        let takes_value = arg == "--port" || arg == "--host";
        if takes_value {
            if let Some(val) = args.next() {
                child_args.push(arg);
                child_args.push(val);
            }
        } else {
            child_args.push(arg);
        }
    }

    let endpoint = resolve_endpoint_from_args()?;
    stop_existing_server(endpoint)?;

    let log_file = daemon_log_path()?;
    if let Some(parent) = log_file.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let stderr_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_file)?;

    let mut cmd = std::process::Command::new(&exe);
    cmd.args(&child_args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(stderr_file));

    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }

    let mut child = cmd.spawn()?;
    let child_pid = child.id();

    std::thread::sleep(std::time::Duration::from_millis(50));
    if let Some(status) = child.try_wait()? {
        return Err(format!(
            "server exited immediately (exit code: {status})\ncheck logs: {}",
            log_file.display()
        )
        .into());
    }

    let mut healthy = false;
    for tick in 0..60 {
        std::thread::sleep(std::time::Duration::from_millis(250));
        if let Some(status) = child.try_wait()? {
            return Err(format!(
                "server exited during startup (exit code: {status})\ncheck logs: {}",
                log_file.display()
            )
            .into());
        }
        if probe_health(endpoint) {
            healthy = true;
            break;
        }
        if tick == 19 {
            eprintln!("waiting for server to become healthy…");
        }
    }

    if healthy {
        eprintln!(
            "{name} {version} HTTP server started (PID {pid})\nlogs: {log}",
            name = env!("CARGO_PKG_NAME"),
            version = env!("CARGO_PKG_VERSION"),
            pid = child_pid,
            log = log_file.display(),
        );
        Ok(())
    } else {
        Err(format!(
            "server started (PID {child_pid}) but /health not responding after 15s\n\
             check logs: {}",
            log_file.display()
        )
        .into())
    }
}

fn is_port_in_use(endpoint: std::net::SocketAddr) -> bool {
    std::net::TcpStream::connect_timeout(
        &connect_address(endpoint),
        std::time::Duration::from_millis(200),
    )
    .is_ok()
}

fn probe_health(endpoint: std::net::SocketAddr) -> bool {
    obsidian_mcp::upgrade::health::probe(&endpoint.ip().to_string(), endpoint.port()).is_ok()
}

/// Stop the listener at the selected endpoint, failing if it cannot be freed.
fn stop_existing_server(endpoint: std::net::SocketAddr) -> Result<(), Box<dyn std::error::Error>> {
    use std::net::TcpStream;
    use std::time::Duration;

    let addr = connect_address(endpoint);
    let port = endpoint.port();

    for round in 0..5 {
        if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
            return Ok(());
        }

        let Some(pid) = find_pid_on_port(endpoint) else {
            if round == 0 {
                return Err(format!(
                    "port {port} is already in use but could not identify the process"
                )
                .into());
            }
            std::thread::sleep(Duration::from_secs(1));
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
                return Ok(());
            }
            return Err(format!("port {port} is still in use").into());
        };

        if pid == std::process::id() {
            return Ok(());
        }

        println!("stopping existing server on port {port} (PID {pid})");
        stop_process(pid)?;
    }

    if TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_err() {
        return Ok(());
    }
    Err(format!("port {port} is still in use after stopping 5 processes").into())
}

fn stop_process(pid: u32) -> Result<(), Box<dyn std::error::Error>> {
    send_signal(pid, false);
    if !wait_for_process_exit(pid, 50) {
        println!("process did not exit after SIGTERM, sending SIGKILL (PID {pid})");
        send_signal(pid, true);
        if !wait_for_process_exit(pid, 20) {
            return Err(format!("could not stop process (PID {pid})").into());
        }
    }
    Ok(())
}

fn wait_for_process_exit(pid: u32, ticks: u32) -> bool {
    for _ in 0..ticks {
        std::thread::sleep(std::time::Duration::from_millis(100));
        if !is_process_alive(pid) {
            return true;
        }
    }
    false
}

#[cfg(unix)]
fn is_process_alive(pid: u32) -> bool {
    std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(windows)]
fn is_process_alive(pid: u32) -> bool {
    std::process::Command::new("tasklist")
        .args(["/FI", &format!("PID eq {pid}"), "/NH"])
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(&pid.to_string()))
}

#[cfg(unix)]
fn find_pid_on_port(endpoint: std::net::SocketAddr) -> Option<u32> {
    let selector = if endpoint.ip().is_unspecified() {
        format!(
            "-i{}TCP:{}",
            if endpoint.is_ipv6() { 6 } else { 4 },
            endpoint.port()
        )
    } else {
        format!("-iTCP@{endpoint}")
    };
    let output = std::process::Command::new("lsof")
        .args(["-nP", "-t", &selector, "-sTCP:LISTEN"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .filter_map(|s| s.parse::<u32>().ok())
        .find(|&pid| pid != std::process::id())
}

#[cfg(windows)]
fn find_pid_on_port(endpoint: std::net::SocketAddr) -> Option<u32> {
    let output = std::process::Command::new("netstat")
        .args(["-ano"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| {
            let fields: Vec<_> = line.split_whitespace().collect();
            if fields.len() != 5 || fields[0] != "TCP" || fields[3] != "LISTENING" {
                return None;
            }
            let address: std::net::SocketAddr = fields[1].parse().ok()?;
            (address == endpoint)
                .then(|| fields[4].parse::<u32>().ok())
                .flatten()
        })
        .filter(|&pid| pid != std::process::id())
}

#[cfg(unix)]
fn send_signal(pid: u32, force: bool) {
    let sig = if force { "-KILL" } else { "-TERM" };
    let _ = std::process::Command::new("kill")
        .args([sig, &pid.to_string()])
        .status();
}

#[cfg(windows)]
fn send_signal(pid: u32, force: bool) {
    let mut args = vec!["/PID".to_string(), pid.to_string()];
    if force {
        args.push("/F".to_string());
    }
    let _ = std::process::Command::new("taskkill").args(&args).status();
}

fn daemon_log_path() -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    #[cfg(target_os = "macos")]
    {
        let home = std::env::var("HOME")?;
        Ok(std::path::PathBuf::from(home)
            .join("Library/Logs")
            .join("obsidian-mcp.log"))
    }
    #[cfg(target_os = "windows")]
    {
        let local = std::env::var("LOCALAPPDATA")?;
        Ok(std::path::PathBuf::from(local)
            .join("obsidian-mcp")
            .join("obsidian-mcp.log"))
    }
    #[cfg(not(any(target_os = "macos", target_os = "windows")))]
    {
        let state = std::env::var("XDG_STATE_HOME").unwrap_or_else(|_| {
            let home = std::env::var("HOME").unwrap_or_else(|_| "/tmp".to_string());
            format!("{home}/.local/state")
        });
        Ok(std::path::PathBuf::from(state)
            .join("obsidian-mcp")
            .join("obsidian-mcp.log"))
    }
}

fn endpoint_from_override(raw: &str) -> IpcEndpoint {
    #[cfg(unix)]
    {
        IpcEndpoint::UnixSocket(PathBuf::from(raw))
    }
    #[cfg(windows)]
    {
        IpcEndpoint::NamedPipe(raw.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime_config(mode: SemanticMode) -> SemanticRuntimeConfig {
        SemanticRuntimeConfig {
            mode,
            semantic_home_override: None,
            daemon_path_override: None,
            daemon_endpoint_override: Some("/tmp/semanticd.sock".to_string()),
            daemon_download_url: None,
            model_name: "BAAI/bge-small-en-v1.5".to_string(),
            connect_timeout_ms: 2_000,
            connect_retries: 2,
            retry_backoff_ms: 250,
            prefetch_count: 50,
        }
    }

    fn test_config() -> Config {
        Config {
            vault_path: PathBuf::from("/tmp/test-vault"),
            watch: false,
            log_level: "error".to_string(),
            transport: Transport::Stdio,
            http_host: obsidian_mcp::config::DEFAULT_HTTP_HOST,
            http_port: obsidian_mcp::config::DEFAULT_HTTP_PORT,
            tantivy: true,
            embeddings: false,
            embeddings_model: "BAAI/bge-small-en-v1.5".to_string(),
            hybrid_alpha: 0.25,
            embedding_provider: None,
            tool_filter: obsidian_mcp::config::ToolFilter::Full,
            mcp_data_dir: None,
            exclude_patterns: vec![],
        }
    }

    #[tokio::test]
    async fn watch_disabled_skips_daemon_initialization() {
        let config = test_config();
        let runtime = init_semantic_runtime(&config, &runtime_config(SemanticMode::Daemon)).await;
        assert!(runtime.daemon_client.is_none());
        assert_eq!(
            runtime.daemon_unavailable_reason.as_deref(),
            Some(DAEMON_DISABLED_BY_WATCH_REASON)
        );
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn manifest_health_timeout_resumes_once_on_search_and_status_stays_passive() {
        use obsidian_mcp::daemon::{home, manifest};
        use obsidian_mcp::tools::{search, utility};
        use serde_json::{Value, json};
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

        let directory = tempfile::tempdir().unwrap();
        let endpoint = directory.path().join("daemon.sock");
        let paths = home::SemanticHomePaths::new(directory.path().join("semantic"));
        home::ensure_home_layout(&paths).unwrap();
        let saved = manifest::RuntimeManifest::from_input(manifest::RuntimeManifestInput {
            daemon_api_version: 2,
            daemon_version: env!("CARGO_PKG_VERSION").into(),
            binary_path: directory
                .path()
                .join("external-daemon")
                .display()
                .to_string(),
            binary_origin: manifest::BinaryOrigin::Override,
            binary_sha256: None,
            ipc: manifest::ManifestIpc {
                transport: "unix_socket".into(),
                endpoint: endpoint.display().to_string(),
            },
            pid: 1,
            semantic_home: paths.root.display().to_string(),
            fastembed_cache_dir: paths.fastembed_cache_dir.display().to_string(),
            model_name: "probe".into(),
            bootstrap_client_name: "test".into(),
            bootstrap_client_version: "1".into(),
        });
        manifest::save_atomic(&paths.manifest_path, &saved).unwrap();
        let listener = tokio::net::UnixListener::bind(&endpoint).unwrap();
        let recovered = Arc::new(tokio::sync::Notify::new());
        let server_recovered = Arc::clone(&recovered);
        let methods = Arc::new(std::sync::Mutex::new(Vec::new()));
        let server_methods = Arc::clone(&methods);
        let server = tokio::spawn(async move {
            for request_index in 0..6 {
                let (stream, _) = listener.accept().await.unwrap();
                let (read, mut write) = stream.into_split();
                let mut line = String::new();
                BufReader::new(read).read_line(&mut line).await.unwrap();
                let request: Value = serde_json::from_str(&line).unwrap();
                let method = request["method"].as_str().unwrap();
                server_methods.lock().unwrap().push(method.to_string());
                if request_index == 0 {
                    server_recovered.notified().await;
                    continue;
                }
                let result = match method {
                    "health" => {
                        json!({"daemon_version":"3.1.0", "daemon_api_version":2, "pid":1, "status":"ok", "uptime_ms":1, "model_name":"probe", "semantic_home":"/tmp/test"})
                    }
                    "vault_status" => {
                        json!({"phase":"ready", "ready":true, "indexed_notes":0, "total_notes":0, "pending_notes":0})
                    }
                    "ensure_vault" => {
                        json!({"vault_id":"test", "ready":true, "watch_enabled":true, "model_name":"probe"})
                    }
                    "search_semantic" => json!({"results":[]}),
                    other => panic!("unexpected request {other}"),
                };
                let response = json!({"jsonrpc":"2.0", "id":request["id"], "result":result});
                write
                    .write_all(format!("{response}\n").as_bytes())
                    .await
                    .unwrap();
            }
        });
        let mut config = test_config();
        config.vault_path = directory.path().join("vault");
        std::fs::create_dir_all(config.vault_path.join(".obsidian")).unwrap();
        config.watch = true;
        config.embeddings = true;
        config.embeddings_model = "not-a-local-model".into();
        let mut runtime_config = runtime_config(SemanticMode::Auto);
        runtime_config.semantic_home_override = Some(paths.root);
        runtime_config.daemon_endpoint_override = None;
        let runtime = init_semantic_runtime(&config, &runtime_config).await;
        assert!(runtime.daemon_client.is_none());
        assert!(runtime.pending_daemon_bootstrap.is_some());
        assert!(!runtime.uses_local_backend());
        let vault = Vault::open_deferred_embeddings(&config).await.unwrap();
        let info = utility::vault_info(&vault, &runtime, utility::VaultInfoParams {})
            .await
            .unwrap();
        assert_eq!(
            info.structured_content.unwrap()["embeddings"]["availability"],
            "unavailable"
        );
        assert_eq!(*methods.lock().unwrap(), ["health"]);
        recovered.notify_one();
        let clone = runtime.clone();
        let (first, second) = tokio::join!(
            runtime.resolve_daemon_client(),
            clone.resolve_daemon_client()
        );
        assert!(std::ptr::eq(first.unwrap(), second.unwrap()));
        let info = utility::vault_info(&vault, &runtime, utility::VaultInfoParams {})
            .await
            .unwrap();
        assert_eq!(
            info.structured_content.unwrap()["embeddings"]["availability"],
            "available"
        );
        search::search_semantic(
            &vault,
            search::SearchSemanticParams {
                query: "probe".into(),
                ..Default::default()
            },
            0.25,
            &runtime,
        )
        .await
        .unwrap();
        assert!(!runtime.uses_local_backend());
        assert!(!vault.embeddings_active());
        server.await.unwrap();
        assert_eq!(
            *methods.lock().unwrap(),
            [
                "health",
                "health",
                "health",
                "vault_status",
                "ensure_vault",
                "search_semantic"
            ]
        );
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn startup_health_timeout_recovers_without_local_indexing() {
        use obsidian_mcp::tools::{search, utility};
        use serde_json::{Value, json};
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
        let directory = tempfile::tempdir().unwrap();
        let endpoint = directory.path().join("daemon.sock");
        let listener = tokio::net::UnixListener::bind(&endpoint).unwrap();
        let recovered = Arc::new(tokio::sync::Notify::new());
        let server_recovered = Arc::clone(&recovered);
        let server = tokio::spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            let mut line = String::new();
            let mut reader = BufReader::new(stream);
            reader.read_line(&mut line).await.unwrap();
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            drop(reader);
            server_recovered.notify_one();
            let mut methods = Vec::new();
            for _ in 0..4 {
                let (stream, _) = listener.accept().await.unwrap();
                let (read, mut write) = stream.into_split();
                let mut line = String::new();
                BufReader::new(read).read_line(&mut line).await.unwrap();
                let request: Value = serde_json::from_str(&line).unwrap();
                let method = request["method"].as_str().unwrap();
                let result = match method {
                    "health" => {
                        json!({"daemon_version":"3.1.0", "daemon_api_version":2, "pid":1, "status":"ok", "uptime_ms":1, "model_name":"probe", "semantic_home":"/tmp/test"})
                    }
                    "vault_status" => {
                        json!({"phase":"ready", "ready":true, "indexed_notes":0, "total_notes":0, "pending_notes":0})
                    }
                    "ensure_vault" => {
                        json!({"vault_id":"test", "ready":true, "watch_enabled":true, "model_name":"probe"})
                    }
                    "search_semantic" => json!({"results":[]}),
                    other => panic!("unexpected request {other}"),
                };
                methods.push(method.to_string());
                let response = json!({"jsonrpc":"2.0", "id":request["id"], "result":result});
                write
                    .write_all(format!("{response}\n").as_bytes())
                    .await
                    .unwrap();
            }
            methods
        });
        let mut config = test_config();
        config.vault_path = directory.path().join("vault");
        std::fs::create_dir_all(config.vault_path.join(".obsidian")).unwrap();
        config.watch = true;
        config.embeddings = true;
        config.embeddings_model = "not-a-local-model".into();
        let mut runtime_config = runtime_config(SemanticMode::Auto);
        runtime_config.daemon_endpoint_override = Some(endpoint.display().to_string());
        runtime_config.connect_timeout_ms = 50;
        runtime_config.connect_retries = 0;
        let runtime = init_semantic_runtime(&config, &runtime_config).await;
        assert!(runtime.daemon_client.is_some());
        assert!(
            runtime
                .daemon_health_pending
                .load(std::sync::atomic::Ordering::Acquire)
        );
        assert!(!runtime.uses_local_backend());
        let vault = Vault::open_deferred_embeddings(&config).await.unwrap();
        recovered.notified().await;
        let info = utility::vault_info(&vault, &runtime, utility::VaultInfoParams {})
            .await
            .unwrap();
        assert_eq!(
            info.structured_content.unwrap()["embeddings"]["availability"],
            "available"
        );
        let result = search::search_semantic(
            &vault,
            search::SearchSemanticParams {
                query: "probe".into(),
                ..Default::default()
            },
            0.25,
            &runtime,
        )
        .await
        .unwrap();
        assert_eq!(result.structured_content.unwrap()["results"], json!([]));
        assert!(!runtime.uses_local_backend());
        assert!(!vault.embeddings_active());
        assert!(
            !runtime
                .daemon_health_pending
                .load(std::sync::atomic::Ordering::Acquire)
        );
        assert_eq!(
            server.await.unwrap(),
            ["health", "vault_status", "ensure_vault", "search_semantic"]
        );
    }
}
