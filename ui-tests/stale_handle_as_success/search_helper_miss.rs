//@ rmcp = "3.1"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
// A crate fn whose value is a search for the item equal to the key it is given
// (`names.iter().position(|n| *n == name)`) is a lookup: its `None` is a miss on the name the
// model gave, and a "not found" answer there told as success is MCP008. The text is the one the
// helper hands the JSON builder (`sheet_err` -> `error(&format!("Sheet '{}' not found", ..))`).
// A search by a predicate that is no key (`position(|n| n.len() > 3)`) is no lookup, and a miss
// answered with `CallToolResult::error` is no success.
use rmcp::{handler::server::wrapper::Parameters, model::CallToolResult, model::Content, schemars, tool, tool_router};
use serde::Serialize;

#[derive(Serialize)]
pub struct Failure {
    pub error: String,
}

pub fn error(description: &str) -> String {
    serde_json::to_string(&Failure { error: description.to_string() }).expect("a failure serialises")
}

fn sheet_err(name: &str) -> String {
    error(&format!("Sheet '{}' not found", name))
}

fn find_sheet(names: &[String], name: &str) -> Option<usize> {
    names.iter().position(|n| *n == name)
}

fn first_long(names: &[String]) -> Option<usize> {
    names.iter().position(|n| n.len() > 3)
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SheetInput {
    pub sheet_name: String,
}

pub struct Book {
    names: Vec<String>,
}

#[tool_router]
impl Book {
    #[tool(description = "Select a sheet")]
    async fn select_sheet(&self, Parameters(input): Parameters<SheetInput>) -> String {
        let idx = match find_sheet(&self.names, &input.sheet_name) {
            Some(i) => i,
            None => return sheet_err(&input.sheet_name), //~ stale_handle_as_success
        };
        format!("selected sheet {idx}")
    }

    #[tool(description = "Select the first sheet with a long name")]
    async fn first_long_sheet(&self) -> String {
        let idx = match first_long(&self.names) {
            Some(i) => i,
            None => return error("no sheet has a long name"), //~ failure_as_success
        };
        format!("selected sheet {idx}")
    }

    #[tool(description = "Delete a sheet")]
    async fn delete_sheet(&self, Parameters(input): Parameters<SheetInput>) -> Result<CallToolResult, rmcp::ErrorData> {
        match find_sheet(&self.names, &input.sheet_name) {
            Some(i) => Ok(CallToolResult::success(vec![Content::text(format!("deleted {i}"))])),
            None => Ok(CallToolResult::error(vec![Content::text(format!("Sheet '{}' not found", input.sheet_name))])),
        }
    }
}
