//@ rmcp = "2.2"
// rmcp 2.x (`ContentBlock`). When every caller of an error-building helper is a tool, the
// finding goes where the fix goes: once, at the helper's construction, not at each call site.
// That holds for a `.map_err(helper)` fn, a `?` through `impl From<_> for McpError`, and a method
// called from a tool. Helpers that no tool reaches build protocol errors freely.
use std::path::PathBuf;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, ContentBlock, ReadResourceRequestParams, ReadResourceResult, ResourceContents,
        ServerCapabilities, ServerInfo,
    },
    schemars,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("bucket {0} does not exist")]
    NoBucket(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl From<StoreError> for McpError {
    fn from(e: StoreError) -> Self {
        McpError::internal_error(e.to_string(), None) //~ tool_failure_as_protocol_error
    }
}

/// Used as `.map_err(internal)` by the tools below, and by nothing else.
fn internal(e: impl std::fmt::Display) -> McpError {
    McpError::internal_error(e.to_string(), None) //~ tool_failure_as_protocol_error
}

/// Only `read_resource` uses this one: a protocol error is right there.
fn storage_unavailable(e: std::io::Error) -> McpError {
    McpError::internal_error(format!("storage unavailable: {e}"), None)
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ObjectArgs {
    pub bucket: String,
    pub key: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct BucketArgs {
    pub bucket: String,
}

#[derive(Clone)]
pub struct Blobs {
    root: PathBuf,
    tool_router: ToolRouter<Self>,
}

impl Blobs {
    async fn keys(&self, bucket: &str) -> Result<Vec<String>, StoreError> {
        let dir = self.root.join(bucket);
        if !dir.is_dir() {
            return Err(StoreError::NoBucket(bucket.to_string()));
        }
        let mut keys = Vec::new();
        let mut entries = tokio::fs::read_dir(dir).await?;
        while let Some(entry) = entries.next_entry().await? {
            keys.push(entry.file_name().to_string_lossy().into_owned());
        }
        Ok(keys)
    }

    /// A method helper: tools reach it through `self.quota(..)`.
    async fn quota(&self, bucket: &str) -> Result<u64, McpError> {
        let meta = tokio::fs::metadata(self.root.join(bucket)).await.map_err(|e| McpError::internal_error(format!("no quota for {bucket}: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(meta.len())
    }
}

#[tool_router]
impl Blobs {
    pub fn new(root: PathBuf) -> Self {
        Self { root, tool_router: Self::tool_router() }
    }

    #[tool(description = "List the keys of a bucket")]
    async fn list(&self, Parameters(BucketArgs { bucket }): Parameters<BucketArgs>) -> Result<CallToolResult, McpError> {
        // `?` converts StoreError through the From impl above: reported there, once.
        let keys = self.keys(&bucket).await?;
        let used = self.quota(&bucket).await?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{} ({used} bytes)", keys.join("\n")))]))
    }

    #[tool(description = "Read one object")]
    async fn get(&self, Parameters(ObjectArgs { bucket, key }): Parameters<ObjectArgs>) -> Result<CallToolResult, McpError> {
        let bytes = tokio::fs::read(self.root.join(&bucket).join(&key)).await.map_err(internal)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(String::from_utf8_lossy(&bytes).into_owned())]))
    }

    #[tool(description = "Delete one object")]
    async fn delete(&self, Parameters(ObjectArgs { bucket, key }): Parameters<ObjectArgs>) -> Result<CallToolResult, McpError> {
        tokio::fs::remove_file(self.root.join(&bucket).join(&key)).await.map_err(internal)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("deleted {bucket}/{key}"))]))
    }
}

#[tool_handler]
impl ServerHandler for Blobs {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let path = request.uri.trim_start_matches("blob://");
        let text = tokio::fs::read_to_string(self.root.join(path)).await.map_err(storage_unavailable)?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]))
    }
}
