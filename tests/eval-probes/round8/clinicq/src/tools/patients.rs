use super::text;
use crate::db::Status;
use crate::error::ClinicError;
use crate::service::SchedulingService;
use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::schema::{schema_utils::CallToolError, CallToolResult};
use serde::{Deserialize, Serialize};
use serde_json::json;

const MAX_NOTE_LEN: usize = 2000;

#[mcp_tool(
    name = "find_patient",
    description = "Search patients by (part of) name or exact patient id.",
    read_only_hint = true
)]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct FindPatientTool {
    pub query: String,
    pub limit: Option<u32>,
}

impl FindPatientTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        if self.query.trim().len() < 2 {
            return Err(CallToolError::from_message(format!(
                "query {:?} is too short: give at least 2 characters of the name or a patient id",
                self.query
            )));
        }
        let limit = self.limit.unwrap_or(10).min(50) as usize;
        let hits = svc.db.search_patients(&self.query).map_err(CallToolError::new)?;
        if hits.is_empty() {
            return Ok(text(format!("No patients match {:?}", self.query)));
        }
        let lines: Vec<String> = hits
            .iter()
            .take(limit)
            .map(|p| format!("{}  {}  born {}", p.id, p.name, p.date_of_birth))
            .collect();
        Ok(text(lines.join("\n")))
    }
}

#[mcp_tool(name = "get_patient", description = "Show a patient's record by id.", read_only_hint = true)]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct GetPatientTool {
    pub patient_id: String,
}

impl GetPatientTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        let patient = svc.patient(&self.patient_id).map_err(CallToolError::new)?;
        let body = serde_json::to_string_pretty(&patient).map_err(CallToolError::new)?;
        Ok(text(body))
    }
}

#[mcp_tool(name = "add_patient_note", description = "Append a front-desk note to a patient's record.")]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct AddPatientNoteTool {
    pub patient_id: String,
    pub note: String,
}

impl AddPatientNoteTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        if self.note.trim().is_empty() {
            return Err(CallToolError::from_message(""));
        }
        if self.note.len() > MAX_NOTE_LEN {
            return Err(CallToolError::from_message(format!(
                "note is {} characters; the limit is {MAX_NOTE_LEN}",
                self.note.len()
            )));
        }
        let added = svc
            .db
            .add_note(&self.patient_id, self.note.clone())
            .map_err(|e| CallToolError::from_message(format!("could not save note: {e}")))?;
        match added {
            Some(count) => Ok(text(format!("Note saved ({count} notes on file)"))),
            None => Ok(text(
                json!({"error": "patient_not_found", "patient_id": self.patient_id}).to_string(),
            )),
        }
    }
}

#[mcp_tool(name = "check_in", description = "Mark today's appointment of a patient as checked in.")]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct CheckInTool {
    pub patient_id: String,
}

impl CheckInTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        let Some(patient) = svc.db.patient(&self.patient_id) else {
            return Ok(text(format!("patient {} not found, nothing to check in", self.patient_id)));
        };
        if let Some(reason) = &patient.blocked_reason {
            return Err(CallToolError::new(ClinicError::PatientBlocked(
                patient.id.clone(),
                reason.clone(),
            )));
        }
        let today = svc.today();
        let todays = svc.db.on_day(today, None).map_err(CallToolError::new)?;
        let Some(appt) = todays.into_iter().find(|a| a.patient_id == patient.id) else {
            return Err(CallToolError::from_message(format!(
                "{} has no appointment today ({today}); book one with book_appointment",
                patient.name
            )));
        };
        if appt.status == Status::CheckedIn {
            return Err(CallToolError::from_message("Operation failed"));
        }
        svc.db
            .set_status(&appt.id, Status::CheckedIn)
            .map_err(CallToolError::new)?;
        Ok(text(format!("{} checked in for {} with {}", patient.name, appt.start, appt.provider)))
    }
}
