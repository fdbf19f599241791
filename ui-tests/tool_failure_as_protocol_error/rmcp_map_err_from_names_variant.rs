//@ rmcp = "3.11"
//@ dep: thiserror = "2"
// `.map_err(DocError::from)?` converts twice: into the crate's `DocError` (the variant whose
// `#[from]` field takes the upstream client's error, `Upstream`), then by `?` through `From<DocError>
// for McpError`. Only tools' `?` reach that impl, so its `Upstream` arm is reported (-32603 for an
// upstream failure, a tool's own), with the `?` attached; the `NotFound` arm, which no tool's
// `?` passes, is not.
use rmcp::{model::CallToolResult, tool, tool_router, ErrorData as McpError};

#[derive(Debug, thiserror::Error)]
#[error("translation service answered {0}")]
pub struct UpstreamError(pub u16);

#[derive(Debug, thiserror::Error)]
pub enum DocError {
    #[error("document {0} not found")]
    NotFound(String),
    #[error("translation service: {0}")]
    Upstream(#[from] UpstreamError),
}

impl From<DocError> for McpError {
    fn from(e: DocError) -> Self {
        match e {
            DocError::NotFound(id) => McpError::invalid_params(format!("document {id} not found"), None),
            DocError::Upstream(err) => McpError::internal_error(format!("translation service failed: {err}"), None), //~ tool_failure_as_protocol_error
        }
    }
}

pub struct Upstream;

impl Upstream {
    pub async fn glossary(&self) -> Result<Vec<String>, UpstreamError> {
        Err(UpstreamError(503))
    }
}

pub struct Server {
    upstream: Upstream,
}

#[tool_router]
impl Server {
    #[tool(description = "Reload the glossary from the translation service")]
    async fn refresh_glossary(&self) -> Result<CallToolResult, McpError> {
        let entries = self.upstream.glossary().await.map_err(DocError::from)?;
        Ok(CallToolResult::success(vec![rmcp::model::ContentBlock::text(entries.join(", "))]))
    }
}
