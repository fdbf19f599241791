//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
// pmcp 2.x's `server::traits::ToolHandler` (part of `RequestHandler`) is handed the whole
// `CallToolRequest`, name and arguments: its `call_tool` is a dispatcher, not one tool. Its
// fallback arm, or the miss of its registry lookup by the name, answers the unknown tool; pmcp
// sends any `Err` from it as -32603, so `Error::method_not_found(..)` or `Error::internal(..)`
// there is MCP011, and an isError or success result MCP007. A named arm's failure is that
// tool's.
use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use pmcp::types::{CallToolRequest, CallToolResult, Content};
use pmcp::{Error, RequestHandlerExtra, ToolHandler};

pub struct PluginHost {
    plugins: HashMap<String, Arc<dyn ToolHandler>>,
}

#[async_trait]
impl pmcp::server::traits::ToolHandler for PluginHost {
    async fn call_tool(&self, req: CallToolRequest) -> pmcp::Result<CallToolResult> {
        let Some(plugin) = self.plugins.get(&req.name) else {
            return Err(Error::internal(format!("Tool '{}' not found", req.name))); //~ unknown_tool_wrong_code
        };
        let value = plugin.handle(req.arguments, RequestHandlerExtra::default()).await?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::new(vec![Content::text(value.to_string())]))
    }
}

pub struct Clock;

#[async_trait]
impl pmcp::server::traits::ToolHandler for Clock {
    async fn call_tool(&self, req: CallToolRequest) -> pmcp::Result<CallToolResult> {
        match req.name.as_str() {
            "now" => Ok(CallToolResult::new(vec![Content::text("12:00")])),
            "sleep" => {
                let secs = req.arguments.get("secs").and_then(|v| v.as_u64()).unwrap_or(0);
                if secs > 60 {
                    // The tool's own failure, answered as an isError result: right.
                    return Err(Error::tool_rejected(
                        format!("secs {secs} is over 60; sleep at most 60 s"),
                        None,
                    ));
                }
                Ok(CallToolResult::new(vec![Content::text(format!("slept {secs} s"))]))
            }
            other => Err(Error::method_not_found(format!("tools/call {other}"))), //~ unknown_tool_wrong_code
        }
    }
}

pub struct LenientClock;

#[async_trait]
impl pmcp::server::traits::ToolHandler for LenientClock {
    async fn call_tool(&self, req: CallToolRequest) -> pmcp::Result<CallToolResult> {
        match req.name.as_str() {
            "now" => Ok(CallToolResult::new(vec![Content::text("12:00")])),
            other => Ok(CallToolResult::error(vec![Content::text(format!("no tool named {other}"))])), //~ unknown_tool_as_tool_error
        }
    }
}
