//@ rmcp = "0.8"
// A check of the server's own state is no rejected argument, also when the state is read
// through a local bound to it (`let guard = self.vars.read().await; guard.as_ref().ok_or_else(..)`,
// "No vars file loaded"): -32602 there is not MCP006. The lookup of the model's `name` in that
// state is (`vars.get(&name)`, fires).
use rmcp::{handler::server::wrapper::Parameters, model::*, tool, tool_router, ErrorData as McpError};
use std::collections::HashMap;
use tokio::sync::RwLock;

pub struct S {
    vars: RwLock<Option<HashMap<String, String>>>,
}

#[tool_router]
impl S {
    #[tool(description = "Expand a variable")]
    async fn expand(&self, Parameters(name): Parameters<String>) -> Result<CallToolResult, McpError> {
        let guard = self.vars.read().await;
        let vars = guard
            .as_ref()
            .ok_or_else(|| McpError::invalid_params("No vars file loaded", None))?;
        let value = vars.get(&name).ok_or_else(|| {
            McpError::invalid_params(format!("Variable not found: {name}"), None) //~ tool_input_as_invalid_params
        })?;
        Ok(CallToolResult::success(vec![Content::text(value.clone())]))
    }
}
