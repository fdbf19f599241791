//! Prompts for harbour planners.

use rmcp::{
    ErrorData as McpError,
    handler::server::wrapper::Parameters,
    model::{PromptMessage, PromptMessageRole},
    prompt, prompt_router,
    schemars::{self, JsonSchema},
};
use serde::Deserialize;

use crate::server::QuayLog;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BriefingArgs {
    /// Berth code to brief on.
    pub berth: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ChecklistArgs {
    /// Vessel call id.
    pub call_id: String,
}

#[prompt_router]
impl QuayLog {
    #[prompt(name = "berth_briefing", description = "Brief the shift planner on one berth's upcoming calls")]
    async fn berth_briefing(
        &self,
        Parameters(args): Parameters<BriefingArgs>,
    ) -> Result<Vec<PromptMessage>, McpError> {
        let berth = self.store.berth(&args.berth)?;
        let plan = self.store.berth_plan(&berth.code)?;
        let mut text = format!(
            "Berth {} on quay {} ({} m, max draft {} m){}.\nUpcoming calls:\n",
            berth.code,
            berth.quay,
            berth.length_m,
            berth.max_draft_m,
            if berth.closed { " is CLOSED" } else { "" }
        );
        for call in plan {
            text.push_str(&format!(
                "- {} {} {}..{} draft {} m [{}]\n",
                call.id, call.vessel_name, call.eta, call.etd, call.draft_m, call.status
            ));
        }
        text.push_str("Summarise the risks for the next 24 hours.");
        Ok(vec![PromptMessage::new_text(PromptMessageRole::User, text)])
    }

    #[prompt(name = "arrival_checklist", description = "Checklist for a vessel's arrival")]
    async fn arrival_checklist(
        &self,
        Parameters(args): Parameters<ChecklistArgs>,
    ) -> Result<Vec<PromptMessage>, McpError> {
        let Some(call) = self.store.get_call(&args.call_id)? else {
            return Err(McpError::invalid_params(
                format!("vessel call {} not found", args.call_id),
                None,
            ));
        };
        let manifest = self.store.manifest_summary(&call.id)?;
        Ok(vec![PromptMessage::new_text(
            PromptMessageRole::User,
            format!(
                "Prepare the arrival checklist for {} (IMO {}) at berth {}, ETA {}. \
                 Manifest: {} lines, {} t, {} dangerous-goods lines.",
                call.vessel_name,
                call.imo,
                call.berth,
                call.eta,
                manifest.lines,
                manifest.total_tonnes,
                manifest.dangerous_lines
            ),
        )])
    }
}
