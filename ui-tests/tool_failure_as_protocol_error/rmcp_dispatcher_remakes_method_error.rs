//@ rmcp = "0.9"
//@ dep: thiserror = "2"
// A dispatcher that re-makes a method's protocol error with a code of its own (a `map_err`
// closure building `internal_error`, or `.map_err(AppError::Mcp).map_err(ErrorData::from)` with
// a `From` that builds one) sends that error, not the method's: one failure, one finding, at the
// dispatcher. A dispatcher that passes the method's error on (or rebuilds it with its code) leaves
// the finding at the method.
use rmcp::{model::*, service::RequestContext, ErrorData, RoleServer, ServerHandler};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("MCP error: {0}")]
    Mcp(#[from] ErrorData),
}

impl From<AppError> for ErrorData {
    fn from(err: AppError) -> Self {
        ErrorData::internal_error(err.to_string(), None) //~ tool_failure_as_protocol_error
    }
}

pub struct Service;

impl Service {
    pub async fn read(&self, path: String) -> Result<CallToolResult, ErrorData> {
        let t = std::fs::read_to_string(&path)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![Content::text(t)]))
    }

    pub async fn write(&self, path: String) -> Result<CallToolResult, ErrorData> {
        std::fs::write(&path, "x").map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![Content::text("written")]))
    }

    pub async fn remove(&self, path: String) -> Result<CallToolResult, ErrorData> {
        std::fs::remove_file(&path)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text("removed")]))
    }

    pub async fn stat(&self, path: String) -> Result<CallToolResult, ErrorData> {
        let m = std::fs::metadata(&path)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(m.len().to_string())]))
    }
}

impl ServerHandler for Service {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let path = request.name.to_string();
        match request.name.as_ref() {
            "read" => self.read(path).await.map_err(AppError::Mcp).map_err(ErrorData::from),
            "write" => self
                .write(path)
                .await
                .map_err(|e| ErrorData::internal_error(format!("write failed: {e}"), None)), //~ tool_failure_as_protocol_error
            "remove" => self.remove(path).await.map_err(|e| e),
            "stat" => self
                .stat(path)
                .await
                .map_err(|e| ErrorData::new(e.code, format!("stat failed: {}", e.message), None)),
            _ => Err(ErrorData::invalid_params(format!("no tool named {}", request.name), None)),
        }
    }
}
