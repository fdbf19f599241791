//@ dep: mcp-attr = "0.0.7"
// mcp-attr 0.0.7 (jsoncall 0.0.3): `bail!()` is `Err(Error::new(ErrorCode::INTERNAL_ERROR))` and
// `bail_public!(code)` is `Err(Error::new(code))`; with no message the client reads only the
// code's generic text ("Internal error", "Invalid params"). Given a message, the macros send it.
use std::collections::HashMap;
use std::sync::Mutex;

use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::{bail, bail_public, ErrorCode, Result};

struct Sessions {
    open: Mutex<HashMap<String, String>>,
}

#[mcp_server]
impl McpServer for Sessions {
    /// Close an edit session by its handle.
    #[tool]
    async fn close_session(&self, handle: String) -> Result<String> {
        let mut open = self.open.lock().unwrap();
        if open.remove(&handle).is_none() {
            bail!(); //~ tool_failure_as_protocol_error
            //~^ vague_error_text: Internal error
        }
        Ok(format!("closed {handle}"))
    }

    /// Apply an edit in `mode` ("append" or "replace").
    #[tool]
    async fn apply_edit(&self, handle: String, mode: String) -> Result<String> {
        match mode.as_str() {
            "append" | "replace" => Ok(format!("{mode} applied to {handle}")),
            _ => bail_public!(ErrorCode::INVALID_PARAMS), //~ tool_input_as_invalid_params
            //~^ vague_error_text: Invalid params
        }
    }

    /// Rename an edit session.
    #[tool]
    async fn rename_session(&self, handle: String, name: String) -> Result<String> {
        if name.is_empty() {
            bail_public!(ErrorCode::INVALID_PARAMS, "name must not be empty; give the new session name"); //~ tool_input_as_invalid_params
        }
        let open = self.open.lock().unwrap();
        if !open.contains_key(&handle) {
            bail!("no open session {handle}; open_session returns one"); //~ tool_failure_as_protocol_error
        }
        Ok(format!("{handle} is now {name}"))
    }
}

fn main() {}
