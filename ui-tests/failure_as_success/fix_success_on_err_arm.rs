//@ rmcp = "2.2"
// A success result on a failure path becomes an isError result with the same content:
// `success` → `error`, `structured` → `structured_error`. In an `Err(e) =>` arm or a closure
// that receives the error the fix is MachineApplicable.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Lookup {
    pub host: String,
}

pub struct Dns;

#[tool_router]
impl Dns {
    #[tool(description = "Resolve a host name")]
    async fn resolve(&self, Parameters(Lookup { host }): Parameters<Lookup>) -> Result<CallToolResult, McpError> {
        match tokio::net::lookup_host((host.as_str(), 0)).await {
            Ok(addrs) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("{:?}", addrs.collect::<Vec<_>>()))])),
            Err(e) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("cannot resolve {host}: {e}"))])), //~ failure_as_success
        }
    }

    #[tool(description = "Resolve a host name, as JSON")]
    async fn resolve_json(&self, Parameters(Lookup { host }): Parameters<Lookup>) -> Result<CallToolResult, McpError> {
        let result = tokio::net::lookup_host((host.as_str(), 0))
            .await
            .map(|addrs| CallToolResult::structured(serde_json::json!({ "addresses": addrs.map(|a| a.to_string()).collect::<Vec<_>>() })))
            .unwrap_or_else(|e| CallToolResult::structured(serde_json::json!({ "error": e.to_string(), "host": host }))); //~ failure_as_success
        Ok(result)
    }
}
