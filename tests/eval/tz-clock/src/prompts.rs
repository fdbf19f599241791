//! One prompt: plan a meeting across zones.

use rmcp::model::{GetPromptResult, Prompt, PromptArgument, PromptMessage, PromptMessageRole};
use serde_json::Map;

use crate::McpError;

pub fn list() -> Vec<Prompt> {
    vec![Prompt::new(
        "plan_meeting",
        Some("Plan a meeting for people in several time zones"),
        Some(vec![PromptArgument {
            name: "zones".into(),
            title: None,
            description: Some("Comma-separated IANA time zones".into()),
            required: Some(true),
        }]),
    )]
}

pub fn get(
    name: &str,
    arguments: Option<Map<String, serde_json::Value>>,
) -> Result<GetPromptResult, McpError> {
    if name != "plan_meeting" {
        return Err(McpError::invalid_params(
            format!("unknown prompt {name:?}; available: plan_meeting"),
            None,
        ));
    }
    let zones = arguments
        .as_ref()
        .and_then(|a| a.get("zones"))
        .and_then(|v| v.as_str())
        .ok_or_else(|| {
            McpError::invalid_params("plan_meeting requires the 'zones' argument", None)
        })?;
    Ok(GetPromptResult {
        description: Some("Meeting planner".into()),
        messages: vec![PromptMessage::new_text(
            PromptMessageRole::User,
            format!(
                "Use the overlap tool for these zones: {zones}. Then propose two meeting slots."
            ),
        )],
    })
}
