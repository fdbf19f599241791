//! Daemon-only MCP tool groups — eventlog, workflow, scheduler (car#972
//! Track C).
//!
//! The stdio binary is `car-mcp` + telemetry: no `Runtime`, no event log, no
//! workflow engine, no scheduler. These groups therefore register through the
//! same per-`Server` seam the assistant trio uses ([`Server::register_tool`],
//! car#972 §6): the daemon calls [`register_daemon_tools`] with a live
//! [`DaemonClient`]; the stdio binary never does, so its `tools/list` simply
//! omits the groups and a call is the honest `-32601` — a tool that never
//! existed there, not one that exists and cannot work.
//!
//! ## No second implementation
//!
//! Every tool here is a thin adapter over a daemon JSON-RPC method that
//! already exists (`events.query`, `workflow.verify`, `tasks.list`, …).
//! The handler forwards the MCP `arguments` object verbatim as the method's
//! params and serializes the method's result verbatim as the tool text — no
//! reshaping, no defaulting, no interpretation. The daemon's own handler
//! stays the single implementation; this module is wire adaptation only.
//!
//! ## Session authority is the client's contract
//!
//! The [`DaemonClient`] the embedder supplies MUST carry the authority of the
//! session the MCP caller actually holds — a bound agent token sees exactly
//! what the daemon would give that token over WS, nothing more. Nothing in
//! this module widens, narrows, or caches authority: it forwards, and the
//! daemon's dispatch enforces. An embedder that hands this module a
//! root-authority client has made that decision itself.
//!
//! ## Mutations are opt-in
//!
//! Read surfaces register unconditionally (with the client). Tools that
//! trigger or mutate work — `workflow_run`, `workflow_resume`,
//! `scheduler_schedule`, `scheduler_unschedule` — register only when
//! [`DaemonToolOptions::enable_mutations`] is set, because an MCP host may
//! auto-approve unattended and a workflow stage or scheduled program can do
//! anything the runtime can. Ungated, a prompt-injected model could install a
//! persistent OS schedule. When not enabled, the mutating tools are absent
//! from `tools/list` and a call is refused with `-32601` — absent, not
//! advertised-but-broken.
//!
//! ## External-agent invocation is deliberately NOT here
//!
//! The fourth §6 group — invoking external agentic CLIs over MCP — is
//! excluded, blocked on the §7 ancestry gap: the recursion guard decides from
//! process environment (`$CAR_INVOKED_BY` via `ancestry()`), while the daemon
//! path only records a per-call caller. Exposing invocation through this
//! seam before that gap closes would let a nested agent bypass the guard.
//! Track it on car#972; do not add the group here without closing §7 first.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::server::{RegisterError, Server, ToolError, ToolHandler};

/// A handle that can invoke one of the daemon's JSON-RPC methods under the
/// authority of the session this MCP connection represents.
///
/// The contract (see the module doc): the implementation carries the caller's
/// session authority — the daemon's own dispatch decides what the call may
/// see or do, exactly as it would for the same method over WS. `Err` is a
/// method that RAN and failed (or was refused by the daemon); it surfaces to
/// the model as an `isError: true` result, per the car#972 §5 error split.
#[async_trait::async_trait]
pub trait DaemonClient: Send + Sync + 'static {
    /// Invoke `method` with `params` (`Value::Null` when the tool was called
    /// with no arguments) and return the method's `result` value.
    async fn invoke(&self, method: &str, params: Value) -> Result<Value, String>;
}

/// What [`register_daemon_tools`] registers beyond the read surfaces.
#[derive(Debug, Clone, Default)]
pub struct DaemonToolOptions {
    /// Also register the mutating/triggering tools (`workflow_run`,
    /// `workflow_resume`, `scheduler_schedule`, `scheduler_unschedule`).
    /// Default `false`: reads only. See the module doc for why this is an
    /// explicit embedder decision rather than a default.
    pub enable_mutations: bool,
}

/// The forwarding handler: one daemon method per tool, verbatim in both
/// directions.
struct DaemonTool {
    client: Arc<dyn DaemonClient>,
    method: &'static str,
}

#[async_trait::async_trait]
impl ToolHandler for DaemonTool {
    async fn call(&self, args: Value) -> Result<String, ToolError> {
        let result = self
            .client
            .invoke(self.method, args)
            .await
            // The daemon method ran (or the daemon refused it): an execution
            // error the model must see, not a protocol error.
            .map_err(ToolError::Internal)?;
        serde_json::to_string(&result).map_err(|e| ToolError::Internal(e.to_string()))
    }
}

/// Register the daemon-only tool groups on `server`, dispatching through
/// `client`.
///
/// Reads always; mutations per `options`. Call this from the embedder that
/// owns a live daemon (the worked example is the assistant trio's
/// registration in `car-server-core::mcp_assistant`); never from the stdio
/// binary — the absence of these tools there is the design, not a gap.
pub fn register_daemon_tools(
    server: &mut Server,
    client: Arc<dyn DaemonClient>,
    options: &DaemonToolOptions,
) -> Result<(), RegisterError> {
    let mut register = |schema: Value, method: &'static str| {
        server.register_tool(
            schema,
            Arc::new(DaemonTool {
                client: client.clone(),
                method,
            }),
        )
    };

    // ---- eventlog / receipts (reads) -----------------------------------
    register(events_query_schema(), "events.query")?;
    register(events_stats_schema(), "events.stats")?;
    register(events_cost_by_agent_schema(), "events.cost_by_agent")?;

    // ---- workflow -------------------------------------------------------
    register(workflow_verify_schema(), "workflow.verify")?;
    register(workflow_list_paused_schema(), "workflow.list_paused")?;

    // ---- scheduler ------------------------------------------------------
    register(scheduler_list_schema(), "tasks.list")?;

    if options.enable_mutations {
        register(workflow_run_schema(), "workflow.run")?;
        register(workflow_resume_schema(), "workflow.resume")?;
        register(scheduler_schedule_schema(), "tasks.schedule")?;
        register(scheduler_unschedule_schema(), "tasks.unschedule")?;
    }
    Ok(())
}

/// Every tool this module can register, reads and mutations. A daemon tool
/// call always needs the caller's daemon token, so an embedder hides these
/// from a `tools/list` that carries none (car#2526): listing a tool the
/// caller can never call is advertised-but-broken, which this module avoids
/// everywhere else.
pub const DAEMON_TOOLS: [&str; 10] = [
    "events_query",
    "events_stats",
    "events_cost_by_agent",
    "workflow_verify",
    "workflow_list_paused",
    "scheduler_list",
    "workflow_run",
    "workflow_resume",
    "scheduler_schedule",
    "scheduler_unschedule",
];

/// Every read tool this module registers; the doc tables list the same
/// names. Test-only visibility — production code registers via schemas.
#[cfg(test)]
pub(crate) const READ_TOOLS: [&str; 6] = [
    "events_query",
    "events_stats",
    "events_cost_by_agent",
    "workflow_verify",
    "workflow_list_paused",
    "scheduler_list",
];

/// The mutating/triggering tools behind [`DaemonToolOptions::enable_mutations`].
#[cfg(test)]
pub(crate) const MUTATING_TOOLS: [&str; 4] = [
    "workflow_run",
    "workflow_resume",
    "scheduler_schedule",
    "scheduler_unschedule",
];

// ---- schemas -----------------------------------------------------------
//
// Same conventions as schemas.rs: all four annotation hints on every entry
// (register_tool refuses otherwise), and `outputSchema` exactly when the
// daemon method's result is a JSON object — `events.cost_by_agent`,
// `workflow.list_paused`, and `tasks.list` return arrays, so they declare
// none and never emit `structuredContent`. Where a result's shape is owned
// by the daemon handler, the schema pins `type: object` and names the owner
// rather than restating fields that would drift.

fn events_query_schema() -> Value {
    json!({
        "name": "events_query",
        "description": "Query the daemon's session event log — the audit trail. Filters are AND-conjoined and all optional: kinds, action_id, proposal_id, since/until (RFC3339), data_matches ({key: value} string pairs over the event's data, e.g. {\"agent\": \"researcher\"}), limit (most-recent-first cap). Answers 'who ran what tool when, and which approvals applied'. Read-only; scoped to the session authority of this connection.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "kinds": { "type": "array", "items": { "type": "string" } },
                "action_id": { "type": "string" },
                "proposal_id": { "type": "string" },
                "since": { "type": "string", "description": "RFC3339 inclusive lower bound" },
                "until": { "type": "string", "description": "RFC3339 exclusive upper bound" },
                "data_matches": { "type": "object" },
                "limit": { "type": "integer", "minimum": 0 },
            },
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "count": { "type": "integer" },
                "events": { "type": "array", "items": { "type": "object" } },
            },
            "required": ["count", "events"],
        },
        "annotations": {
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": false,
        },
    })
}

fn events_stats_schema() -> Value {
    json!({
        "name": "events_stats",
        "description": "Current event and span counts for the daemon's session event log.",
        "inputSchema": { "type": "object", "properties": {} },
        "outputSchema": {
            "type": "object",
            "description": "The event log's stats() object; shape owned by car-eventlog.",
        },
        "annotations": {
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": false,
        },
    })
}

fn events_cost_by_agent_schema() -> Value {
    json!({
        "name": "events_cost_by_agent",
        "description": "Per-agent token/cost report folded from the event log's InferenceMetered events: an array of { agent, calls, tokens_in, tokens_out, cost_usd }. The receipts view of a multi-agent run. Returns an array, so this tool carries no outputSchema/structuredContent — read the text block.",
        "inputSchema": { "type": "object", "properties": {} },
        "annotations": {
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": false,
        },
    })
}

fn workflow_verify_schema() -> Value {
    json!({
        "name": "workflow_verify",
        "description": "Statically verify a declarative workflow manifest before running it: structural errors (missing start stage, dangling edges, duplicate stage ids, approval-gate rules, loop/for_each bounds), cycle and reachability warnings, and advisory semantic findings. Pure check — runs nothing.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "workflow": { "type": "object", "description": "A car-workflow manifest" },
            },
            "required": ["workflow"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "valid": { "type": "boolean" },
                "issues": { "type": "array" },
                "has_cycles": { "type": "boolean" },
                "reachable_stages": { "type": "array", "items": { "type": "string" } },
                "unreachable_stages": { "type": "array", "items": { "type": "string" } },
                "semantic": { "type": "array" },
            },
            "required": ["valid", "issues"],
        },
        "annotations": {
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": false,
        },
    })
}

fn workflow_list_paused_schema() -> Value {
    json!({
        "name": "workflow_list_paused",
        "description": "Enumerate every resumable paused workflow run (approval gates awaiting input): an array of { run_id, paused_stage_id, prompt, created_at }. Returns an array, so no outputSchema/structuredContent — read the text block. Resume via workflow_resume (a mutating tool the embedder must enable).",
        "inputSchema": { "type": "object", "properties": {} },
        "annotations": {
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": false,
        },
    })
}

fn workflow_run_schema() -> Value {
    json!({
        "name": "workflow_run",
        "description": "Run a declarative multi-stage workflow on the daemon. Stages execute real proposals through the runtime — any tool the runtime can execute is reachable from a stage, so treat this as arbitrary work, not a query. Pauses at approval stages (resume with workflow_resume). Registered only when the embedder enables mutating daemon tools.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "workflow": { "type": "object", "description": "A car-workflow manifest" },
                "initial_state": { "type": "object", "description": "State seeded before the run starts" },
            },
            "required": ["workflow"],
        },
        "outputSchema": {
            "type": "object",
            "description": "The workflow execution result (status, per-stage outputs, final_state, paused checkpoint when an approval gate fired); shape owned by the daemon's workflow.run handler.",
        },
        // Not read-only, can overwrite state and fire arbitrary side effects
        // through its stages, and a stage may reach the network — the open
        // world is one proposal away.
        "annotations": {
            "readOnlyHint": false,
            "destructiveHint": true,
            "idempotentHint": false,
            "openWorldHint": true,
        },
    })
}

fn workflow_resume_schema() -> Value {
    json!({
        "name": "workflow_resume",
        "description": "Resume a paused workflow run by run_id, supplying the approval gate's response fields as input. The daemon claims the checkpoint atomically (exactly-once); downstream stages then execute for real. Registered only when the embedder enables mutating daemon tools.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "run_id": { "type": "string" },
                "input": { "type": "object", "description": "The gate's response fields; validated against its declared fields" },
            },
            "required": ["run_id"],
        },
        "outputSchema": {
            "type": "object",
            "description": "The next workflow execution result (completed/failed/compensated, or paused again at the next gate); shape owned by the daemon's workflow.resume handler.",
        },
        "annotations": {
            "readOnlyHint": false,
            "destructiveHint": true,
            "idempotentHint": false,
            "openWorldHint": true,
        },
    })
}

fn scheduler_list_schema() -> Value {
    json!({
        "name": "scheduler_list",
        "description": "List every scheduled task record and what runs it: an array of { id, name, kind (command|agent|dream|prompt|unreadable), program, args, trigger, schedule, durable, backend (os|daemon|orphaned|none), enabled, status, last_run_at, run_count, last_exit_code, stdout_path, stderr_path }. backend orphaned means a durable task whose OS job is gone, so nothing runs it. A kind unreadable row is a task file that could not be parsed, with its file and error. Returns an array, so no outputSchema/structuredContent — read the text block.",
        "inputSchema": { "type": "object", "properties": {} },
        "annotations": {
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": false,
        },
    })
}

fn scheduler_schedule_schema() -> Value {
    json!({
        "name": "scheduler_schedule",
        "description": "Schedule a deterministic command (program + args, not a prompt) on a cadence. durable: true (the default) installs it into the OS scheduler (launchd/cron/schtasks) so it fires even when the daemon is down — a persistent foothold on the machine, which is why this tool is registered only when the embedder enables mutating daemon tools. Commands run with the daemon OS user authority; no per-task permission tier is enforced. Exactly one of cadence.interval_secs / cadence.cron.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "name": { "type": "string" },
                "program": { "type": "string" },
                "args": { "type": "array", "items": { "type": "string" } },
                "cadence": {
                    "type": "object",
                    "properties": {
                        "interval_secs": { "type": "integer", "minimum": 1 },
                        "cron": { "type": "string" },
                    },
                },
                "durable": { "type": "boolean" },
                "working_dir": { "type": "string" },
                "env": { "type": "object" },
                "timeout_secs": { "type": "integer", "minimum": 1 },
                "stdout_path": { "type": "string", "description": "Absolute file the command's stdout is appended to. Default <CAR_HOME>/logs/tasks/<id>.log." },
                "stderr_path": { "type": "string", "description": "Absolute file the command's stderr is appended to. Default: the stdout file." },
            },
            "required": ["name", "program", "cadence"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "id": { "type": "string" },
                "durable": { "type": "boolean" },
                "backend": { "type": "string", "enum": ["launchd", "cron", "schtasks", "daemon"] },
                "stdout_path": { "type": "string" },
                "stderr_path": { "type": "string" },
                "task": { "type": "object" },
            },
            "required": ["id", "backend"],
        },
        // Additive (a new task, never overwriting one), but it plants durable
        // OS state that runs an arbitrary program unattended — open world.
        "annotations": {
            "readOnlyHint": false,
            "destructiveHint": false,
            "idempotentHint": false,
            "openWorldHint": true,
        },
    })
}

fn scheduler_unschedule_schema() -> Value {
    json!({
        "name": "scheduler_unschedule",
        "description": "Remove a scheduled command task by id (bare id or full label): uninstalls any OS schedule and deletes the task from the store. Registered only when the embedder enables mutating daemon tools.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "id": { "type": "string" },
            },
            "required": ["id"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "id": { "type": "string" },
                "os_removed": { "type": "boolean" },
                "deleted": { "type": "boolean" },
                "orphaned": { "type": "boolean" },
            },
            "required": ["id"],
        },
        "annotations": {
            "readOnlyHint": false,
            "destructiveHint": true,
            "idempotentHint": true,
            "openWorldHint": false,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error_codes::METHOD_NOT_FOUND as E_METHOD_NOT_FOUND;
    use crate::server::Request;
    use tokio::sync::Mutex;

    /// A fake daemon: records every (method, params) pair and answers from a
    /// canned per-method table — the "no second implementation" property is
    /// exactly that nothing else is needed to make every tool work.
    struct FakeDaemon {
        calls: Mutex<Vec<(String, Value)>>,
        fail: bool,
    }

    impl FakeDaemon {
        fn new() -> Arc<Self> {
            Arc::new(Self {
                calls: Mutex::new(Vec::new()),
                fail: false,
            })
        }
        fn failing() -> Arc<Self> {
            Arc::new(Self {
                calls: Mutex::new(Vec::new()),
                fail: true,
            })
        }
        fn canned(method: &str) -> Value {
            match method {
                "events.query" => json!({ "count": 1, "events": [{ "kind": "action_failed" }] }),
                "events.stats" => json!({ "events": 12, "spans": 3 }),
                "events.cost_by_agent" => json!([{ "agent": "researcher", "calls": 2 }]),
                "workflow.verify" => json!({ "valid": true, "issues": [], "has_cycles": false }),
                "workflow.list_paused" => json!([{ "run_id": "r1", "paused_stage_id": "gate" }]),
                "workflow.run" => json!({ "status": "completed", "final_state": {} }),
                "workflow.resume" => json!({ "status": "completed" }),
                "tasks.list" => json!([{ "id": "t1", "name": "nightly", "program": "true" }]),
                "tasks.schedule" => {
                    json!({ "id": "t2", "durable": true, "backend": "launchd", "task": {} })
                }
                "tasks.unschedule" => json!({ "id": "t1", "os_removed": true, "deleted": true }),
                other => panic!("unexpected daemon method {other}"),
            }
        }
    }

    #[async_trait::async_trait]
    impl DaemonClient for FakeDaemon {
        async fn invoke(&self, method: &str, params: Value) -> Result<Value, String> {
            self.calls.lock().await.push((method.to_string(), params));
            if self.fail {
                return Err("the daemon refused: insufficient session authority".into());
            }
            Ok(Self::canned(method))
        }
    }

    fn request(method: &str, params: Value) -> Request {
        Request {
            jsonrpc: "2.0".to_string(),
            id: Some(json!(1)),
            method: method.to_string(),
            params,
        }
    }

    async fn call(server: &Server, name: &str, arguments: Value) -> crate::server::Response {
        server
            .handle(request(
                "tools/call",
                json!({ "name": name, "arguments": arguments }),
            ))
            .await
            .expect("response")
    }

    async fn tool_names(server: &Server) -> Vec<String> {
        let resp = server
            .handle(request("tools/list", json!({})))
            .await
            .expect("response");
        resp.result.expect("result")["tools"]
            .as_array()
            .expect("array")
            .iter()
            .map(|t| t["name"].as_str().expect("name").to_string())
            .collect()
    }

    fn reads_server() -> (Server, Arc<FakeDaemon>) {
        let mut server = Server::new();
        let daemon = FakeDaemon::new();
        register_daemon_tools(&mut server, daemon.clone(), &DaemonToolOptions::default())
            .expect("registers");
        (server, daemon)
    }

    #[test]
    fn daemon_tools_names_every_tool_this_module_registers() {
        // car#2526 hides exactly these from a token-less `tools/list`; a tool
        // added here but not there would be listed to a caller who cannot
        // call it.
        let registered: Vec<&str> = READ_TOOLS
            .iter()
            .chain(MUTATING_TOOLS.iter())
            .copied()
            .collect();
        assert_eq!(registered, DAEMON_TOOLS.to_vec());
    }

    #[test]
    fn scheduler_schema_matches_supported_execution_options() {
        let schema = scheduler_schedule_schema();
        let properties = &schema["inputSchema"]["properties"];
        assert!(properties.get("permission_tier").is_none());
        assert_eq!(properties["timeout_secs"]["type"], "integer");
        assert!(schema["description"]
            .as_str()
            .unwrap()
            .contains("daemon OS user authority"));
    }

    /// "No daemon reachable" is spelled "nothing registered": a bare server
    /// (the stdio binary's shape) advertises none of the groups, gated or
    /// not, and a call is the honest -32601.
    #[tokio::test]
    async fn without_a_daemon_the_groups_are_absent() {
        let server = Server::new();
        let names = tool_names(&server).await;
        for tool in READ_TOOLS.iter().chain(MUTATING_TOOLS.iter()) {
            assert!(
                !names.iter().any(|n| n == tool),
                "{tool} must not be advertised without a daemon"
            );
        }
        let resp = call(&server, "events_query", json!({})).await;
        assert_eq!(resp.error.expect("error").code, E_METHOD_NOT_FOUND);
    }

    /// The read surfaces register by default; the mutating tools do not.
    #[tokio::test]
    async fn reads_register_and_mutations_stay_absent_by_default() {
        let (server, _daemon) = reads_server();
        let names = tool_names(&server).await;
        for tool in READ_TOOLS {
            assert!(names.iter().any(|n| n == tool), "{tool} missing");
        }
        for tool in MUTATING_TOOLS {
            assert!(
                !names.iter().any(|n| n == tool),
                "{tool} must not register without enable_mutations"
            );
            // Refused as a tool that does not exist — absent, not
            // advertised-but-broken.
            let resp = call(&server, tool, json!({})).await;
            assert_eq!(
                resp.error.expect("error").code,
                E_METHOD_NOT_FOUND,
                "{tool}"
            );
        }
    }

    /// Group 1 (eventlog): params forwarded verbatim to events.query, result
    /// serialized verbatim, structuredContent per the declared outputSchema.
    #[tokio::test]
    async fn events_query_round_trips_through_the_daemon() {
        let (server, daemon) = reads_server();
        let args = json!({ "kinds": ["action_failed"], "limit": 5 });
        let resp = call(&server, "events_query", args.clone()).await;
        let result = resp.result.expect("result");
        assert_eq!(result["isError"], false);

        // Forwarded verbatim — the daemon's own EventQuery deserialization is
        // the single implementation of these params.
        let calls = daemon.calls.lock().await;
        assert_eq!(calls.as_slice(), &[("events.query".to_string(), args)]);

        // The text block is the daemon result verbatim, and structuredContent
        // is its parse (events_query declares an outputSchema).
        let text = result["content"][0]["text"].as_str().expect("text");
        let parsed: Value = serde_json::from_str(text).expect("json");
        assert_eq!(parsed, FakeDaemon::canned("events.query"));
        assert_eq!(result["structuredContent"], parsed);
        assert_eq!(result["structuredContent"]["count"], 1);
    }

    /// Group 2 (workflow): the pure static check round-trips.
    #[tokio::test]
    async fn workflow_verify_round_trips_through_the_daemon() {
        let (server, daemon) = reads_server();
        let args = json!({ "workflow": { "id": "wf", "stages": [] } });
        let resp = call(&server, "workflow_verify", args.clone()).await;
        let result = resp.result.expect("result");
        assert_eq!(result["isError"], false);
        assert_eq!(
            daemon.calls.lock().await.as_slice(),
            &[("workflow.verify".to_string(), args)]
        );
        assert_eq!(result["structuredContent"]["valid"], true);
    }

    /// Group 3 (scheduler): an array-valued read — text only, no
    /// structuredContent, because the spec requires an object there.
    #[tokio::test]
    async fn scheduler_list_round_trips_without_structured_content() {
        let (server, daemon) = reads_server();
        let resp = call(&server, "scheduler_list", json!({})).await;
        let result = resp.result.expect("result");
        assert_eq!(result["isError"], false);
        assert_eq!(daemon.calls.lock().await[0].0, "tasks.list");
        let text = result["content"][0]["text"].as_str().expect("text");
        let parsed: Value = serde_json::from_str(text).expect("json");
        assert!(parsed.is_array());
        assert!(
            result.get("structuredContent").is_none(),
            "an array result must not emit structuredContent"
        );
    }

    /// With mutations enabled the gated tools advertise and forward — and
    /// the trigger goes to the daemon method, which stays the single
    /// implementation and the single authority check.
    #[tokio::test]
    async fn enabled_mutations_advertise_and_forward() {
        let mut server = Server::new();
        let daemon = FakeDaemon::new();
        register_daemon_tools(
            &mut server,
            daemon.clone(),
            &DaemonToolOptions {
                enable_mutations: true,
            },
        )
        .expect("registers");

        let names = tool_names(&server).await;
        for tool in MUTATING_TOOLS {
            assert!(names.iter().any(|n| n == tool), "{tool} missing");
        }

        let args = json!({
            "name": "nightly",
            "program": "/usr/bin/true",
            "cadence": { "interval_secs": 3600 },
        });
        let resp = call(&server, "scheduler_schedule", args.clone()).await;
        let result = resp.result.expect("result");
        assert_eq!(result["isError"], false);
        assert_eq!(
            daemon.calls.lock().await.as_slice(),
            &[("tasks.schedule".to_string(), args)]
        );
        assert_eq!(result["structuredContent"]["backend"], "launchd");
    }

    /// A daemon refusal — including an authority denial — is an execution
    /// error the model can read (`isError: true`), not a JSON-RPC error the
    /// client swallows. The authority decision itself belongs to the daemon;
    /// this seam only relays it.
    #[tokio::test]
    async fn a_daemon_refusal_reaches_the_model_as_is_error() {
        let mut server = Server::new();
        register_daemon_tools(
            &mut server,
            FakeDaemon::failing(),
            &DaemonToolOptions::default(),
        )
        .expect("registers");

        let resp = call(&server, "events_query", json!({})).await;
        assert!(resp.error.is_none(), "{:?}", resp.error);
        let result = resp.result.expect("result");
        assert_eq!(result["isError"], true);
        assert!(result["content"][0]["text"]
            .as_str()
            .expect("text")
            .contains("insufficient session authority"));
    }

    /// The classifications a host's auto-approve logic will key off: every
    /// read tool is a pure read, and the gated tools say honestly that a
    /// workflow stage or scheduled program reaches the open world.
    #[tokio::test]
    async fn annotations_are_honest_about_reads_and_triggers() {
        let mut server = Server::new();
        register_daemon_tools(
            &mut server,
            FakeDaemon::new(),
            &DaemonToolOptions {
                enable_mutations: true,
            },
        )
        .expect("registers");
        let resp = server
            .handle(request("tools/list", json!({})))
            .await
            .expect("response");
        let result = resp.result.expect("result");
        let tools = result["tools"].as_array().expect("tools");
        let hint = |tool: &str, key: &str| -> bool {
            tools
                .iter()
                .find(|t| t["name"] == json!(tool))
                .unwrap_or_else(|| panic!("{tool} not advertised"))["annotations"][key]
                .as_bool()
                .unwrap_or_else(|| panic!("{tool}.{key} is not a bool"))
        };

        for tool in READ_TOOLS {
            assert!(hint(tool, "readOnlyHint"), "{tool} is a read");
            assert!(!hint(tool, "destructiveHint"), "{tool} destroys nothing");
            assert!(!hint(tool, "openWorldHint"), "{tool} stays local");
        }
        for tool in ["workflow_run", "workflow_resume", "scheduler_schedule"] {
            assert!(!hint(tool, "readOnlyHint"), "{tool} triggers work");
            assert!(
                hint(tool, "openWorldHint"),
                "{tool} can reach the open world and must say so"
            );
        }
        assert!(hint("scheduler_unschedule", "destructiveHint"));
    }

    /// The registration seam's own gate still applies: a second registration
    /// of the same groups collides, loudly.
    #[tokio::test]
    async fn double_registration_is_refused() {
        let (mut server, _) = {
            let mut server = Server::new();
            let daemon = FakeDaemon::new();
            register_daemon_tools(&mut server, daemon.clone(), &DaemonToolOptions::default())
                .expect("registers");
            (server, daemon)
        };
        let e = register_daemon_tools(
            &mut server,
            FakeDaemon::new(),
            &DaemonToolOptions::default(),
        )
        .expect_err("the same names cannot register twice");
        assert!(matches!(e, RegisterError::AlreadyRegistered(_)));
    }
}
