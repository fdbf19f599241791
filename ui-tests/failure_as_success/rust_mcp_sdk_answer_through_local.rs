//@ dep: rust-mcp-sdk = "0.8"
//@ dep: async-trait = "0.1"
// rust-mcp-sdk: `CallToolResult::text_content(..)` is a success result. A dispatcher that picks
// each tool's text into a local (`let mut response = match name { .. }`) and wraps it in one
// success result at the end answers every failure text that reaches that local as success: the
// `Err(e) =>` arm of a `String` helper (also through a helper that passes the text on), an
// absent argument answered "Error: .." in the arm, an early `return` of "Error: ..". The
// unknown-tool arm of the same match is MCP007's. Not reported: the same helper's success text, a
// failure text that only reaches a log line, and a fallback that is not an answer.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::ServerHandler,
    schema::{schema_utils::CallToolError, CallToolRequestParams, CallToolResult, ServerResult},
    McpServer, RequestContext,
};

pub struct Daemon;

impl Daemon {
    async fn fetch_status(&self) -> Result<String, std::io::Error> {
        std::fs::read_to_string("/run/daemon/status")
    }
}

pub struct Queries {
    daemon: Daemon,
}

impl Queries {
    /// Shared with the CLI, which prints the text.
    pub async fn status(&self) -> String {
        let output = match self.daemon.fetch_status().await {
            Ok(status) => format!("status: {status}"),
            Err(e) => format!("Error: {e:?}"), //~ failure_as_success
        };
        self.with_banner(output)
    }

    pub async fn rule(&self, id: &str) -> String {
        let Some(id) = id.strip_prefix("r.") else {
            return "Error: invalid rule ID".to_string(); //~ failure_as_success
        };
        self.with_banner(format!("rule {id}"))
    }

    pub async fn uptime(&self) -> String {
        match std::fs::read_to_string("/proc/uptime") {
            Ok(text) => text,
            Err(e) => {
                eprintln!("cannot read uptime: {e}");
                "0".to_string()
            }
        }
    }

    pub fn with_banner(&self, output: String) -> String {
        if output.is_empty() {
            output
        } else {
            format!("[daemon] {output}")
        }
    }
}

pub struct Bridge {
    queries: Queries,
}

#[async_trait]
impl ServerHandler for Bridge {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, CallToolError> {
        let args = params.arguments.clone().unwrap_or_default();
        let queries = &self.queries;
        let response = match params.name.as_str() {
            "status" => queries.status().await,
            "rule" => {
                let rule_id = args.get("rule_id").and_then(|v| v.as_str());
                match rule_id {
                    Some(id) => queries.rule(id).await,
                    None => queries.with_banner("Error: rule_id is required".to_string()), //~ failure_as_success
                }
            }
            "uptime" => queries.uptime().await,
            other => queries.with_banner(format!("Unknown tool: {other}")), //~ unknown_tool_as_tool_error
        };
        Ok(CallToolResult::text_content(vec![response.into()]).into())
    }
}

/// The CLI prints the same text: no tool answers with it here.
pub async fn print_status(queries: &Queries) {
    let text = match queries.daemon.fetch_status().await {
        Ok(status) => status,
        Err(e) => format!("Error: {e:?}"),
    };
    println!("{text}");
}
