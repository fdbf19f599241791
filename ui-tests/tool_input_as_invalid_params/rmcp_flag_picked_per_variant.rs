//@ rmcp = "0.8"
// A mapping that decides the code through a flag picked per variant (`let callers_fault = match
// &err { Error::File(_) | Error::NotFound(_) => true, _ => false }; if callers_fault {
// invalid_params } else { internal_error }`), shared with start-up code, so each tool call is
// judged by the variants the mapped fn returns. `open_upload` fails only with `File`, built by a
// closure in a local (`.map_err(file_error)?`): its call gets the -32602 branch alone (the path
// the model named, MCP006), not the -32603 one. `send` fails only with `Api`: -32603 alone.
use rmcp::{handler::server::wrapper::Parameters, model::*, tool, tool_router, ErrorData as McpError};
use std::path::Path;

#[derive(Debug)]
pub enum Error {
    File(String),
    NotFound(String),
    Api(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

pub fn to_mcp_error(err: Error) -> McpError {
    let callers_fault = match &err {
        Error::File(_) | Error::NotFound(_) => true,
        _ => false,
    };
    if callers_fault {
        McpError::invalid_params(err.to_string(), None)
    } else {
        McpError::internal_error(err.to_string(), None)
    }
}

pub struct Upload {
    pub len: u64,
}

pub async fn open_upload(path: &Path) -> Result<Upload, Error> {
    let file_error = |e: std::io::Error| Error::File(format!("{}: {e}", path.display()));
    let len = tokio::fs::metadata(path).await.map_err(file_error)?.len();
    Ok(Upload { len })
}

pub async fn send(upload: Upload) -> Result<u64, Error> {
    if upload.len > 1 << 20 {
        return Err(Error::Api(format!("upstream refused {} bytes", upload.len)));
    }
    Ok(upload.len)
}

/// Start-up code: the mapping is not tool code alone.
pub async fn warm_up() -> Result<u64, McpError> {
    send(Upload { len: 0 }).await.map_err(to_mcp_error)
}

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "Upload a file")]
    async fn upload(&self, Parameters(path): Parameters<String>) -> Result<CallToolResult, McpError> {
        let upload = open_upload(Path::new(&path)).await.map_err(to_mcp_error)?; //~ tool_input_as_invalid_params
        let sent = send(upload).await.map_err(to_mcp_error)?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(sent.to_string())]))
    }
}
