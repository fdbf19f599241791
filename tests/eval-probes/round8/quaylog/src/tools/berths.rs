//! Berth tools: what berths exist, whether they are open, when they are free.

use std::fmt::Write as _;

use rmcp::{
    ErrorData as McpError, Json,
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    schemars::{self, JsonSchema},
    tool, tool_router,
};
use serde::{Deserialize, Serialize};

use crate::{
    config,
    error::export_failed,
    server::QuayLog,
    validate::parse_time,
};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BerthCode {
    /// Berth code as printed on the quay, e.g. "K1204".
    pub code: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CloseBerth {
    pub code: String,
    /// Why the berth is closed (dredging, crane repair, ...). Shown to planners.
    pub reason: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct AvailabilityQuery {
    pub code: String,
    /// Start of the window, "YYYY-MM-DDTHH:MM" (UTC).
    pub from: String,
    /// End of the window, "YYYY-MM-DDTHH:MM" (UTC).
    pub to: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Availability {
    pub code: String,
    pub free: bool,
    pub closed: bool,
    pub clashing_calls: Vec<String>,
}

#[tool_router(router = berth_router, vis = "pub(crate)")]
impl QuayLog {
    #[tool(description = "List every berth of the harbour with its length, depth and whether it is closed")]
    async fn list_berths(&self) -> Result<CallToolResult, McpError> {
        let berths = self.store.list_berths()?;
        Ok(CallToolResult::success(vec![Content::json(&berths)?]))
    }

    #[tool(description = "Show one berth: quay, length, max draft and closure")]
    async fn berth_status(&self, Parameters(p): Parameters<BerthCode>) -> Result<String, String> {
        let found = self
            .store
            .find_berth(&p.code)
            .map_err(|e| format!("cannot read berth {}: {e}", p.code))?;
        match found {
            Some(berth) => Ok(serde_json::to_string_pretty(&berth).unwrap()),
            None => Ok(format!("Berth {} not found", p.code)),
        }
    }

    #[tool(description = "Close a berth for maintenance; new calls cannot be registered on it")]
    async fn close_berth(&self, Parameters(p): Parameters<CloseBerth>) -> Result<CallToolResult, McpError> {
        if p.reason.trim().is_empty() {
            return Err(McpError::invalid_params(
                "reason must say why the berth is closed, e.g. \"crane 4 repair\"",
                None,
            ));
        }
        if p.reason.len() > 200 {
            return Ok(CallToolResult::error(vec![]));
        }
        self.store.set_berth_closed(&p.code, true, Some(p.reason.trim()))?;
        Ok(CallToolResult::success(vec![Content::text(format!(
            "berth {} closed: {}",
            p.code, p.reason
        ))]))
    }

    #[tool(description = "Reopen a closed berth")]
    async fn reopen_berth(&self, Parameters(p): Parameters<BerthCode>) -> Result<String, String> {
        self.store
            .set_berth_closed(&p.code, false, None)
            .map_err(|e| format!("cannot reopen berth {}: {e}", p.code))?;
        Ok(format!("berth {} is open again", p.code))
    }

    #[tool(description = "Check whether a berth is free between two times")]
    async fn berth_availability(
        &self,
        Parameters(p): Parameters<AvailabilityQuery>,
    ) -> Result<Json<Availability>, McpError> {
        let from = parse_time("from", &p.from)?;
        let to = parse_time("to", &p.to)?;
        if to <= from {
            return Err(McpError::invalid_params(
                format!("`to` ({}) must be after `from` ({})", p.to, p.from),
                None,
            ));
        }
        let berth = self.store.berth(&p.code)?;
        let clashing_calls = self.store.overlapping_calls(&berth.code, &from, &to)?;
        Ok(Json(Availability {
            free: !berth.closed && clashing_calls.is_empty(),
            closed: berth.closed,
            code: berth.code,
            clashing_calls,
        }))
    }

    #[tool(description = "Write the berth's plan of calls as CSV into the export directory")]
    async fn export_berth_plan(&self, Parameters(p): Parameters<BerthCode>) -> Result<CallToolResult, McpError> {
        let cfg = config::get()
            .ok_or_else(|| McpError::internal_error("quaylog configuration is not loaded", None))?;
        let Some(dir) = cfg.export_dir.as_ref() else {
            return Err(McpError::invalid_request(
                "berth plan export is disabled on this server (QUAYLOG_EXPORT_DIR is unset)",
                None,
            ));
        };
        let plan = self.store.berth_plan(&p.code)?;
        let mut csv = String::from("id,imo,vessel,eta,etd,status\n");
        for call in &plan {
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{}",
                call.id, call.imo, call.vessel_name, call.eta, call.etd, call.status
            );
        }
        std::fs::create_dir_all(dir).map_err(export_failed)?;
        let path = dir.join(format!("{}-{}.csv", cfg.harbour, p.code));
        std::fs::write(&path, csv).map_err(export_failed)?;
        Ok(CallToolResult::success(vec![Content::text(format!(
            "wrote {} calls to {}",
            plan.len(),
            path.display()
        ))]))
    }
}
