//@ dep: turbomcp = "3.6"
//@ dep: tokio = "1"
// The server of `turbomcp2_tool_err_is_protocol_error.rs`, unchanged, on turbomcp 3.x: the
// generated dispatch turns every `Err(e)` of a `#[tool]` returning `McpResult<T>` into
// `Ok(e.to_tool_result())`, an isError result, so nothing here is a protocol error.
use std::path::PathBuf;

use turbomcp::prelude::*;

#[derive(Clone)]
struct Notes {
    dir: PathBuf,
}

#[server(name = "notes", version = "1.0.0")]
impl Notes {
    #[tool("Read one note")]
    async fn read_note(&self, name: String) -> McpResult<String> {
        if name.contains('/') {
            return Err(McpError::invalid_request(format!("name {name:?} must be a file name, not a path")));
        }
        let text = tokio::fs::read_to_string(self.dir.join(&name)).await?;
        Ok(text)
    }

    #[tool("Delete a note")]
    async fn delete(&self, name: String) -> McpResult<String> {
        match tokio::fs::remove_file(self.dir.join(&name)).await {
            Ok(()) => Ok(format!("deleted {name}")),
            Err(e) => Err(McpError::internal(format!("cannot delete {name}: {e}"))),
        }
    }

}
