//@ rmcp = "1.8"
//@ server-fault-marker: acquire_connection
// `server-fault-markers` names extra calls whose failure is the server's own (here a pool
// checkout): the configured one is not reported, the query the model wrote still is.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SqlArgs {
    pub sql: String,
}

#[derive(Clone)]
pub struct Warehouse {
    pool: std::sync::Arc<crate::pool::Pool>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Warehouse {
    #[tool(description = "Run a query against the warehouse")]
    async fn run_query(&self, Parameters(SqlArgs { sql }): Parameters<SqlArgs>) -> Result<CallToolResult, McpError> {
        let conn = self
            .pool
            .acquire_connection()
            .await
            .map_err(|e| McpError::internal_error(format!("connection pool exhausted: {e}"), None))?;
        let rows = conn
            .query(&sql)
            .await
            .map_err(|e| McpError::internal_error(format!("query rejected: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(rows.to_string())]))
    }
}

#[tool_handler]
impl ServerHandler for Warehouse {}
