//@ rmcp = "3.11"
// A tool trait with an associated request type (`type RequestArgs = FmtArgs;`): in the impl,
// `request: Self::RequestArgs` is a `FmtArgs`, so `request.build_cmd()` is `FmtArgs::build_cmd`,
// whose check of the `verbosity` value is reported. `DenyArgs::build_cmd`, of the same name, is
// only used at start-up: its -32603 is no tool's (a matcher of method names would take it for
// the tool's, or give up on the two).
use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};
use serde::Deserialize;

pub trait Tool {
    type RequestArgs;
    fn call_tool(&self, request: Self::RequestArgs) -> Result<CallToolResult, McpError>;
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct FmtArgs {
    pub verbosity: Option<String>,
}

impl FmtArgs {
    pub fn build_cmd(&self) -> Result<std::process::Command, McpError> {
        let mut cmd = std::process::Command::new("cargo");
        match self.verbosity.as_deref().unwrap_or("quiet") {
            "quiet" => cmd.arg("--quiet"),
            "verbose" => cmd.arg("--verbose"),
            other => {
                return Err(McpError::invalid_params(format!("unknown verbosity {other}; use quiet or verbose"), None)); //~ tool_input_as_invalid_params
            }
        };
        Ok(cmd)
    }
}

pub struct DenyArgs;

impl DenyArgs {
    pub fn build_cmd(&self) -> Result<std::process::Command, McpError> {
        Err(McpError::internal_error("cargo-deny is not configured", None))
    }
}

pub struct Fmt;

impl Tool for Fmt {
    type RequestArgs = FmtArgs;

    fn call_tool(&self, request: Self::RequestArgs) -> Result<CallToolResult, McpError> {
        let cmd = request.build_cmd()?;
        Ok(CallToolResult::success(vec![Content::text(format!("{cmd:?}"))]))
    }
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Format the workspace")]
    async fn fmt(&self, Parameters(args): Parameters<FmtArgs>) -> Result<CallToolResult, McpError> {
        Fmt.call_tool(args)
    }
}

pub fn start() -> Result<(), McpError> {
    DenyArgs.build_cmd()?;
    Ok(())
}
