//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
//@ dep: schemars = "1"
// `serde_json::to_vec_pretty(&*jobs)?` serialises the server's own state: its failure is a
// server fault, and -32603 is right for it. The `?` converts through `impl
// From<serde_json::Error> for AppError`, whose body names `AppError::Json`: the conversion is
// built where the `?` is, so the `Json` arm is judged by that `?` (a fault), not by the body
// of `from`. Writing the export to the path the model gave is a tool failure: the `Io` arm is
// reported.
use std::collections::BTreeMap;
use std::sync::RwLock;

use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};

#[derive(Debug)]
pub enum AppError {
    Json(serde_json::Error),
    Io(std::io::Error),
    Poisoned,
}

impl From<serde_json::Error> for AppError {
    fn from(e: serde_json::Error) -> Self {
        AppError::Json(e)
    }
}

impl From<AppError> for McpError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Json(e) => McpError::internal_error(format!("cannot encode the job list: {e}"), None),
            AppError::Io(e) => McpError::internal_error(format!("cannot write the export: {e}"), None), //~ tool_failure_as_protocol_error
            AppError::Poisoned => McpError::internal_error("job table lock poisoned", None),
        }
    }
}

pub struct Store {
    jobs: RwLock<BTreeMap<u64, String>>,
}

impl Store {
    pub fn export(&self, dest: &str) -> Result<usize, AppError> {
        let jobs = self.jobs.read().map_err(|_| AppError::Poisoned)?;
        let bytes = serde_json::to_vec_pretty(&*jobs)?;
        std::fs::write(dest, &bytes).map_err(AppError::Io)?;
        Ok(bytes.len())
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ExportArgs {
    pub dest: String,
}

pub struct Jobs {
    store: Store,
}

#[tool_router]
impl Jobs {
    #[tool(description = "Export every job to a file")]
    async fn export_jobs(&self, Parameters(args): Parameters<ExportArgs>) -> Result<CallToolResult, McpError> {
        let n = self.store.export(&args.dest)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{n} bytes written"))]))
    }
}
