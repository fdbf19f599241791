//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// `Err(e) => Err(McpError::from(e))` and `Err(e) => Err(e.into())` in a `match` over a crate
// fn's call convert only the variants that fn can return, as a `?` on it would: `read_log`
// builds `Io` alone, so the `Finished` arm answers no tool call of it (`cancel` builds it, and
// its tool maps it with `map_err`, reported there).
use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};

#[derive(Debug)]
pub enum AppError {
    Io(std::io::Error),
    Finished(u64),
}

impl From<AppError> for McpError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Io(e) => McpError::internal_error(format!("cannot read the job log: {e}"), None), //~ tool_failure_as_protocol_error
            AppError::Finished(id) => McpError::internal_error(format!("job {id} has already finished"), None),
        }
    }
}

pub fn read_log(path: &str) -> Result<String, AppError> {
    std::fs::read_to_string(path).map_err(AppError::Io)
}

pub fn cancel(id: u64) -> Result<(), AppError> {
    if id > 3 {
        return Err(AppError::Finished(id));
    }
    Ok(())
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct LogArgs {
    pub path: String,
}

#[derive(Clone)]
pub struct Jobs;

#[tool_router]
impl Jobs {
    #[tool(description = "Read a job's log")]
    async fn read_job_log(&self, Parameters(args): Parameters<LogArgs>) -> Result<CallToolResult, McpError> {
        match read_log(&args.path) {
            Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Err(e) => Err(McpError::from(e)),
        }
    }

    #[tool(description = "Read a job's log, tail only")]
    async fn tail_job_log(&self, Parameters(args): Parameters<LogArgs>) -> Result<CallToolResult, McpError> {
        match read_log(&args.path) {
            Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text.lines().last().unwrap_or_default().to_string())])),
            Err(e) => Err(e.into()),
        }
    }

    #[tool(description = "Cancel job 5")]
    async fn cancel_job(&self) -> Result<CallToolResult, McpError> {
        cancel(5).map_err(|e| McpError::internal_error(format!("cannot cancel: {e:?}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text("cancelled")]))
    }
}
