//@ rmcp = "0.8"
// A success result built from the error value outside any `Err` arm: the `unwrap_or_else(|e| ..)`
// closure turns the failure into a success result.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct DnsArgs {
    pub host: String,
}

#[derive(Clone)]
pub struct Net {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Net {
    #[tool(description = "Resolve a host name")]
    async fn resolve(&self, Parameters(DnsArgs { host }): Parameters<DnsArgs>) -> Result<CallToolResult, McpError> {
        let result = tokio::net::lookup_host((host.as_str(), 80))
            .await
            .map(|addrs| {
                let list: Vec<String> = addrs.map(|a| a.ip().to_string()).collect();
                CallToolResult::success(vec![Content::text(list.join("\n"))])
            })
            .unwrap_or_else(|e| CallToolResult::success(vec![Content::text(format!("lookup of {host} failed: {e}"))])); //~ failure_as_success
        Ok(result)
    }
}

#[tool_handler]
impl ServerHandler for Net {}
