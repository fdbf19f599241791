//@ rmcp = "3.11"
//@ dep: tokio = { version = "1", features = ["process"] }
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A `match` over a finished process whose arms test the outcome in guards: `Ok(o) if
// o.status.success() => .., Ok(o) => here` (and a `_` after it), `Ok(o) if !o.status.success()
// => here`. The arm taken when the outcome says it failed is that failure's path: a success
// answer there whose text says it failed is the failure answered as success.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub dir: String,
}

fn text(t: String) -> Result<CallToolResult, McpError> {
    Ok(CallToolResult::success(vec![ContentBlock::text(t)]))
}

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "Disk usage of a directory the model names")]
    async fn du(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let out = tokio::process::Command::new("du").args(["-sh", &p.dir]).output().await;
        match out {
            Ok(o) if o.status.success() => text(String::from_utf8_lossy(&o.stdout).into_owned()),
            Ok(o) => Ok(CallToolResult::success(vec![ContentBlock::text(format!( //~ failure_as_success
                "Failed to measure {}: {}",
                p.dir,
                String::from_utf8_lossy(&o.stderr)
            ))])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "cannot run du on {}: {e}",
                p.dir
            ))])),
        }
    }

    #[tool(description = "Files of a directory the model names")]
    async fn ls(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let out = tokio::process::Command::new("ls").arg(&p.dir).output().await;
        match out {
            Ok(o) if !o.status.success() => Ok(CallToolResult::success(vec![ContentBlock::text( //~ failure_as_success
                format!("Error: ls failed: {}", String::from_utf8_lossy(&o.stderr)),
            )])),
            Ok(o) => text(String::from_utf8_lossy(&o.stdout).into_owned()),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "cannot run ls on {}: {e}",
                p.dir
            ))])),
        }
    }

    /// Not reported: the failed outcome is answered with an isError result, and the guard
    /// tests something else than the outcome (an empty listing is a normal answer).
    #[tool(description = "Files of a directory the model names, failures as tool errors")]
    async fn ls_checked(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let out = tokio::process::Command::new("ls").arg(&p.dir).output().await;
        match out {
            Ok(o) if o.status.success() && o.stdout.is_empty() => text(format!("{} is empty", p.dir)),
            Ok(o) if o.status.success() => text(String::from_utf8_lossy(&o.stdout).into_owned()),
            Ok(o) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "ls {} failed: {}",
                p.dir,
                String::from_utf8_lossy(&o.stderr)
            ))])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "cannot run ls on {}: {e}",
                p.dir
            ))])),
        }
    }
}
