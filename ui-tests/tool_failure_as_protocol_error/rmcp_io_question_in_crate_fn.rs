//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// `std::fs::read_to_string(path)?` in a crate fn failing with the crate's enum converts through
// its `impl From<std::io::Error> for AppError`, which builds `AppError::Io`: that is the one
// variant the fn passes on, so a tool's `?` on it reaches only the `Io` arm of `From<AppError>
// for McpError`. `Finished` is built only in `cancel`, whose one tool maps it with `map_err`
// (reported there), so no tool's `?` passes that arm.
use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};

#[derive(Debug)]
pub enum AppError {
    Io(std::io::Error),
    Finished(u64),
}

impl From<std::io::Error> for AppError {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
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
    let text = std::fs::read_to_string(path)?;
    Ok(text)
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
        let text = read_log(&args.path)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "Cancel job 5")]
    async fn cancel_job(&self) -> Result<CallToolResult, McpError> {
        cancel(5).map_err(|e| McpError::internal_error(format!("cannot cancel: {e:?}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text("cancelled")]))
    }
}
