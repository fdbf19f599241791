//@ rmcp = "0.8"
// A crate's own test of an outcome (`fn success(&self) -> bool` on its run result): its else
// branch is the failure path, as for `output.status.success()`. A failure told there as a
// success result is reported; told as an isError result it is right.
use rmcp::{
    model::{CallToolResult, Content},
    tool, tool_router, ErrorData as McpError,
};

pub struct RunOutput {
    code: Option<i32>,
    stderr: String,
}

impl RunOutput {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

pub struct Runner;

impl Runner {
    pub fn run(&self, program: &str) -> Result<RunOutput, std::io::Error> {
        let out = std::process::Command::new(program).output()?;
        Ok(RunOutput {
            code: out.status.code(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }
}

pub struct Server {
    runner: Runner,
}

#[tool_router]
impl Server {
    #[tool(description = "Run the linter")]
    async fn lint(&self) -> Result<CallToolResult, McpError> {
        let Ok(out) = self.runner.run("clippy-driver") else {
            return Ok(CallToolResult::error(vec![Content::text("cannot start clippy-driver")]));
        };
        if out.success() {
            Ok(CallToolResult::success(vec![Content::text("no warnings")]))
        } else {
            Ok(CallToolResult::success(vec![Content::text(format!("Failed to lint: {}", out.stderr))])) //~ failure_as_success
        }
    }

    #[tool(description = "Run the tests")]
    async fn test(&self) -> Result<CallToolResult, McpError> {
        let Ok(out) = self.runner.run("cargo-nextest") else {
            return Ok(CallToolResult::error(vec![Content::text("cannot start cargo-nextest")]));
        };
        if out.success() {
            Ok(CallToolResult::success(vec![Content::text("all tests passed")]))
        } else {
            Ok(CallToolResult::error(vec![Content::text(format!("tests failed: {}", out.stderr))]))
        }
    }
}
