//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// One arm for several variants (`Io(_) | Poisoned => internal_error(..)`) is judged by the
// variants each tool call passes in: `renew` can fail only with `UnknownLoan` (its own arm,
// -32602 for a value the model gave: MCP006's business) or `Poisoned`, built only on a
// poisoned lock, where -32603 is right. So `renew_loan`'s `?` gets no MCP001; `read_notes`'s
// `?` passes `Io` (a file the model named) and does. A resource handler converts through the
// same `From`, so the findings are at the tools' `?`s.
use std::collections::HashMap;
use std::sync::RwLock;

use rmcp::service::RequestContext;
use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError, RoleServer, ServerHandler};

#[derive(Debug)]
pub enum LibError {
    UnknownLoan(String),
    Io(std::io::Error),
    Poisoned,
}

impl From<LibError> for McpError {
    fn from(e: LibError) -> Self {
        match e {
            LibError::UnknownLoan(id) => McpError::invalid_params(format!("loan {id} is unknown"), None),
            LibError::Io(_) | LibError::Poisoned => McpError::internal_error(format!("catalogue storage failed: {e:?}"), None),
        }
    }
}

pub struct Catalog {
    loans: RwLock<HashMap<String, u64>>,
}

impl Catalog {
    pub fn renew(&self, id: &str) -> Result<u64, LibError> {
        let mut loans = self.loans.write().map_err(|_| LibError::Poisoned)?;
        let due = loans.get_mut(id).ok_or_else(|| LibError::UnknownLoan(id.to_string()))?;
        *due += 14;
        Ok(*due)
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
    #[tool(description = "Renew a loan by 14 days")]
    async fn renew_loan(&self, Parameters(args): Parameters<LoanArgs>) -> Result<CallToolResult, McpError> {
        let due = self.catalog.renew(&args.loan_id)?; //~ tool_input_as_invalid_params
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("due on day {due}"))]))
    }

    #[tool(description = "Read the notes file of a loan")]
    async fn read_notes(&self, Parameters(args): Parameters<LoanArgs>) -> Result<CallToolResult, McpError> {
        let text = self.catalog.notes(&args.loan_id)?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}

impl ServerHandler for Library {
    async fn read_resource(
        &self,
        _request: ReadResourceRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let text = self.catalog.notes("loans/README.txt")?;
        Ok(ReadResourceResult {
            contents: vec![ResourceContents::text(text, "loans://readme")],
        })
    }
}
