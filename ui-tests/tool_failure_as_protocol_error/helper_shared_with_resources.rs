//@ rmcp = "1.8"
// When an error-building helper is also used outside tool context (here by `read_resource`,
// where a protocol error is right), the helper itself is fine and each tool's call site is
// reported instead: the `.map_err(helper)` call, or the `?` that goes through the From impl.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, Content, ReadResourceRequestParams, ReadResourceResult, ResourceContents,
        ServerCapabilities, ServerInfo,
    },
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;
use sqlx::PgPool;

#[derive(Debug)]
pub struct DbError(sqlx::Error);

impl From<sqlx::Error> for DbError {
    fn from(e: sqlx::Error) -> Self {
        DbError(e)
    }
}

impl From<DbError> for McpError {
    fn from(e: DbError) -> Self {
        McpError::internal_error(format!("database: {}", e.0), None)
    }
}

fn internal(e: impl std::fmt::Display) -> McpError {
    McpError::internal_error(e.to_string(), None)
}

async fn fetch_title(pool: &PgPool, id: i64) -> Result<String, DbError> {
    Ok(sqlx::query_scalar("SELECT title FROM tickets WHERE id = $1").bind(id).fetch_one(pool).await?)
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct TicketArgs {
    pub id: i64,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ExportArgs {
    pub id: i64,
    pub path: String,
}

#[derive(Clone)]
pub struct Tickets {
    pool: PgPool,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Tickets {
    pub fn new(pool: PgPool) -> Self {
        Self { pool, tool_router: Self::tool_router() }
    }

    #[tool(description = "Show a ticket's title")]
    async fn title(&self, Parameters(TicketArgs { id }): Parameters<TicketArgs>) -> Result<CallToolResult, McpError> {
        let title = fetch_title(&self.pool, id).await?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(title)]))
    }

    #[tool(description = "Write a ticket's title to a file")]
    async fn export(&self, Parameters(ExportArgs { id, path }): Parameters<ExportArgs>) -> Result<CallToolResult, McpError> {
        let title = fetch_title(&self.pool, id).await?; //~ tool_failure_as_protocol_error
        tokio::fs::write(&path, title).await.map_err(internal)?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(format!("wrote {path}"))]))
    }
}

#[tool_handler]
impl ServerHandler for Tickets {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let id: i64 = request.uri.trim_start_matches("ticket://").parse().map_err(internal)?;
        let title = fetch_title(&self.pool, id).await?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(title, request.uri)]))
    }
}
