//! Tool argument structs (`#[mcp_tool]`) and the tools that report through `CallToolError`.

use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{CallToolResult, TextContent};
use rust_mcp_sdk::tool_box;

use crate::api::{ApiError, StatusApi};

pub const STATUSES: [&str; 4] = ["investigating", "identified", "monitoring", "resolved"];

#[mcp_tool(
    name = "list_incidents",
    description = "List incidents of the status page, newest first",
    read_only_hint = true
)]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct ListIncidentsTool {
    /// Only incidents that are not resolved yet
    pub unresolved_only: Option<bool>,
}

impl ListIncidentsTool {
    pub async fn call_tool(&self, api: &StatusApi) -> Result<CallToolResult, CallToolError> {
        let incidents = api
            .incidents(self.unresolved_only.unwrap_or(true))
            .await
            .map_err(CallToolError::new)?;
        if incidents.is_empty() {
            return Ok(CallToolResult::text_content(vec![TextContent::from(
                "no incidents match".to_string(),
            )]));
        }
        let lines: Vec<String> = incidents
            .iter()
            .map(|i| format!("{} [{}] {} ({})", i.id, i.status, i.name, i.impact))
            .collect();
        Ok(CallToolResult::text_content(vec![TextContent::from(lines.join("\n"))]))
    }
}

#[mcp_tool(name = "get_incident", description = "Show one incident by id", read_only_hint = true)]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct GetIncidentTool {
    pub incident_id: String,
}

#[mcp_tool(
    name = "create_incident",
    description = "Open a new incident on the status page",
    destructive_hint = false
)]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct CreateIncidentTool {
    pub name: String,
    /// One of investigating, identified, monitoring, resolved
    pub status: String,
    pub body: String,
    #[serde(default)]
    pub component_ids: Vec<String>,
}

#[mcp_tool(name = "update_incident_status", description = "Move an incident to a new status")]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct UpdateStatusTool {
    pub incident_id: String,
    pub status: String,
    pub message: String,
}

impl UpdateStatusTool {
    pub async fn call_tool(&self, api: &StatusApi) -> Result<CallToolResult, CallToolError> {
        if !STATUSES.contains(&self.status.as_str()) {
            return Err(CallToolError::from_message(format!(
                "status must be one of {}; got `{}`",
                STATUSES.join(", "),
                self.status
            )));
        }
        match api
            .update_status(&self.incident_id, &self.status, &self.message)
            .await
        {
            Ok(incident) => Ok(CallToolResult::text_content(vec![TextContent::from(format!(
                "incident {} is now {}",
                incident.id, incident.status
            ))])),
            Err(ApiError::NotFound(_)) => Err(CallToolError::from_message(
                "Operation failed. Please try again.",
            )),
            Err(e) => Err(CallToolError::new(e)),
        }
    }
}

#[mcp_tool(
    name = "component_status",
    description = "Current status of a component, by name",
    read_only_hint = true
)]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct ComponentStatusTool {
    pub component: String,
}

impl ComponentStatusTool {
    pub async fn call_tool(&self, api: &StatusApi) -> Result<CallToolResult, CallToolError> {
        let components = api.components().await.map_err(CallToolError::new)?;
        let Some(found) = components
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(&self.component))
        else {
            let names: Vec<&str> = components.iter().map(|c| c.name.as_str()).collect();
            return Err(CallToolError::from_message(format!(
                "no component named `{}`; known components: {}",
                self.component,
                names.join(", ")
            )));
        };
        Ok(CallToolResult::text_content(vec![TextContent::from(format!(
            "{}: {}",
            found.name, found.status
        ))]))
    }
}

tool_box!(
    StatusTools,
    [
        ListIncidentsTool,
        GetIncidentTool,
        CreateIncidentTool,
        UpdateStatusTool,
        ComponentStatusTool
    ]
);
