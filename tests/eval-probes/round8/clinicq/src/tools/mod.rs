//! Tool definitions. Each tool is a `#[mcp_tool]` struct with a `run` method.

mod appointments;
mod patients;
mod schedule;

pub use appointments::{
    BookAppointmentTool, CancelAppointmentTool, GetAppointmentTool, RescheduleAppointmentTool,
};
pub use patients::{AddPatientNoteTool, CheckInTool, FindPatientTool, GetPatientTool};
pub use schedule::{BulkRescheduleTool, DaySheetTool, ExportDayTool, FreeSlotsTool};

use chrono::{NaiveDate, NaiveDateTime};
use rust_mcp_sdk::schema::{schema_utils::CallToolError, CallToolResult, TextContent};
use rust_mcp_sdk::tool_box;

tool_box!(
    ClinicTools,
    [
        BookAppointmentTool,
        CancelAppointmentTool,
        GetAppointmentTool,
        RescheduleAppointmentTool,
        FindPatientTool,
        GetPatientTool,
        AddPatientNoteTool,
        CheckInTool,
        FreeSlotsTool,
        DaySheetTool,
        ExportDayTool,
        BulkRescheduleTool
    ]
);

/// Plain-text success result.
pub(crate) fn text(body: impl Into<String>) -> CallToolResult {
    CallToolResult::text_content(vec![TextContent::from(body.into())])
}

pub(crate) fn parse_day(field: &str, raw: &str) -> Result<NaiveDate, CallToolError> {
    NaiveDate::parse_from_str(raw, "%Y-%m-%d").map_err(|e| {
        CallToolError::invalid_arguments(
            field,
            Some(format!("{raw:?} is not a date in YYYY-MM-DD form ({e})")),
        )
    })
}

pub(crate) fn parse_start(raw: &str) -> Result<NaiveDateTime, CallToolError> {
    NaiveDateTime::parse_from_str(raw, "%Y-%m-%d %H:%M")
        .map_err(|_| CallToolError::from_message("Invalid start time"))
}
