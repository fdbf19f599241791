//@ dep: turbomcp = "3.6"
//@ dep: tokio = "1"
// turbomcp 3.x `#[tool]` fns: `Ok(String)` is a success result, so `Err(e) => Ok(format!("Error:
// {e}"))` hides the failure from the model. Returning `Err(McpError::..)` (an isError result in a
// `#[tool]`) or `Ok(ToolResult::error(..))` is right.
use std::path::PathBuf;

use turbomcp::prelude::*;

#[derive(Clone)]
struct Logs {
    dir: PathBuf,
}

#[server(name = "logs", version = "1.0.0")]
impl Logs {
    /// The last lines of a log file.
    #[tool(read_only = true)]
    async fn tail(&self, file: String, lines: Option<usize>) -> McpResult<String> {
        match tokio::fs::read_to_string(self.dir.join(&file)).await {
            Ok(text) => {
                let all: Vec<&str> = text.lines().collect();
                let n = lines.unwrap_or(20).min(all.len());
                Ok(all[all.len() - n..].join("\n"))
            }
            Err(e) => Ok(format!("Error: cannot read {file}: {e}")), //~ failure_as_success
        }
    }

    /// Size of a log file.
    #[tool(read_only = true)]
    async fn size(&self, file: String) -> McpResult<ToolResult> {
        match tokio::fs::metadata(self.dir.join(&file)).await {
            Ok(meta) => Ok(ToolResult::text(meta.len().to_string())),
            Err(e) => Ok(ToolResult::error(format!("cannot stat {file}: {e}"))),
        }
    }

    /// Truncate a log file.
    #[tool(destructive = true)]
    async fn truncate(&self, file: String) -> McpResult<String> {
        tokio::fs::write(self.dir.join(&file), b"").await.map_err(|e| McpError::internal(format!("cannot truncate {file}: {e}")))?;
        Ok(format!("truncated {file}"))
    }
}
