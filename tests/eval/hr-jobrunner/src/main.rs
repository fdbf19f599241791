//! A minimal MCP server written against the wire format: newline-delimited JSON-RPC on stdio.

mod dispatch;
mod jobs;
mod rpc;
mod status;

use std::io::{BufRead, Write};
use std::sync::Arc;

use serde_json::Value;

use crate::jobs::State;

fn main() {
    let allowed: Vec<String> = std::env::var("JOBRUNNER_ALLOW")
        .unwrap_or_else(|_| "ls,cat,grep,cargo,git,make".to_string())
        .split(',')
        .map(str::to_string)
        .collect();
    let state = Arc::new(State::new(allowed));

    if let Ok(port) = std::env::var("JOBRUNNER_STATUS_PORT") {
        let state = state.clone();
        std::thread::spawn(move || status::serve(&format!("127.0.0.1:{port}"), state));
    }

    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let response = match serde_json::from_str::<Value>(&line) {
            Ok(request) => dispatch::handle(&state, &request),
            Err(e) => Some(rpc::rpc_error(
                &Value::Null,
                rpc::PARSE_ERROR,
                &format!("invalid JSON: {e}"),
            )),
        };
        if let Some(response) = response {
            let _ = writeln!(stdout, "{response}");
            let _ = stdout.flush();
        }
    }
}
