//@ dep: turbomcp = "3.6"
//@ dep: tokio = "1"
//@ dep: anyhow = "1"
// turbomcp 3.x, `#[server]` impl with `#[tool]` fns: the generated dispatch turns every `Err(e)` of
// a tool returning `McpResult<T>` / `Result<T, McpError>` into `Ok(e.to_tool_result())`, an isError
// result whose text is `e.message` (the kind and its code travel in `_meta` only). Any other
// `Result<T, E: Display>` goes through `IntoToolResult`: `Err` becomes `ToolResult::error(..)`.
// So `McpError::internal(..)`, `?` on I/O, `McpError::rate_limited(..)` and `Err(String)` are all
// tool execution errors here: no tool_failure_as_protocol_error, and no legacy_error_code for a
// kind whose code is legacy, since the code is not sent as a JSON-RPC error. The same constructs
// in rmcp would fire. `#[resource]` and `#[prompt]` errors are protocol errors, and right.
use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::Mutex;
use turbomcp::prelude::*;

#[derive(Clone)]
struct Notes {
    dir: PathBuf,
    quota: Arc<Mutex<u32>>,
}

#[server(name = "notes", version = "1.0.0")]
impl Notes {
    /// Read one note.
    #[tool]
    async fn read_note(&self, #[description("File name of the note")] name: String) -> McpResult<String> {
        if name.contains('/') {
            return Err(McpError::invalid_params(format!("name {name:?} must be a file name, not a path")));
        }
        let text = tokio::fs::read_to_string(self.dir.join(&name)).await?;
        Ok(text)
    }

    /// Append a line to a note.
    #[tool(destructive = true)]
    async fn append(&self, name: String, line: String) -> McpResult<String> {
        let mut quota = self.quota.lock().await;
        if *quota == 0 {
            return Err(McpError::rate_limited("append quota used up for this hour; try again later"));
        }
        *quota -= 1;
        let path = self.dir.join(&name);
        let mut text = tokio::fs::read_to_string(&path)
            .await
            .map_err(|e| McpError::internal(format!("cannot read {name}: {e}")))?;
        text.push_str(&line);
        text.push('\n');
        tokio::fs::write(&path, text)
            .await
            .map_err(|e| McpError::tool_execution_failed("append", format!("cannot write {name}: {e}")))?;
        Ok(format!("appended to {name}"))
    }

    /// Delete a note.
    #[tool]
    async fn delete(&self, name: String) -> Result<String, McpError> {
        match tokio::fs::remove_file(self.dir.join(&name)).await {
            Ok(()) => Ok(format!("deleted {name}")),
            Err(e) => Err(McpError::internal(format!("cannot delete {name}: {e}"))),
        }
    }

    /// Count the lines of a note.
    #[tool(read_only = true)]
    async fn line_count(&self, name: String) -> Result<usize, String> {
        let text = std::fs::read_to_string(self.dir.join(&name)).map_err(|e| format!("cannot read {name}: {e}"))?;
        Ok(text.lines().count())
    }

    /// Size of a note in bytes.
    #[tool(read_only = true)]
    async fn size(&self, name: String) -> Result<u64, anyhow::Error> {
        let meta = tokio::fs::metadata(self.dir.join(&name)).await?;
        Ok(meta.len())
    }

    /// A note as a resource: a protocol error is right here.
    #[resource("notes://{name}")]
    async fn note(&self, uri: String, _ctx: &RequestContext) -> McpResult<String> {
        let name = uri.trim_start_matches("notes://");
        tokio::fs::read_to_string(self.dir.join(name))
            .await
            .map_err(|e| McpError::internal(format!("cannot read {name}: {e}")))
    }
}
