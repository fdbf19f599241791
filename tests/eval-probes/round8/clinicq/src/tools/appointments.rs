use super::{parse_start, text};
use crate::error::{tool_error, ClinicError};
use crate::service::SchedulingService;
use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::schema::{schema_utils::CallToolError, CallToolResult, RpcError};
use serde::{Deserialize, Serialize};

#[mcp_tool(
    name = "book_appointment",
    description = "Book an appointment for a patient with a provider. start is 'YYYY-MM-DD HH:MM' local time.",
    destructive_hint = false,
    idempotent_hint = false
)]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct BookAppointmentTool {
    pub patient_id: String,
    pub provider: String,
    pub start: String,
    pub reason: String,
}

impl BookAppointmentTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        if self.reason.trim().len() < 3 {
            return Err(CallToolError::invalid_arguments(
                "book_appointment",
                Some("reason must describe the visit in a few words, e.g. \"annual check-up\"".into()),
            ));
        }
        let start = parse_start(&self.start)?;
        let appt = svc
            .book(&self.patient_id, &self.provider, start, &self.reason)
            .map_err(tool_error)?;
        Ok(text(format!(
            "Booked {} for patient {} with {} at {}",
            appt.id, appt.patient_id, appt.provider, appt.start
        )))
    }
}

#[mcp_tool(name = "cancel_appointment", description = "Cancel an appointment by its id (apt_...).")]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct CancelAppointmentTool {
    pub appointment_id: String,
}

impl CancelAppointmentTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        match svc.cancel(&self.appointment_id) {
            Ok(appt) => Ok(text(format!("Cancelled {} ({})", appt.id, appt.start))),
            Err(e) => Ok(text(format!(
                "Error: could not cancel {}: {e}",
                self.appointment_id
            ))),
        }
    }
}

#[mcp_tool(name = "get_appointment", description = "Show one appointment by id.", read_only_hint = true)]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct GetAppointmentTool {
    pub appointment_id: String,
}

impl GetAppointmentTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        let found = svc.db.appointment(&self.appointment_id).map_err(CallToolError::new)?;
        match found {
            Some(appt) => {
                let body = serde_json::to_string_pretty(&appt).unwrap();
                Ok(text(body))
            }
            None => Ok(text(format!(
                "No appointment found with id {}",
                self.appointment_id
            ))),
        }
    }
}

#[mcp_tool(
    name = "reschedule_appointment",
    description = "Move an appointment to a new start time ('YYYY-MM-DD HH:MM')."
)]
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct RescheduleAppointmentTool {
    pub appointment_id: String,
    pub new_start: String,
    pub notify_patient: Option<bool>,
}

impl RescheduleAppointmentTool {
    pub fn run(&self, svc: &SchedulingService) -> Result<CallToolResult, CallToolError> {
        let new_start = parse_start(&self.new_start)?;
        let appt = match svc.reschedule(&self.appointment_id, new_start) {
            Ok(appt) => appt,
            Err(ClinicError::SlotTaken { holder, .. }) => {
                return Err(CallToolError::new(RpcError::invalid_params().with_message(format!(
                    "{} is taken by {holder}; call free_slots to pick another time",
                    self.new_start
                ))));
            }
            Err(_) => return Err(CallToolError::from_message("Something went wrong")),
        };
        let notice = if self.notify_patient.unwrap_or(true) {
            " (patient will be notified by SMS)"
        } else {
            ""
        };
        Ok(text(format!("Moved {} to {}{notice}", appt.id, appt.start)))
    }
}
