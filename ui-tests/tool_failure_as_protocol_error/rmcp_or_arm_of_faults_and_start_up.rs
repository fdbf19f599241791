//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// `to_mcp`, which only tool code calls, answers `Poisoned | Config` in one arm: `Poisoned` is
// built only on a poisoned lock, `Config` only in `Catalog::open`, which only `main` calls. No
// tool call can meet a tool failure there, so the arm is not reported; the `Io` arm, reached
// by a file the model names, is.
use std::collections::HashMap;
use std::sync::RwLock;

use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};

#[derive(Debug)]
pub enum LibError {
    Io(std::io::Error),
    Poisoned,
    Config(String),
}

pub fn to_mcp(e: LibError) -> McpError {
    match e {
        LibError::Io(e) => McpError::internal_error(format!("cannot read the notes: {e}"), None), //~ tool_failure_as_protocol_error
        LibError::Poisoned | LibError::Config(_) => McpError::internal_error(format!("catalogue unavailable: {e:?}"), None),
    }
}

pub struct Catalog {
    loans: RwLock<HashMap<String, u64>>,
}

impl Catalog {
    pub fn open() -> Result<Catalog, LibError> {
        let dir = std::env::var("LOANS_DIR").map_err(|_| LibError::Config("LOANS_DIR is not set".into()))?;
        let _ = dir;
        Ok(Catalog { loans: RwLock::new(HashMap::new()) })
    }

    pub fn due(&self, id: &str) -> Result<Option<u64>, LibError> {
        let loans = self.loans.read().map_err(|_| LibError::Poisoned)?;
        Ok(loans.get(id).copied())
    }

    pub fn notes(&self, path: &str) -> Result<String, LibError> {
        std::fs::read_to_string(path).map_err(LibError::Io)
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct LoanArgs {
    pub loan_id: String,
}

pub struct Library {
    catalog: Catalog,
}

#[tool_router]
impl Library {
    #[tool(description = "When a loan is due")]
    async fn loan_due(&self, Parameters(args): Parameters<LoanArgs>) -> Result<CallToolResult, McpError> {
        match self.catalog.due(&args.loan_id).map_err(to_mcp)? {
            Some(day) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("due on day {day}"))])),
            None => Ok(CallToolResult::error(vec![ContentBlock::text(format!("no loan {}", args.loan_id))])),
        }
    }

    #[tool(description = "Read the notes file of a loan")]
    async fn read_notes(&self, Parameters(args): Parameters<LoanArgs>) -> Result<CallToolResult, McpError> {
        let text = self.catalog.notes(&args.loan_id).map_err(to_mcp)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}

fn main() {
    let catalog = Catalog::open().expect("catalogue");
    let _ = Library { catalog };
}
