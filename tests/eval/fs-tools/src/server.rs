use std::path::PathBuf;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    AnnotateAble, Implementation, ListResourcesResult, PaginatedRequestParam, RawResource,
    ReadResourceRequestParam, ReadResourceResult, ResourceContents, ServerCapabilities, ServerInfo,
};
use rmcp::service::RequestContext;
use rmcp::{schemars, tool, tool_handler, tool_router, RoleServer, ServerHandler};
use serde::Deserialize;

use crate::errors::{internal, io_error};
use crate::prelude::*;
use crate::sandbox::Sandbox;

const DEFAULT_MAX_BYTES: usize = 256 * 1024;
const MAX_SEARCH_HITS: usize = 200;

#[derive(Clone)]
pub struct FsServer {
    sandbox: Sandbox,
    read_only: bool,
    tool_router: ToolRouter<Self>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PathArg {
    /// Path relative to the workspace root
    pub path: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ReadFile {
    /// Path relative to the workspace root
    pub path: String,
    /// Read at most this many bytes (default 256 KiB)
    pub max_bytes: Option<usize>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct WriteFile {
    pub path: String,
    pub contents: String,
    /// Create missing parent directories
    #[serde(default)]
    pub create_dirs: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct MoveFile {
    pub from: String,
    pub to: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Search {
    /// Regular expression (Rust regex syntax)
    pub pattern: String,
    /// Directory to search in, relative to the root (default: the root)
    pub dir: Option<String>,
}

fn bad_path(e: impl std::fmt::Display) -> CallToolResult {
    CallToolResult::error(vec![Content::text(format!(
        "{e}; paths are relative to the workspace root and may not leave it"
    ))])
}

#[tool_router]
impl FsServer {
    pub fn new(sandbox: Sandbox, read_only: bool) -> Self {
        Self {
            sandbox,
            read_only,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Read a UTF-8 text file")]
    async fn read_file(
        &self,
        Parameters(ReadFile { path, max_bytes }): Parameters<ReadFile>,
    ) -> Result<CallToolResult, McpError> {
        let path = match self.sandbox.resolve(&path) {
            Ok(p) => p,
            Err(e) => return Ok(bad_path(e)),
        };
        let mut bytes = tokio::fs::read(&path)
            .await
            .map_err(|e| io_error(&path, e))?;
        let limit = max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
        let truncated = bytes.len() > limit;
        bytes.truncate(limit);
        let text = String::from_utf8(bytes).map_err(|_| {
            McpError::invalid_params(
                format!(
                    "{} is not a UTF-8 text file",
                    self.sandbox.relative(&path).display()
                ),
                None,
            )
        })?;
        let mut content = vec![Content::text(text)];
        if truncated {
            content.push(Content::text(format!(
                "[truncated at {limit} bytes; pass a larger max_bytes to read more]"
            )));
        }
        Ok(CallToolResult::success(content))
    }

    #[tool(description = "Create or overwrite a text file")]
    async fn write_file(
        &self,
        Parameters(WriteFile {
            path,
            contents,
            create_dirs,
        }): Parameters<WriteFile>,
    ) -> Result<CallToolResult, McpError> {
        if self.read_only {
            return Err(McpError::invalid_request(
                "the workspace is mounted read-only",
                None,
            ));
        }
        let path = self
            .sandbox
            .resolve(&path)
            .map_err(|e| McpError::invalid_params(e.to_string(), None))?;
        if create_dirs {
            if let Some(parent) = path.parent() {
                tokio::fs::create_dir_all(parent)
                    .await
                    .map_err(|e| io_error(parent, e))?;
            }
        }
        tokio::fs::write(&path, contents.as_bytes())
            .await
            .map_err(|e| io_error(&path, e))?;
        Ok(CallToolResult::success(vec![Content::text(format!(
            "wrote {} bytes to {}",
            contents.len(),
            self.sandbox.relative(&path).display()
        ))]))
    }

    #[tool(description = "List a directory")]
    async fn list_dir(
        &self,
        Parameters(PathArg { path }): Parameters<PathArg>,
    ) -> Result<CallToolResult, McpError> {
        let dir = match self.sandbox.resolve(&path) {
            Ok(p) => p,
            Err(e) => return Ok(bad_path(e)),
        };
        let mut entries = tokio::fs::read_dir(&dir)
            .await
            .map_err(|e| io_error(&dir, e))?;
        let mut lines = Vec::new();
        while let Some(entry) = entries.next_entry().await.map_err(|e| io_error(&dir, e))? {
            let meta = entry.metadata().await.map_err(internal)?;
            let kind = if meta.is_dir() { "dir " } else { "file" };
            lines.push(format!(
                "{kind} {:>10} {}",
                meta.len(),
                entry.file_name().to_string_lossy()
            ));
        }
        lines.sort();
        if lines.is_empty() {
            return Ok(CallToolResult::success(vec![Content::text(format!(
                "{path} is empty"
            ))]));
        }
        Ok(CallToolResult::success(vec![Content::text(
            lines.join("\n"),
        )]))
    }

    #[tool(description = "Search file contents with a regular expression")]
    async fn search(
        &self,
        Parameters(Search { pattern, dir }): Parameters<Search>,
    ) -> Result<CallToolResult, McpError> {
        let re = regex::Regex::new(&pattern).map_err(|e| {
            McpError::invalid_params(format!("invalid regular expression {pattern:?}: {e}"), None)
        })?;
        let root = match self.sandbox.resolve(dir.as_deref().unwrap_or(".")) {
            Ok(p) => p,
            Err(e) => return Ok(bad_path(e)),
        };
        let sandbox = self.sandbox.clone();
        let hits = tokio::task::spawn_blocking(move || {
            let mut hits = Vec::new();
            for entry in walkdir::WalkDir::new(&root)
                .into_iter()
                .filter_map(Result::ok)
            {
                if !entry.file_type().is_file() {
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(entry.path()) else {
                    continue;
                };
                for (n, line) in text.lines().enumerate() {
                    if re.is_match(line) {
                        hits.push(format!(
                            "{}:{}: {}",
                            sandbox.relative(entry.path()).display(),
                            n + 1,
                            line.trim()
                        ));
                        if hits.len() == MAX_SEARCH_HITS {
                            return hits;
                        }
                    }
                }
            }
            hits
        })
        .await
        .map_err(internal)?;
        if hits.is_empty() {
            return Ok(CallToolResult::success(vec![Content::text(format!(
                "no matches for {pattern:?}"
            ))]));
        }
        Ok(CallToolResult::success(vec![Content::text(
            hits.join("\n"),
        )]))
    }

    #[tool(description = "Size, kind and modification time of a path")]
    async fn file_info(
        &self,
        Parameters(PathArg { path }): Parameters<PathArg>,
    ) -> Result<CallToolResult, McpError> {
        let resolved = match self.sandbox.resolve(&path) {
            Ok(p) => p,
            Err(e) => return Ok(bad_path(e)),
        };
        let meta = tokio::fs::metadata(&resolved).await.map_err(internal)?;
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_secs());
        let info = json!({
            "path": path,
            "kind": if meta.is_dir() { "directory" } else { "file" },
            "bytes": meta.len(),
            "modified_unix": modified,
            "read_only": meta.permissions().readonly(),
        });
        Ok(CallToolResult::success(vec![Content::json(info)?]))
    }

    #[tool(description = "Move or rename a file")]
    async fn move_file(
        &self,
        Parameters(MoveFile { from, to }): Parameters<MoveFile>,
    ) -> Result<CallToolResult, McpError> {
        if self.read_only {
            return Ok(CallToolResult::error(vec![Content::text(
                "the workspace is mounted read-only; move_file is disabled",
            )]));
        }
        let (src, dst) = match (self.sandbox.resolve(&from), self.sandbox.resolve(&to)) {
            (Ok(s), Ok(d)) => (s, d),
            (Err(e), _) | (_, Err(e)) => return Ok(bad_path(e)),
        };
        match tokio::fs::rename(&src, &dst).await {
            Ok(()) => Ok(CallToolResult::success(vec![Content::text(format!(
                "moved {from} to {to}"
            ))])),
            Err(e) => Ok(CallToolResult::error(vec![Content::text(format!(
                "could not move {from} to {to}: {e}"
            ))])),
        }
    }

    #[tool(description = "Delete a file")]
    async fn delete_file(
        &self,
        Parameters(PathArg { path }): Parameters<PathArg>,
    ) -> Result<String, String> {
        if self.read_only {
            return Err("operation failed".into());
        }
        let resolved = self.sandbox.resolve(&path).map_err(|e| e.to_string())?;
        tokio::fs::remove_file(&resolved)
            .await
            .map_err(|e| format!("could not delete {path}: {e}"))?;
        Ok(format!("deleted {path}"))
    }
}

#[tool_handler]
impl ServerHandler for FsServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            capabilities: ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
            server_info: Implementation::from_build_env(),
            instructions: Some(format!(
                "File tools rooted at {}. Top-level files are also resources (file:///<path>).",
                self.sandbox.root().display()
            )),
            ..Default::default()
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParam>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let mut entries = tokio::fs::read_dir(self.sandbox.root())
            .await
            .map_err(internal)?;
        let mut resources = Vec::new();
        while let Some(entry) = entries.next_entry().await.map_err(internal)? {
            if entry.file_type().await.map_err(internal)?.is_file() {
                let name = entry.file_name().to_string_lossy().into_owned();
                resources.push(RawResource::new(format!("file:///{name}"), name).no_annotation());
            }
        }
        Ok(ListResourcesResult {
            resources,
            next_cursor: None,
        })
    }

    async fn read_resource(
        &self,
        ReadResourceRequestParam { uri }: ReadResourceRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let Some(rel) = uri.strip_prefix("file:///") else {
            return Err(McpError::invalid_params(
                format!("expected a file:/// uri, got {uri}"),
                Some(json!({ "uri": uri })),
            ));
        };
        let path: PathBuf = self.sandbox.resolve(rel).map_err(|e| {
            McpError::resource_not_found(e.to_string(), Some(json!({ "uri": uri })))
        })?;
        if !tokio::fs::try_exists(&path).await.map_err(internal)? {
            return Err(McpError::resource_not_found(
                format!("no file at {uri}"),
                Some(json!({ "uri": uri })),
            ));
        }
        let text = tokio::fs::read_to_string(&path).await.map_err(internal)?;
        Ok(ReadResourceResult {
            contents: vec![ResourceContents::text(text, uri)],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_path_results_are_errors_with_text() {
        let r = bad_path("../x is outside the workspace root");
        assert_eq!(r.is_error, Some(true));
        assert!(!r.content.is_empty());
    }

    #[test]
    fn helper_errors_are_internal() {
        let e = internal("failed");
        assert_eq!(e.code, rmcp::model::ErrorCode::INTERNAL_ERROR);
        let empty = CallToolResult::error(vec![]);
        assert!(empty.content.is_empty());
    }
}
