//@ rmcp = "1.8"
// An error mapping gives each variant its own code: a call that passes one variant gets that
// variant's arm only. `Error::InvalidArgument(..).to_mcp()` is -32602 (this lint), not also the
// -32603 of the `Upstream` arm; `?` on `.map_err(|_| AppError::Busy)` reaches only `Busy`'s arm.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

pub enum Error {
    InvalidArgument(String),
    Upstream(String),
}

impl Error {
    pub fn to_mcp(&self) -> McpError {
        match self {
            Error::InvalidArgument(m) => McpError::invalid_params(m.clone(), None),
            Error::Upstream(m) => McpError::internal_error(m.clone(), None),
        }
    }
}

pub enum AppError {
    Busy,
    Broken(String),
}

impl From<AppError> for McpError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Busy => McpError::invalid_request("try again later", None), //~ tool_failure_as_protocol_error
            AppError::Broken(m) => McpError::internal_error(m, None),
        }
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub limit: u32,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "List things")]
    async fn list(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        if args.limit > 100 {
            return Err(Error::InvalidArgument(format!("limit {} is over 100", args.limit)).to_mcp()); //~ tool_input_as_invalid_params
        }
        Ok(CallToolResult::success(vec![]))
    }

    #[tool(description = "Queue a job")]
    async fn queue(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        try_queue(args.limit).map_err(|_| AppError::Busy)?;
        Ok(CallToolResult::success(vec![]))
    }
}

fn try_queue(limit: u32) -> Result<(), ()> {
    if limit == 0 {
        return Err(());
    }
    Ok(())
}

// Start-up code maps every variant, so `to_mcp` is shared: the tool's call is what is judged.
pub fn start(e: Error) -> McpError {
    e.to_mcp()
}
