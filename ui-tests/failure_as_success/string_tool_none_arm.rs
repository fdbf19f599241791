//@ rmcp = "0.13"
//@ dep: serde_json = "1"
// A `-> String` tool's `None =>` arm of an optional value that is no lookup (a sheet's used
// range, the first row): an answer there that says it failed (`{"error": ..}`, also built by a
// crate helper) is the failure told as success. An answer there that is data (`{"rows": []}`) or
// an empty outcome in plain words says nothing failed.
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use serde_json::json;

fn error_response(kind: &str, message: impl Into<String>) -> String {
    json!({ "error": kind, "message": message.into() }).to_string()
}

pub struct Sheet {
    rows: Vec<Vec<String>>,
}

impl Sheet {
    pub fn used_range(&self) -> Option<(usize, usize)> {
        let width = self.rows.iter().map(Vec::len).max()?;
        Some((self.rows.len(), width))
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Format {
    pub bold: bool,
}

pub struct Workbook {
    sheet: Sheet,
}

#[tool_router]
impl Workbook {
    #[tool(description = "Format the used range as a table header")]
    async fn format_header(&self, Parameters(f): Parameters<Format>) -> String {
        let (_, width) = match self.sheet.used_range() {
            Some(range) => range,
            None => return error_response("empty_sheet", "Sheet is empty: write data before formatting it"), //~ failure_as_success
        };
        json!({ "formatted": width, "bold": f.bold }).to_string()
    }

    #[tool(description = "Read the first row")]
    async fn first_row(&self) -> String {
        match self.sheet.rows.first() {
            Some(row) => json!({ "row": row }).to_string(),
            None => json!({ "error": "the sheet has no rows; write one first" }).to_string(), //~ failure_as_success
        }
    }

    #[tool(description = "Read every row")]
    async fn rows(&self) -> String {
        match self.sheet.used_range() {
            Some(_) => json!({ "rows": self.sheet.rows }).to_string(),
            None => json!({ "rows": [] }).to_string(),
        }
    }

    #[tool(description = "Describe the used range")]
    async fn describe(&self) -> String {
        match self.sheet.used_range() {
            Some((h, w)) => format!("{h} rows, {w} columns"),
            None => "The sheet is empty.".to_string(),
        }
    }
}
