//@ rmcp = "3.11"
// The central error -> code mapping: `mcp_error` picks the code by a `match` on the crate's error
// into a local (or a tuple) and builds the protocol error once. Each arm is its own answer, and a
// point-free `.map_err(mcp_error)` passes the variants its receiver can hold: `Err(Error::..(..))`
// built right there and those of the crate fns it calls. The backend's failure reaches the
// -32603 arm (a tool failure sent as a protocol error), the schema lookup's `Validation` the
// -32602 arm (an argument value rejected as invalid params). `status` only ever passes
// `Error::Busy`, whose arm is -32603 too: its mapping never sends -32602, which a matcher of the
// helper's words would report.
use rmcp::{
    model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

pub enum Error {
    Validation(String),
    ToolNotFound(String),
    Backend(String),
    Busy,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Validation(m) | Error::ToolNotFound(m) | Error::Backend(m) => f.write_str(m),
            Error::Busy => f.write_str("busy"),
        }
    }
}

pub struct Proxy;

impl Proxy {
    async fn invoke(&self, name: &str) -> Result<String, Error> {
        if name.is_empty() {
            return Err(Error::Backend(format!("backend tool {name} failed")));
        }
        Ok(name.to_string())
    }

    async fn schema(&self, name: &str) -> Result<String, Error> {
        if name.contains(' ') {
            return Err(Error::Validation(format!("`{name}` is not a tool name: no spaces")));
        }
        Ok(format!("{{\"name\": \"{name}\"}}"))
    }

    async fn load(&self) -> Result<String, Error> {
        Err(Error::Busy)
    }
}

fn mcp_error(error: Error) -> McpError {
    let code = match &error {
        Error::Validation(_) => ErrorCode::INVALID_PARAMS,
        _ => ErrorCode::INTERNAL_ERROR,
    };
    McpError::new(code, error.to_string(), None) //~ tool_failure_as_protocol_error
    //~^ tool_input_as_invalid_params
}

fn status_error(error: Error) -> McpError {
    let (code, hint) = match error {
        Error::Validation(m) => (ErrorCode::INVALID_PARAMS, m),
        Error::Busy => (ErrorCode::INTERNAL_ERROR, "the proxy is busy: retry in a minute".to_string()),
        other => (ErrorCode::INTERNAL_ERROR, other.to_string()),
    };
    McpError::new(code, hint, None) //~ tool_failure_as_protocol_error
}

impl ServerHandler for Proxy {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        let output = if name == "invoke" {
            self.invoke(&name).await
        } else if name == "schema" {
            self.schema(&name).await
        } else if name == "status" {
            return self.load().await.map_err(status_error).map(|s| CallToolResult::success(vec![ContentBlock::text(s)]).into());
        } else {
            Err(Error::ToolNotFound(name))
        }
        .map_err(mcp_error)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(output)]).into())
    }
}
