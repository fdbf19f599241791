//@ dep: mcp-attr = "0.0.7"
// mcp-attr 0.0.7 (jsoncall): `ErrorCode(pub i64)` has only the JSON-RPC constants plus
// `SERVER_ERROR_START` (-32000) and `SERVER_ERROR_END` (-32099); raw codes are written
// `ErrorCode(-32001)`. They reach the wire through `bail_public!(code, ..)`, `Error::new(code)` and
// `ErrorObject { code, .. }.into()`. In a `#[tool]` the error is also a tool failure sent as a
// protocol error. Comparing or range-checking received codes emits nothing.
use mcp_attr::jsoncall::ErrorObject;
use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::{bail_public, Error, ErrorCode, Result};

struct Sessions {
    active: std::sync::Mutex<Vec<String>>,
}

#[mcp_server]
impl McpServer for Sessions {
    /// Resume a session by id.
    #[tool]
    async fn resume(&self, id: String) -> Result<String> {
        let active = self.active.lock().map_err(|_| Error::new(ErrorCode::SERVER_ERROR_START).with_message("session table is poisoned", true))?; //~ legacy_error_code
        if !active.contains(&id) {
            bail_public!(ErrorCode(-32001), "session {id} expired; call start_session"); //~ tool_failure_as_protocol_error
            //~^ legacy_error_code
        }
        Ok(format!("resumed {id}"))
    }

    /// A session's transcript, as a resource.
    #[resource("sessions://{id}")]
    async fn transcript(&self, id: String) -> Result<String> {
        let active = self.active.lock().map_err(|_| Error::new(ErrorCode::INTERNAL_ERROR).with_message("session table is poisoned", true))?;
        if !active.contains(&id) {
            return Err(ErrorObject { code: ErrorCode(-32005), message: format!("session {id} is not readable"), data: None }.into()); //~ legacy_error_code
        }
        Ok(format!("transcript of {id}"))
    }
}

/// Client side: classifying codes received from a server.
pub fn is_server_defined(code: ErrorCode) -> bool {
    (ErrorCode::SERVER_ERROR_END..=ErrorCode::SERVER_ERROR_START).contains(&code) || code == ErrorCode(-32001)
}
