//@ rmcp = "1.8"
// Where the failing value comes from decides, not the message: the process's own environment
// asked with nothing the request carries (`env::current_exe()`, `env::current_dir()`, a variable
// the server names) is a server fault, -32603 is right there, even from a helper the tools call
// with `?`. The same calls given the model's value (`env::var(&args.name)`, a directory the model
// named) are the tool's own failures.
use std::env;
use std::path::PathBuf;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SpawnArgs {
    pub task: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct VarArgs {
    pub name: String,
}

/// The executable to spawn workers with.
fn current_exe() -> Result<String, McpError> {
    env::current_exe()
        .map_err(|e| McpError::internal_error(format!("Failed to get current executable path: {e}"), None))
        .map(|p| p.to_string_lossy().to_string())
}

#[derive(Clone)]
pub struct Workers {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Workers {
    #[tool(description = "Run a task in a worker process")]
    async fn spawn_worker(&self, Parameters(SpawnArgs { task }): Parameters<SpawnArgs>) -> Result<CallToolResult, McpError> {
        let exe = current_exe()?;
        let cwd: PathBuf = std::env::current_dir()
            .map_err(|e| McpError::internal_error(format!("Failed to read the working directory: {e}"), None))?;
        let home = env::var("HOME").map_err(|_| McpError::internal_error("HOME is not set", None))?;
        Ok(CallToolResult::success(vec![Content::text(format!("{exe} {task} in {} ({home})", cwd.display()))]))
    }

    #[tool(description = "Read an environment variable")]
    async fn read_var(&self, Parameters(args): Parameters<VarArgs>) -> Result<CallToolResult, McpError> {
        let value = env::var(&args.name)
            //~v tool_failure_as_protocol_error
            .map_err(|e| McpError::internal_error(format!("Failed to read {}: {e}", args.name), None))?;
        Ok(CallToolResult::success(vec![Content::text(value)]))
    }

    #[tool(description = "Change into a directory and list it")]
    async fn enter(&self, Parameters(args): Parameters<VarArgs>) -> Result<CallToolResult, McpError> {
        std::env::set_current_dir(&args.name)
            //~v tool_failure_as_protocol_error
            .map_err(|e| McpError::internal_error(format!("Failed to enter {}: {e}", args.name), None))?;
        Ok(CallToolResult::success(vec![Content::text("ok")]))
    }
}

#[tool_handler]
impl ServerHandler for Workers {}
