//@ dep: mcp-attr = "0.0.7"
//@ dep: tokio = "1"
// mcp-attr 0.0.7, `#[mcp_server] impl McpServer` with `#[tool]` fns returning `mcp_attr::Result<T>`:
// the generated `tools_call` arm is `Ok(CallToolResult::from(Self::f(..).await?))`, so every
// `Err` is a JSON-RPC error. `bail!(..)` is -32603 with a *private* message (only debug builds
// send it), `?` on any `std::error::Error` is -32603 (`impl<E: Error> From<E> for
// jsoncall::Error`), and `bail_public!(_, ..)` / `Error::new(ErrorCode::INTERNAL_ERROR)` are
// -32603 with a public message. The only isError form is a literal `CallToolResult { is_error:
// Some(true), .. }`, which is right. `#[resource]` and `#[prompt]` fns are not tool context.
use std::path::PathBuf;

use mcp_attr::schema::{CallToolResult, TextContent};
use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::{bail, bail_public, Error, ErrorCode, Result};

struct Journal {
    dir: PathBuf,
}

#[mcp_server]
impl McpServer for Journal {
    /// Read the entry of a day (YYYY-MM-DD).
    #[tool]
    async fn read_entry(&self, day: String) -> Result<String> {
        if day.len() != 10 {
            bail!("day must be YYYY-MM-DD, got {day:?}"); //~ tool_failure_as_protocol_error
        }
        let text = tokio::fs::read_to_string(self.dir.join(format!("{day}.md"))).await?; //~ tool_failure_as_protocol_error
        Ok(text)
    }

    /// Count the words of an entry.
    #[tool]
    async fn word_count(&self, day: String) -> Result<String> {
        let text = match std::fs::read_to_string(self.dir.join(format!("{day}.md"))) {
            Ok(text) => text,
            Err(e) => bail_public!(_, "no entry for {day}: {e}"), //~ tool_failure_as_protocol_error
        };
        Ok(text.split_whitespace().count().to_string())
    }

    /// Append a line to an entry.
    #[tool]
    async fn append(&self, day: String, line: String) -> Result<String> {
        let path = self.dir.join(format!("{day}.md"));
        let mut text = std::fs::read_to_string(&path)
            .map_err(|e| Error::new(ErrorCode::INTERNAL_ERROR).with_message(format!("cannot read {day}: {e}"), true))?; //~ tool_failure_as_protocol_error
        text.push_str(&line);
        std::fs::write(&path, text).map_err(|e| Error::from(e).with_message(format!("cannot write {day}"), true))?; //~ tool_failure_as_protocol_error
        Ok(format!("appended to {day}"))
    }

    /// Delete an entry; failures come back as an isError result.
    #[tool]
    async fn delete_entry(&self, day: String) -> Result<CallToolResult> {
        match std::fs::remove_file(self.dir.join(format!("{day}.md"))) {
            Ok(()) => Ok(format!("deleted {day}").into()),
            Err(e) => Ok(CallToolResult {
                content: vec![TextContent::new(format!("cannot delete {day}: {e}")).into()],
                is_error: Some(true),
                meta: Default::default(),
            }),
        }
    }

    /// The entry of a day, as a resource.
    #[resource("journal://{day}")]
    async fn entry(&self, day: String) -> Result<String> {
        if day.len() != 10 {
            bail!("day must be YYYY-MM-DD");
        }
        Ok(std::fs::read_to_string(self.dir.join(format!("{day}.md")))?)
    }

    /// Ask for a summary of a day.
    #[prompt]
    async fn summarize(&self, day: String) -> Result<String> {
        let text = std::fs::read_to_string(self.dir.join(format!("{day}.md")))?;
        Ok(format!("Summarize this journal entry:\n{text}"))
    }
}
