//@ rmcp = "1.8"
// -32602 used inside `#[tool]` fns to reject argument values: a range, an enum, a format, a
// cross-field rule, and "not found" for a name the model gave. Since 2025-11-25 (SEP-1303) these
// are tool execution errors; the span is the `invalid_params(..)` / `McpError::new(..)` call.
use chrono::NaiveDate;
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content, ErrorCode},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct BookArgs {
    /// Departure date, YYYY-MM-DD.
    pub depart: String,
    /// Return date, YYYY-MM-DD.
    pub return_date: String,
    pub passengers: u32,
    /// One of economy, business, first.
    pub cabin: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ProjectArgs {
    pub project: String,
}

#[derive(Clone)]
pub struct Travel {
    projects: std::sync::Arc<Vec<String>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Travel {
    #[tool(description = "Book a flight")]
    async fn book(&self, Parameters(args): Parameters<BookArgs>) -> Result<CallToolResult, McpError> {
        if !(1..=9).contains(&args.passengers) {
            return Err(McpError::invalid_params(format!("passengers must be 1-9, got {}", args.passengers), None)); //~ tool_input_as_invalid_params
        }
        if !["economy", "business", "first"].contains(&args.cabin.as_str()) {
            return Err(McpError::new( //~ tool_input_as_invalid_params
                ErrorCode::INVALID_PARAMS,
                format!("unknown cabin {}; use economy, business or first", args.cabin),
                None,
            ));
        }
        let depart = NaiveDate::parse_from_str(&args.depart, "%Y-%m-%d")
            .map_err(|e| McpError::invalid_params(format!("depart must be YYYY-MM-DD: {e}"), None))?; //~ tool_input_as_invalid_params
        let back = NaiveDate::parse_from_str(&args.return_date, "%Y-%m-%d")
            .map_err(|e| McpError::new(ErrorCode(-32602), format!("return_date must be YYYY-MM-DD: {e}"), None))?; //~ tool_input_as_invalid_params
        if back < depart {
            return Err(McpError::invalid_params( //~ tool_input_as_invalid_params
                format!("return_date {back} is before depart {depart}"),
                Some(serde_json::json!({ "depart": args.depart, "return_date": args.return_date })),
            ));
        }
        Ok(CallToolResult::success(vec![Content::text(format!("booked {} seats", args.passengers))]))
    }

    #[tool(description = "Open a project by name")]
    async fn open_project(&self, Parameters(ProjectArgs { project }): Parameters<ProjectArgs>) -> Result<CallToolResult, McpError> {
        if !self.projects.contains(&project) {
            return Err(McpError::invalid_params(format!("project {project} not found"), None)); //~ tool_input_as_invalid_params
        }
        Ok(CallToolResult::success(vec![Content::text(format!("opened {project}"))]))
    }
}

#[tool_handler]
impl ServerHandler for Travel {}
