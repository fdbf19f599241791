//@ rmcp = "1.8"
// rmcp 0.6-1.x macro tools (`ErrorData as McpError`, `Content::text`): the tool's own failures
// (I/O on a path the model gave, an upstream HTTP error, a bad query the model wrote, a business
// rule) sent as JSON-RPC errors. Each finding starts where the error-building expression starts.
use std::path::PathBuf;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content, ErrorCode, ServerCapabilities, ServerInfo},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;
use sqlx::SqlitePool;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ReadFileArgs {
    /// Path relative to the workspace root.
    pub path: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ForecastArgs {
    pub city: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct QueryArgs {
    /// A read-only SQL query.
    pub sql: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct TransferArgs {
    pub from: String,
    pub to: String,
    pub cents: u64,
}

#[derive(Clone)]
pub struct Workspace {
    root: PathBuf,
    http: reqwest::Client,
    db: SqlitePool,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Workspace {
    pub fn new(root: PathBuf, db: SqlitePool) -> Self {
        Self {
            root,
            http: reqwest::Client::new(),
            db,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Read a UTF-8 file from the workspace")]
    async fn read_file(
        &self,
        Parameters(ReadFileArgs { path }): Parameters<ReadFileArgs>,
    ) -> Result<CallToolResult, McpError> {
        let text = tokio::fs::read_to_string(self.root.join(&path))
            .await
            .map_err(|e| McpError::internal_error(format!("cannot read {path}: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Weather forecast for a city")]
    async fn forecast(
        &self,
        Parameters(ForecastArgs { city }): Parameters<ForecastArgs>,
    ) -> Result<CallToolResult, McpError> {
        let response = self
            .http
            .get("https://api.weather.example/v1/forecast")
            .query(&[("city", city.as_str())])
            .send()
            .await
            .map_err(|e| {
                // The finding starts at the constructor, not at the `.map_err` or the closure.
                McpError::internal_error( //~ tool_failure_as_protocol_error
                    format!("weather API unreachable: {e}"),
                    Some(serde_json::json!({ "city": city })),
                )
            })?;
        if !response.status().is_success() {
            return Err(McpError::new( //~ tool_failure_as_protocol_error
                ErrorCode::INTERNAL_ERROR,
                format!("weather API answered {} for {city}", response.status()),
                None,
            ));
        }
        let body = response.text().await.map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(body)]))
    }

    #[tool(description = "Run a read-only SQL query")]
    async fn query(&self, Parameters(QueryArgs { sql }): Parameters<QueryArgs>) -> Result<CallToolResult, McpError> {
        let rows: Vec<(String,)> = sqlx::query_as(&sql)
            .fetch_all(&self.db)
            .await
            .map_err(|e| McpError::internal_error(format!("query failed: {e}"), None))?; //~ tool_failure_as_protocol_error
        let lines: Vec<String> = rows.into_iter().map(|(row,)| row).collect();
        Ok(CallToolResult::success(vec![Content::text(lines.join("\n"))]))
    }

    #[tool(description = "Move money between two accounts")]
    async fn transfer(
        &self,
        Parameters(TransferArgs { from, to, cents }): Parameters<TransferArgs>,
    ) -> Result<CallToolResult, McpError> {
        if from == to {
            // A business rule the model can fix: -32600 is as wrong as -32603 here.
            return Err(McpError::invalid_request("cannot transfer to the same account", None)); //~ tool_failure_as_protocol_error
        }
        let balance: i64 = sqlx::query_scalar("SELECT balance FROM accounts WHERE id = ?")
            .bind(&from)
            .fetch_one(&self.db)
            .await
            .map_err(|e| McpError::internal_error(format!("no balance for account {from}: {e}"), None))?; //~ tool_failure_as_protocol_error
        if balance < cents as i64 {
            return Err(McpError::internal_error( //~ tool_failure_as_protocol_error
                format!("insufficient funds: {from} holds {balance} cents, {cents} requested"),
                None,
            ));
        }
        Ok(CallToolResult::success(vec![Content::text(format!("moved {cents} cents from {from} to {to}"))]))
    }
}

#[tool_handler]
impl ServerHandler for Workspace {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
    }
}
