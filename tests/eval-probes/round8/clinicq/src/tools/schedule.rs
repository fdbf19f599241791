use super::{parse_day, text};
use crate::config::config;
use crate::error::tool_error;
use crate::service::SchedulingService;
use chrono::{Duration, NaiveDate};
use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::schema::{schema_utils::CallToolError, CallToolResult, RpcError};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[mcp_tool(
    name = "free_slots",
    description = "List free appointment slots of a provider on a day (YYYY-MM-DD).",
    read_only_hint = true
)]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct FreeSlotsTool {
    pub provider: String,
    pub day: String,
}

impl FreeSlotsTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        let day = parse_day("day", &self.day)?;
        let slots = svc.free_slots(&self.provider, day).map_err(tool_error)?;
        if slots.is_empty() {
            return Ok(text(format!("{} is fully booked on {day}", self.provider)));
        }
        let times: Vec<String> = slots.iter().map(|t| t.format("%H:%M").to_string()).collect();
        Ok(text(format!("Free on {day} with {}: {}", self.provider, times.join(", "))))
    }
}

#[mcp_tool(name = "day_sheet", description = "All appointments of a day as JSON.", read_only_hint = true)]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct DaySheetTool {
    pub day: String,
}

impl DaySheetTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        let day = parse_day("day", &self.day)?;
        let sheet = svc.day_sheet(day).map_err(tool_error)?;
        Ok(text(sheet))
    }
}

#[mcp_tool(
    name = "export_day",
    description = "Write a day's appointment sheet to the clinic's export folder as JSON."
)]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct ExportDayTool {
    pub day: String,
    pub file_name: Option<String>,
}

impl ExportDayTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        let dir = config()
            .and_then(|c| c.export_dir.clone())
            .ok_or_else(|| {
                CallToolError::from_message("export is not configured on this server (set CLINICQ_EXPORT_DIR)")
            })?;
        let day = parse_day("day", &self.day)?;
        let name = self.file_name.clone().unwrap_or_else(|| format!("day-{day}.json"));
        if name.contains('/') || name.contains("..") {
            return Err(CallToolError::invalid_arguments(
                "export_day",
                Some(format!("file_name {name:?} must be a plain file name without '/' or '..'")),
            ));
        }
        if let Err(e) = std::fs::create_dir_all(&dir) {
            return Ok(text(format!("Failed to create export directory {dir}: {e}")));
        }
        let sheet = svc.day_sheet(day).map_err(tool_error)?;
        let path = PathBuf::from(&dir).join(&name);
        std::fs::write(&path, sheet).map_err(CallToolError::new)?;
        Ok(text(format!("Wrote {}", path.display())))
    }
}

#[mcp_tool(
    name = "bulk_reschedule",
    description = "Move every appointment of a provider from one day to another, keeping the times."
)]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct BulkRescheduleTool {
    pub provider: String,
    pub from_day: String,
    pub to_day: String,
}

impl BulkRescheduleTool {
    /// Served from `handle_call_tool_request_mrtr`: bulk moves will ask for
    /// confirmation through input_required once the front-desk UI supports it.
    pub fn run_bulk(&self, svc: &SchedulingService, max_days: u32) -> Result<CallToolResult, RpcError> {
        let from = NaiveDate::parse_from_str(&self.from_day, "%Y-%m-%d").map_err(|e| {
            RpcError::invalid_params().with_message(format!("from_day {:?}: {e}", self.from_day))
        })?;
        let to = NaiveDate::parse_from_str(&self.to_day, "%Y-%m-%d").map_err(|e| {
            RpcError::invalid_params().with_message(format!("to_day {:?}: {e}", self.to_day))
        })?;
        let gap = (to - from).num_days();
        if gap == 0 || gap.unsigned_abs() > max_days as u64 {
            return Err(RpcError::invalid_params().with_message(format!(
                "to_day must differ from from_day by 1..={max_days} days"
            )));
        }
        let list = svc.db.on_day(from, Some(&self.provider))?;
        let mut moved = Vec::with_capacity(list.len());
        for appt in list {
            let new_start = appt.start + Duration::days(gap);
            let updated = svc.reschedule(&appt.id, new_start)?;
            moved.push(updated.id);
        }
        let body = serde_json::to_string(&moved).map_err(|e| {
            RpcError::internal_error().with_message(format!("encoding moved ids: {e}"))
        })?;
        Ok(text(format!("Moved {} appointments: {body}", moved.len())))
    }
}
