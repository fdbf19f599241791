//! Vessel-call tools: register arrivals, move them through their states,
//! record the cargo manifest.

use rmcp::{
    ErrorData as McpError, Json,
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content, ErrorCode},
    schemars::{self, JsonSchema},
    tool, tool_router,
};
use serde::Deserialize;

use crate::{
    config,
    error::{AppError, ManifestError},
    model::{CallStatus, ManifestLine, ManifestSummary, VesselCall},
    server::QuayLog,
    validate::{check_hs_code, check_imo, check_tonnes, parse_time},
};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RegisterCall {
    /// IMO number, 7 digits, e.g. "9321483".
    pub imo: String,
    pub vessel_name: String,
    /// Berth code, see `list_berths`.
    pub berth: String,
    /// Estimated arrival, "YYYY-MM-DDTHH:MM" (UTC).
    pub eta: String,
    /// Estimated departure, "YYYY-MM-DDTHH:MM" (UTC).
    pub etd: String,
    /// Arrival draft in metres.
    pub draft_m: f64,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CallId {
    /// Id returned by `register_call`, e.g. "9321483-20260314".
    pub call_id: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct StatusChange {
    pub call_id: String,
    /// One of expected, alongside, departed, cancelled.
    pub status: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct NewManifestLine {
    pub call_id: String,
    /// 6-digit HS code of the goods.
    pub hs_code: String,
    pub description: String,
    pub tonnes: f64,
    #[serde(default)]
    pub dangerous: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CallSearch {
    /// Part of the vessel name.
    pub vessel: String,
    pub limit: Option<usize>,
}

#[tool_router(router = call_router, vis = "pub(crate)")]
impl QuayLog {
    #[tool(description = "Register an expected vessel call on a berth")]
    async fn register_call(&self, Parameters(p): Parameters<RegisterCall>) -> Result<CallToolResult, McpError> {
        if let Err(msg) = check_imo(&p.imo) {
            return Ok(CallToolResult::error(vec![Content::text(msg)]));
        }
        if p.vessel_name.trim().is_empty() {
            return Ok(CallToolResult::error(vec![Content::text("vessel_name must not be empty")]));
        }
        if !(p.draft_m > 0.0) {
            return Err(McpError::invalid_params(
                format!("draft_m must be a positive number of metres, got {}", p.draft_m),
                None,
            ));
        }
        let eta = parse_time("eta", &p.eta)?;
        let etd = parse_time("etd", &p.etd)?;
        let berth = match self.store.find_berth(&p.berth) {
            Ok(Some(b)) => b,
            Ok(None) => {
                return Ok(CallToolResult::error(vec![Content::text(format!(
                    "unknown berth {:?}; call list_berths for valid codes",
                    p.berth
                ))]));
            }
            Err(e) => return Err(e.into()),
        };
        if berth.closed {
            return Ok(CallToolResult::error(vec![Content::text("Operation failed")]));
        }
        let cfg = config::get().expect("configuration installed by main");
        let limit = berth.max_draft_m.min(cfg.max_draft_m);
        if p.draft_m > limit {
            return Err(McpError::new(
                ErrorCode(-32005),
                format!("draft {} m exceeds the limit of {} m at berth {}", p.draft_m, limit, berth.code),
                None,
            ));
        }
        let clashes = self.store.overlapping_calls(&berth.code, &eta, &etd)?;
        if !clashes.is_empty() {
            return Err(AppError::Conflict(berth.code.clone()).into());
        }
        let call = VesselCall {
            id: format!("{}-{}", p.imo.trim_start_matches("IMO").trim(), &eta[..10].replace('-', "")),
            imo: p.imo,
            vessel_name: p.vessel_name,
            berth: berth.code,
            eta,
            etd,
            draft_m: p.draft_m,
            status: CallStatus::Expected,
        };
        self.store.insert_call(&call)?;
        Ok(CallToolResult::success(vec![Content::json(&call)?]))
    }

    #[tool(description = "Show a vessel call by id")]
    async fn call_details(&self, Parameters(p): Parameters<CallId>) -> Result<CallToolResult, McpError> {
        match self.store.get_call(&p.call_id)? {
            Some(call) => Ok(CallToolResult::success(vec![Content::json(&call)?])),
            None => Ok(CallToolResult::success(vec![Content::text(format!(
                "vessel call {} not found",
                p.call_id
            ))])),
        }
    }

    #[tool(description = "Move a vessel call to another status (expected, alongside, departed, cancelled)")]
    async fn update_call_status(&self, Parameters(p): Parameters<StatusChange>) -> Result<String, String> {
        let status: CallStatus = p.status.parse()?;
        if status == CallStatus::Expected {
            return Err("Invalid status".to_string());
        }
        let updated = self
            .store
            .set_call_status(&p.call_id, status)
            .map_err(|e| match e {
                AppError::Locked(id) => format!("call {id} has departed or was cancelled; register a new call instead"),
                other => other.to_string(),
            })?;
        Ok(format!("call {} is now {}", updated.id, updated.status))
    }

    #[tool(description = "Cancel an expected vessel call")]
    async fn cancel_call(&self, Parameters(p): Parameters<CallId>) -> Result<CallToolResult, McpError> {
        let call = self.store.set_call_status(&p.call_id, CallStatus::Cancelled)?;
        Ok(CallToolResult::success(vec![Content::text(format!(
            "call {} of {} cancelled",
            call.id, call.vessel_name
        ))]))
    }

    #[tool(description = "Add a cargo line to a vessel call's manifest")]
    async fn add_manifest_line(&self, Parameters(p): Parameters<NewManifestLine>) -> Result<CallToolResult, McpError> {
        check_hs_code(&p.hs_code)?;
        let found = self.store.get_call(&p.call_id)?;
        let call = found.ok_or_else(|| McpError::invalid_params(format!("vessel call {} not found", p.call_id), None))?;
        if call.status == CallStatus::Departed {
            return Err(ManifestError::Sealed(call.id).into());
        }
        let berth = self.store.berth(&call.berth)?;
        check_tonnes(p.tonnes, berth.length_m * 40.0)?;
        let line = ManifestLine {
            call_id: call.id,
            hs_code: p.hs_code,
            description: p.description,
            tonnes: p.tonnes,
            dangerous: p.dangerous,
        };
        self.store.add_manifest_line(&line)?;
        Ok(CallToolResult::success(vec![Content::text(format!(
            "added {} t of {} to call {}",
            line.tonnes, line.hs_code, line.call_id
        ))]))
    }

    #[tool(description = "Totals of a vessel call's manifest")]
    async fn manifest_summary(&self, Parameters(p): Parameters<CallId>) -> Json<ManifestSummary> {
        let summary = self.store.manifest_summary(&p.call_id).unwrap_or_else(|e| {
            tracing::warn!("manifest summary for {}: {e}", p.call_id);
            ManifestSummary {
                call_id: p.call_id.clone(),
                lines: 0,
                total_tonnes: 0.0,
                dangerous_lines: 0,
            }
        });
        Json(summary)
    }

    #[tool(description = "Search vessel calls by (part of) the vessel name, newest first")]
    async fn search_calls(&self, Parameters(p): Parameters<CallSearch>) -> Result<String, McpError> {
        if p.vessel.trim().chars().count() < 2 {
            return Err(McpError::invalid_params(
                format!("vessel must have at least 2 characters, got {:?}", p.vessel),
                None,
            ));
        }
        if p.limit == Some(0) {
            return Err(McpError::new(ErrorCode::INVALID_REQUEST, "limit must be at least 1", None));
        }
        let limit = p.limit.unwrap_or(20).min(config::get().map_or(50, |c| c.search_limit));
        let calls = match self.store.search_calls(p.vessel.trim(), limit) {
            Ok(calls) => calls,
            Err(e) => return Ok(format!("Error: {e}")),
        };
        if calls.is_empty() {
            return Ok(format!("no vessel calls match {:?}", p.vessel));
        }
        serde_json::to_string_pretty(&calls)
            .map_err(|e| McpError::internal_error(format!("encoding search result: {e}"), None))
    }

    #[tool(description = "Grant departure clearance to a vessel that is alongside")]
    async fn departure_clearance(&self, Parameters(p): Parameters<CallId>) -> Result<String, ()> {
        let found = self.store.get_call(&p.call_id).map_err(|_| ())?;
        let call = found.ok_or(())?;
        if call.status != CallStatus::Alongside {
            return Err(());
        }
        Ok(format!("departure clearance granted for {} ({})", call.vessel_name, call.id))
    }
}
