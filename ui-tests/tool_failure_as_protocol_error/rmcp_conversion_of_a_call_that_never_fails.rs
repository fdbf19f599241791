//@ rmcp = "0.9"
//@ dep: thiserror = "2"
// A dispatcher that converts every method's error the same way
// (`.map_err(AppError::Mcp).map_err(ErrorData::from)`, or a `map_err` closure) converts nothing
// when the method returns `Ok(..)` on every path (its failures are isError results): there is no
// finding there, nor when its one `?` is on serialising its own value (a server fault). A method
// with another `?`, an `Err` or a macro that may return one still fails.
use rmcp::{model::*, service::RequestContext, ErrorData, RoleServer, ServerHandler};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("MCP error: {0}")]
    Mcp(#[from] ErrorData),
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

impl From<AppError> for ErrorData {
    fn from(err: AppError) -> Self {
        ErrorData::internal_error(err.to_string(), None)
    }
}

pub struct Service;

impl Service {
    pub async fn echo(&self, text: String) -> Result<CallToolResult, ErrorData> {
        if text.is_empty() {
            return Ok(CallToolResult::error(vec![Content::text("text must not be empty")]));
        }
        tracing::info!("echo {text}");
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    pub async fn upper(&self, text: String) -> Result<CallToolResult, ErrorData> {
        match text.as_str() {
            "" => Ok(CallToolResult::error(vec![Content::text("text must not be empty")])),
            t => Ok(CallToolResult::success(vec![Content::text(t.to_uppercase())])),
        }
    }

    /// Fails only when its own report does not serialise: a server fault, -32603 is right.
    pub async fn report(&self, text: String) -> Result<CallToolResult, AppError> {
        let json = serde_json::to_string_pretty(&serde_json::json!({ "text": text }))
            .map_err(std::io::Error::other)?;
        Ok(CallToolResult::success(vec![Content::text(json)]))
    }

    pub async fn read(&self, path: String) -> Result<CallToolResult, AppError> {
        let t = std::fs::read_to_string(&path)?;
        Ok(CallToolResult::success(vec![Content::text(t)]))
    }

    fn load(&self) -> Result<String, AppError> {
        Ok(std::fs::read_to_string("/etc/motd")?)
    }
}

impl ServerHandler for Service {
    async fn read_resource(
        &self,
        _request: ReadResourceRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        let text = self.load()?;
        Ok(ReadResourceResult {
            contents: vec![ResourceContents::text(text, "motd")],
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let text = request.arguments.unwrap_or_default().len().to_string();
        match request.name.as_ref() {
            "echo" => self.echo(text).await.map_err(AppError::Mcp).map_err(ErrorData::from),
            "upper" => self
                .upper(text)
                .await
                .map_err(|e| ErrorData::internal_error(format!("upper failed: {e}"), None)),
            "report" => self
                .report(text)
                .await
                .map_err(|e| ErrorData::internal_error(format!("report failed: {e}"), None)),
            "read" => self.read(text).await.map_err(ErrorData::from), //~ tool_failure_as_protocol_error
            _ => Err(ErrorData::invalid_params(format!("no tool named {}", request.name), None)),
        }
    }
}
