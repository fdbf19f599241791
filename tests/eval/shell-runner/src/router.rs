//! One dynamic tool per configured command.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResult, Content, ErrorCode, JsonObject, Tool};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::config::CommandSpec;
use crate::runner::{self, RunError};
use crate::server::ShellServer;
use crate::McpError;

#[derive(Debug, Default, Deserialize)]
struct RunArgs {
    #[serde(default)]
    args: Vec<String>,
    cwd: Option<String>,
}

fn input_schema() -> Arc<JsonObject> {
    let Value::Object(schema) = json!({
        "type": "object",
        "properties": {
            "args": { "type": "array", "items": { "type": "string" } },
            "cwd": { "type": "string", "description": "Subdirectory of the work directory" }
        }
    }) else {
        unreachable!("literal is an object")
    };
    Arc::new(schema)
}

pub fn command_route(spec: CommandSpec) -> ToolRoute<ShellServer> {
    let tool = Tool::new(spec.name.clone(), spec.description.clone(), input_schema());
    ToolRoute::new_dyn(tool, move |ctx: ToolCallContext<'_, ShellServer>| {
        let spec = spec.clone();
        Box::pin(async move {
            let args: RunArgs = match ctx.arguments.clone() {
                Some(obj) => serde_json::from_value(Value::Object(obj)).map_err(|e| {
                    McpError::invalid_params(
                        format!("arguments for {} do not match its schema: {e}", spec.name),
                        None,
                    )
                })?,
                None => RunArgs::default(),
            };
            if let Some(bad) = args.args.iter().find(|a| !spec.arg_allowed(a)) {
                return Err(McpError::invalid_params(
                    format!(
                        "argument {bad:?} is not allowed for {}; allowed prefixes: {:?}",
                        spec.name, spec.allowed_prefixes
                    ),
                    None,
                ));
            }
            let server = ctx.service;
            let cwd = match server.resolve_cwd(args.cwd.as_deref()) {
                Ok(dir) => dir,
                Err(msg) => return Ok(CallToolResult::error(vec![Content::text(msg)])),
            };
            let cancelled = ctx.request_context.ct.clone();
            let output = tokio::select! {
                _ = cancelled.cancelled() => {
                    return Err(McpError::internal_error("request cancelled by the client", None));
                }
                out = runner::run(&spec, &args.args, &cwd, server.timeout()) => out,
            };
            let output = match output {
                Ok(out) => out,
                Err(RunError::Timeout(limit)) => {
                    return Err(McpError::new(
                        ErrorCode(-32001),
                        format!("{} did not finish within {}s", spec.name, limit.as_secs()),
                        None,
                    ));
                }
                Err(RunError::Spawn(e)) => {
                    return Ok(CallToolResult::error(vec![Content::text(format!(
                        "could not start {}: {e}",
                        spec.program
                    ))]));
                }
            };
            if output.success() {
                let text = if output.stdout.trim().is_empty() {
                    "(no output)".to_string()
                } else {
                    output.stdout
                };
                Ok(CallToolResult::success(vec![Content::text(text)]))
            } else {
                Ok(CallToolResult {
                    content: vec![],
                    structured_content: Some(json!({
                        "exit_code": output.code,
                        "stderr": output.stderr,
                    })),
                    is_error: Some(true),
                    meta: None,
                })
            }
        })
    })
}
