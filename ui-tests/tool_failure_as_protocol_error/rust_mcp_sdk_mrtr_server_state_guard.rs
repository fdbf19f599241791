//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// rust-mcp-sdk 2.x: `handle_call_tool_request_mrtr` is handed the request and picks the tool. A
// test of the server's own state first (`if self.maintenance.load(Ordering::Relaxed)`, given
// nothing from the request) is the server not serving the call: a JSON-RPC error is right there.
// A refusal of the value the tool was given is the tool's failure.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::ServerHandler,
    schema::{CallToolRequestParams, CallToolResult, RpcError, ServerResult, TextContent},
    McpServer, RequestContext,
};

pub struct Clinic {
    maintenance: AtomicBool,
}

#[async_trait]
impl ServerHandler for Clinic {
    async fn handle_call_tool_request_mrtr(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        if self.maintenance.load(Ordering::Relaxed) {
            return Err(RpcError::internal_error()
                .with_message("clinicq is read-only while the nightly sync runs; retry in a few minutes"));
        }
        match params.name.as_str() {
            "book_slot" => {
                let minutes = params
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("minutes"))
                    .and_then(|v| v.as_u64())
                    .unwrap_or(15);
                if minutes > 120 {
                    return Err(RpcError::internal_error() //~ tool_failure_as_protocol_error
                        .with_message(format!("a slot lasts at most 120 minutes, not {minutes}")));
                }
                Ok(CallToolResult::text_content(vec![TextContent::from(format!("booked {minutes} minutes"))]).into())
            }
            other => Err(RpcError::invalid_params().with_message(format!("Unknown tool: {other}"))),
        }
    }
}

fn main() {}
