//! The tools: run allow-listed commands, manage background jobs, tail files; job logs as resources.

use std::collections::HashMap;
use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use wait_timeout::ChildExt;

use crate::rpc::{
    ok, rpc_error, tool_error, tool_text, INTERNAL_ERROR, INVALID_PARAMS, JOB_TIMEOUT,
};

pub struct Job {
    pub command: String,
    pub child: Child,
    pub started: Instant,
    pub log_path: std::path::PathBuf,
}

pub struct State {
    pub allowed: Vec<String>,
    pub jobs: Mutex<HashMap<String, Job>>,
    next_id: AtomicU64,
}

impl State {
    pub fn new(allowed: Vec<String>) -> Self {
        Self {
            allowed,
            jobs: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        }
    }
}

pub fn tool_list() -> Value {
    json!([
        {
            "name": "run_command",
            "description": "Run an allow-listed command and wait for it (timeout_secs, default 30, at most 600)",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "command": { "type": "string" },
                    "args": { "type": "array", "items": { "type": "string" } },
                    "cwd": { "type": "string" },
                    "timeout_secs": { "type": "integer" }
                },
                "required": ["command"]
            }
        },
        { "name": "start_job", "description": "Start an allow-listed command in the background; returns a job id",
          "inputSchema": { "type": "object", "properties": { "command": { "type": "string" }, "args": { "type": "array", "items": { "type": "string" } } }, "required": ["command"] } },
        { "name": "job_output", "description": "Output so far of a background job",
          "inputSchema": { "type": "object", "properties": { "job_id": { "type": "string" } }, "required": ["job_id"] } },
        { "name": "kill_job", "description": "Stop a background job",
          "inputSchema": { "type": "object", "properties": { "job_id": { "type": "string" } }, "required": ["job_id"] } },
        { "name": "list_jobs", "description": "Running background jobs", "inputSchema": { "type": "object" } },
        { "name": "tail_file", "description": "Last lines of a text file",
          "inputSchema": { "type": "object", "properties": { "path": { "type": "string" }, "lines": { "type": "integer" } }, "required": ["path"] } }
    ])
}

fn string_args(args: &Value) -> Vec<String> {
    args.get("args")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

fn check_allowed(state: &State, command: &str) -> Result<(), String> {
    if state.allowed.iter().any(|c| c == command) {
        Ok(())
    } else {
        Err(format!(
            "`{command}` is not on the allow-list; allowed commands: {}",
            state.allowed.join(", ")
        ))
    }
}

pub fn run_command(state: &State, id: &Value, args: &Value) -> Value {
    let Some(command) = args.get("command").and_then(Value::as_str) else {
        return rpc_error(id, INVALID_PARAMS, "run_command: `command` (string) is required");
    };
    if let Err(message) = check_allowed(state, command) {
        return tool_error(id, &message);
    }
    let timeout = args.get("timeout_secs").and_then(Value::as_u64).unwrap_or(30);
    if timeout == 0 || timeout > 600 {
        return rpc_error(
            id,
            INVALID_PARAMS,
            &format!("timeout_secs must be between 1 and 600, got {timeout}"),
        );
    }
    let cwd = args.get("cwd").and_then(Value::as_str).unwrap_or(".");
    let mut child = match Command::new(command)
        .args(string_args(args))
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            return rpc_error(id, INTERNAL_ERROR, &format!("cannot start {command} in {cwd}: {e}"))
        }
    };
    let status = match child.wait_timeout(Duration::from_secs(timeout)) {
        Ok(Some(status)) => status,
        Ok(None) => {
            let _ = child.kill();
            return rpc_error(id, JOB_TIMEOUT, &format!("{command} did not finish within {timeout}s"));
        }
        Err(e) => return tool_error(id, &format!("waiting for {command} failed: {e}")),
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_string(&mut stdout);
    }
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut stderr);
    }
    if status.success() {
        tool_text(id, &stdout)
    } else {
        tool_error(
            id,
            &format!("{command} exited with {status}\nstderr:\n{stderr}\nstdout:\n{stdout}"),
        )
    }
}

pub fn start_job(state: &State, id: &Value, args: &Value) -> Value {
    let Some(command) = args.get("command").and_then(Value::as_str) else {
        return rpc_error(id, INVALID_PARAMS, "start_job: `command` (string) is required");
    };
    if let Err(message) = check_allowed(state, command) {
        return tool_error(id, &message);
    }
    let job_id = format!("job_{}", state.next_id.fetch_add(1, Ordering::Relaxed));
    let log_path = std::env::temp_dir().join(format!("jobrunner-{job_id}.log"));
    let log = match std::fs::File::create(&log_path) {
        Ok(f) => f,
        Err(e) => {
            return tool_error(id, &format!("cannot create the log file {}: {e}", log_path.display()))
        }
    };
    let child = match Command::new(command)
        .args(string_args(args))
        .stdout(Stdio::from(log.try_clone().expect("log handle clones")))
        .stderr(Stdio::from(log))
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return tool_error(id, &format!("cannot start {command}: {e}")),
    };
    let job = Job {
        command: command.to_string(),
        child,
        started: Instant::now(),
        log_path,
    };
    state.jobs.lock().expect("jobs lock").insert(job_id.clone(), job);
    tool_text(id, &json!({ "job_id": job_id }).to_string())
}

pub fn job_output(state: &State, id: &Value, args: &Value) -> Value {
    let job_id = args.get("job_id").and_then(Value::as_str).unwrap_or_default();
    let mut jobs = state.jobs.lock().expect("jobs lock");
    let Some(job) = jobs.get_mut(job_id) else {
        return tool_text(id, &format!("no job {job_id}"));
    };
    let log = std::fs::read_to_string(&job.log_path).unwrap_or_default();
    let status = match job.child.try_wait() {
        Ok(Some(status)) => format!("finished: {status}"),
        Ok(None) => format!("running for {}s", job.started.elapsed().as_secs()),
        Err(e) => format!("unknown ({e})"),
    };
    tool_text(id, &format!("{} [{status}]\n{log}", job.command))
}

pub fn kill_job(state: &State, id: &Value, args: &Value) -> Value {
    let job_id = args.get("job_id").and_then(Value::as_str).unwrap_or_default();
    let Some(mut job) = state.jobs.lock().expect("jobs lock").remove(job_id) else {
        return tool_error(
            id,
            &format!("job {job_id} is unknown or already removed; list_jobs shows the running ones"),
        );
    };
    match job.child.kill() {
        Ok(()) => tool_text(id, &format!("killed {job_id} ({})", job.command)),
        Err(e) => tool_error(id, &format!("cannot kill {job_id}: {e}")),
    }
}

pub fn list_jobs(state: &State, id: &Value) -> Value {
    let jobs = state.jobs.lock().expect("jobs lock");
    let lines: Vec<String> = jobs
        .iter()
        .map(|(job_id, job)| format!("{job_id} {} ({}s)", job.command, job.started.elapsed().as_secs()))
        .collect();
    if lines.is_empty() {
        return tool_text(id, "no background jobs");
    }
    tool_text(id, &lines.join("\n"))
}

pub fn tail_file(id: &Value, args: &Value) -> Value {
    let Some(path) = args.get("path").and_then(Value::as_str) else {
        return rpc_error(id, INVALID_PARAMS, "tail_file: `path` (string) is required");
    };
    let lines = args.get("lines").and_then(Value::as_u64).unwrap_or(50) as usize;
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            return json!({ "jsonrpc": "2.0", "id": id, "error": {
                "code": -32603,
                "message": format!("cannot read {path}: {e}"),
            }})
        }
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [], "isError": true } });
    };
    if lines == 0 {
        return json!({
            "jsonrpc": "2.0",
            "id": id,
            "result": { "content": [{ "type": "text", "text": "Error" }], "isError": true }
        });
    }
    let all: Vec<&str> = text.lines().collect();
    let start = all.len().saturating_sub(lines);
    tool_text(id, &all[start..].join("\n"))
}

pub fn resource_list(state: &State) -> Value {
    let jobs = state.jobs.lock().expect("jobs lock");
    Value::Array(
        jobs.keys()
            .map(|job_id| {
                json!({
                    "uri": format!("jobs://{job_id}/log"),
                    "name": format!("{job_id} log"),
                    "mimeType": "text/plain"
                })
            })
            .collect(),
    )
}

pub fn read_log(state: &State, id: &Value, params: &Value) -> Value {
    let Some(uri) = params.get("uri").and_then(Value::as_str) else {
        return rpc_error(id, INVALID_PARAMS, "resources/read needs a string `uri`");
    };
    let job_id = uri
        .strip_prefix("jobs://")
        .and_then(|rest| rest.strip_suffix("/log"))
        .unwrap_or_default();
    let jobs = state.jobs.lock().expect("jobs lock");
    let Some(job) = jobs.get(job_id) else {
        return rpc_error(id, INVALID_PARAMS, &format!("Resource not found: {uri}"));
    };
    match std::fs::read_to_string(&job.log_path) {
        Ok(text) => ok(
            id,
            json!({ "contents": [{ "uri": uri, "mimeType": "text/plain", "text": text }] }),
        ),
        Err(e) => rpc_error(
            id,
            -32044,
            &format!("the log of {job_id} is gone ({e})"),
        ),
    }
}
