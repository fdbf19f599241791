//! shelfscan: an MCP server on stdio that catalogues an e-book library on disk.

mod config;
mod error;
mod library;
mod registry;
mod rpc;
mod tools;

use std::sync::Arc;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::error::CatalogError;
use crate::library::Library;
use crate::rpc::*;

struct Session {
    initialized: bool,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();

    let cfg = config::init()?;
    let lib = Arc::new(Library::new(cfg.library_root.clone()));
    match lib.load_index(&cfg.index_path) {
        Ok(n) => tracing::info!(books = n, "index loaded"),
        Err(e) => tracing::warn!(error = %e, "starting with an empty catalogue"),
    }
    let tools = registry::build();
    let mut session = Session { initialized: false };

    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut stdout = tokio::io::stdout();
    while let Some(line) = lines.next_line().await? {
        if line.trim().is_empty() {
            continue;
        }
        let response = match serde_json::from_str::<Value>(&line) {
            Ok(msg) => handle_message(&lib, &tools, &mut session, msg).await,
            Err(e) => Some(rpc_error(Value::Null, PARSE_ERROR, &format!("Parse error: {e}"))),
        };
        if let Some(resp) = response {
            let mut out = serde_json::to_vec(&resp)?;
            out.push(b'\n');
            stdout.write_all(&out).await?;
            stdout.flush().await?;
        }
    }
    Ok(())
}

async fn handle_message(
    lib: &Arc<Library>,
    tools: &std::collections::HashMap<&'static str, registry::ToolFn>,
    session: &mut Session,
    msg: Value,
) -> Option<Value> {
    let Some(method) = msg.get("method").and_then(Value::as_str) else {
        let id = msg.get("id").cloned().unwrap_or(Value::Null);
        return Some(rpc_error(id, INVALID_REQUEST, "Invalid Request: no method"));
    };
    let Some(id) = msg.get("id").cloned() else {
        if method == "notifications/initialized" {
            session.initialized = true;
        }
        return None;
    };
    let params = msg.get("params").cloned().unwrap_or_else(|| json!({}));

    let response = match method {
        "initialize" => {
            session.initialized = true;
            rpc_result(
                id,
                json!({
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": { "tools": {} },
                    "serverInfo": { "name": "shelfscan", "version": env!("CARGO_PKG_VERSION") }
                }),
            )
        }
        "ping" => rpc_result(id, json!({})),
        "tools/list" => rpc_result(id, json!({ "tools": registry::definitions() })),
        "tools/call" if !session.initialized => {
            rpc_error(id, SERVER_NOT_INITIALIZED, "tools/call before initialize")
        }
        "tools/call" => {
            let Some(name) = params.get("name").and_then(Value::as_str) else {
                return Some(rpc_error(id, INVALID_PARAMS, "tools/call needs a string `name`"));
            };
            let args = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
            if !args.is_object() {
                return Some(rpc_error(id, INVALID_PARAMS, "invalid params"));
            }
            let Some(tool) = tools.get(name) else {
                return Some(rpc_result(id, tool_error(format!("no such tool: {name}"))));
            };
            match tool(Arc::clone(lib), args).await {
                Ok(result) => rpc_result(id, result),
                Err(e) => {
                    tracing::warn!(tool = name, error = %e, "tool failed");
                    let code = match &e {
                        CatalogError::MissingArgument(_) => INVALID_PARAMS,
                        CatalogError::BadArgument(_) => INVALID_PARAMS,
                        CatalogError::NotFound(_) => BOOK_NOT_FOUND,
                        CatalogError::Locked(_) => CATALOGUE_LOCKED,
                        CatalogError::Stale(_) => INDEX_STALE,
                        CatalogError::Io(_) => TOOL_EXECUTION_FAILED,
                        CatalogError::Encode(_) => INTERNAL_ERROR,
                        CatalogError::Poisoned => INTERNAL_ERROR,
                        CatalogError::Join(_) => INTERNAL_ERROR,
                        CatalogError::NotReady(_) => INTERNAL_ERROR,
                    };
                    rpc_error(id, code, &e.to_string())
                }
            }
        }
        other => rpc_error(id, METHOD_NOT_FOUND, &format!("Method not found: {other}")),
    };
    Some(response)
}
