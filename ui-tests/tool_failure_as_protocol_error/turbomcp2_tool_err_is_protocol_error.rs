//@ dep: turbomcp = "2.3"
//@ dep: tokio = "1"
// turbomcp 2.x, `#[server]` impl with `#[tool]` fns, written as the 2.3.7 examples write them
// (`examples/tools.rs`, `examples/macro_server.rs`). The `#[tool]` wrapper of turbomcp-macros 2.x
// maps every `McpError` to a `ServerError` and the server sends it as a JSON-RPC error with
// `ServerError::error_code()`: -32002 (`Handler`) for `invalid_request` (and `Tool`,
// `InvalidInput`, ...) and for `?` on `std::io::Error` (`From<io::Error>` is `Transport`), -32603
// for `internal`. So every `Err` here is a tool failure sent as a protocol error. The same
// server on turbomcp 3.x (`turbomcp3_same_server_tool_err_is_iserror.rs`) sends them all as
// isError results.
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
            return Err(McpError::invalid_request(format!("name {name:?} must be a file name, not a path"))); //~ tool_failure_as_protocol_error
        }
        let text = tokio::fs::read_to_string(self.dir.join(&name)).await?; //~ tool_failure_as_protocol_error
        Ok(text)
    }

    #[tool("Delete a note")]
    async fn delete(&self, name: String) -> McpResult<String> {
        match tokio::fs::remove_file(self.dir.join(&name)).await {
            Ok(()) => Ok(format!("deleted {name}")),
            Err(e) => Err(McpError::internal(format!("cannot delete {name}: {e}"))), //~ tool_failure_as_protocol_error
        }
    }

}
