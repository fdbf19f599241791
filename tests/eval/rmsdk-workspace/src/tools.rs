//! Tool definitions: one `#[mcp_tool]` struct per tool, dispatched through `WorkspaceTools`.

use std::path::Path;

use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{CallToolResult, TextContent};
use rust_mcp_sdk::tool_box;
use serde_json::json;

use crate::sandbox::Sandbox;

const MAX_READ_BYTES: u64 = 2 * 1024 * 1024;

#[mcp_tool(
    name = "read_file",
    description = "Read a UTF-8 text file inside the workspace",
    read_only_hint = true
)]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct ReadFileTool {
    /// Path relative to a workspace root
    pub path: String,
    /// Return at most this many lines from the start of the file
    pub max_lines: Option<usize>,
}

impl ReadFileTool {
    pub async fn run_tool(self, sandbox: &Sandbox) -> Result<CallToolResult, CallToolError> {
        let path = sandbox.resolve(&self.path).map_err(CallToolError::new)?;
        let meta = tokio::fs::metadata(&path).await.map_err(CallToolError::new)?;
        if meta.len() > MAX_READ_BYTES {
            return Err(CallToolError::from_message(format!(
                "{} is {} bytes; read_file returns at most {MAX_READ_BYTES} bytes, use search_files to find the part you need",
                self.path,
                meta.len()
            )));
        }
        let text = tokio::fs::read_to_string(&path).await.map_err(|e| {
            CallToolError::from_message(format!("cannot read {} as UTF-8 text: {e}", self.path))
        })?;
        let text = match self.max_lines {
            Some(0) => {
                return Err(CallToolError::invalid_arguments(
                    "read_file",
                    Some("max_lines must be at least 1".to_string()),
                ))
            }
            Some(n) => text.lines().take(n).collect::<Vec<_>>().join("\n"),
            None => text,
        };
        Ok(CallToolResult::text_content(vec![TextContent::from(text)]))
    }
}

#[mcp_tool(
    name = "write_file",
    description = "Create or overwrite a text file inside the workspace",
    destructive_hint = true
)]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct WriteFileTool {
    pub path: String,
    pub content: String,
    /// Refuse to overwrite an existing file unless true
    pub overwrite: Option<bool>,
}

impl WriteFileTool {
    pub async fn run_tool(self, sandbox: &Sandbox) -> Result<CallToolResult, CallToolError> {
        let path = sandbox.resolve_new(&self.path).map_err(CallToolError::new)?;
        if path.exists() && !self.overwrite.unwrap_or(false) {
            return Err(CallToolError::from_message(format!(
                "{} already exists; pass overwrite: true to replace it",
                self.path
            )));
        }
        if let Some(parent) = path.parent() {
            tokio::fs::create_dir_all(parent)
                .await
                .map_err(CallToolError::new)?;
        }
        tokio::fs::write(&path, self.content.as_bytes())
            .await
            .map_err(|e| CallToolError::from_message(format!("cannot write {}: {e}", self.path)))?;
        Ok(CallToolResult::text_content(vec![TextContent::from(format!(
            "wrote {} bytes to {}",
            self.content.len(),
            self.path
        ))]))
    }
}

#[mcp_tool(
    name = "search_files",
    description = "Find files whose path matches a glob pattern, e.g. `src/**/*.rs`",
    read_only_hint = true
)]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct SearchFilesTool {
    pub pattern: String,
    pub limit: Option<usize>,
}

impl SearchFilesTool {
    pub async fn run_tool(self, sandbox: &Sandbox) -> Result<CallToolResult, CallToolError> {
        let limit = self.limit.unwrap_or(200);
        let mut hits = Vec::new();
        for root in sandbox.roots() {
            let full = root.join(&self.pattern);
            let paths = match glob::glob(&full.to_string_lossy()) {
                Ok(paths) => paths,
                Err(_) => return Err(CallToolError::from_message("Invalid input")),
            };
            for entry in paths.flatten() {
                if hits.len() == limit {
                    break;
                }
                if let Ok(rel) = entry.strip_prefix(root) {
                    hits.push(rel.display().to_string());
                }
            }
        }
        if hits.is_empty() {
            return Ok(CallToolResult::text_content(vec![TextContent::from(format!(
                "no files match {}",
                self.pattern
            ))]));
        }
        Ok(CallToolResult::text_content(vec![TextContent::from(hits.join("\n"))]))
    }
}

#[mcp_tool(
    name = "list_directory",
    description = "List the entries of a directory inside the workspace",
    read_only_hint = true
)]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct ListDirectoryTool {
    pub path: String,
}

impl ListDirectoryTool {
    pub async fn run_tool(self, sandbox: &Sandbox) -> Result<CallToolResult, CallToolError> {
        let dir = sandbox.resolve(&self.path).map_err(CallToolError::new)?;
        match list_entries(&dir).await {
            Ok(entries) => Ok(CallToolResult::text_content(vec![TextContent::from(
                entries.join("\n"),
            )])),
            Err(e) => Ok(CallToolResult::text_content(vec![TextContent::from(format!(
                "Error listing {}: {e}",
                self.path
            ))])),
        }
    }
}

async fn list_entries(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut out = Vec::new();
    let mut rd = tokio::fs::read_dir(dir).await?;
    while let Some(entry) = rd.next_entry().await? {
        let kind = if entry.file_type().await?.is_dir() { "dir " } else { "file" };
        out.push(format!("{kind} {}", entry.file_name().to_string_lossy()));
    }
    out.sort();
    Ok(out)
}

#[mcp_tool(
    name = "move_file",
    description = "Move or rename files; with dry_run, only report what would conflict",
    destructive_hint = true
)]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct MoveFileTool {
    /// Pairs of [from, to] paths
    pub moves: Vec<(String, String)>,
    pub dry_run: Option<bool>,
}

impl MoveFileTool {
    pub async fn run_tool(self, sandbox: &Sandbox) -> Result<CallToolResult, CallToolError> {
        let mut conflicts = Vec::new();
        let mut planned = Vec::new();
        for (from, to) in &self.moves {
            let src = sandbox.resolve(from).map_err(CallToolError::new)?;
            let dst = sandbox.resolve_new(to).map_err(CallToolError::new)?;
            if dst.exists() {
                conflicts.push(json!({ "from": from, "to": to, "reason": "target exists" }));
            } else {
                planned.push((src, dst));
            }
        }
        if !conflicts.is_empty() {
            return Ok(CallToolResult {
                content: vec![],
                is_error: Some(true),
                meta: None,
                structured_content: Some(json!({ "conflicts": conflicts })),
                result_type: "complete".to_string(),
            });
        }
        if self.dry_run.unwrap_or(false) {
            return Ok(CallToolResult::text_content(vec![TextContent::from(format!(
                "{} moves planned, no conflicts",
                planned.len()
            ))]));
        }
        for (src, dst) in &planned {
            tokio::fs::rename(src, dst).await.map_err(|e| {
                CallToolError::from_message(format!(
                    "cannot move {} to {}: {e}",
                    src.display(),
                    dst.display()
                ))
            })?;
        }
        Ok(CallToolResult::text_content(vec![TextContent::from(format!(
            "moved {} files",
            planned.len()
        ))]))
    }
}

#[mcp_tool(
    name = "file_info",
    description = "Size, modification time and kind of a path inside the workspace",
    read_only_hint = true
)]
#[derive(Debug, ::serde::Deserialize, ::serde::Serialize, JsonSchema)]
pub struct FileInfoTool {
    pub path: String,
}

impl FileInfoTool {
    pub async fn run_tool(self, sandbox: &Sandbox) -> Result<CallToolResult, CallToolError> {
        let path = sandbox.resolve(&self.path).map_err(CallToolError::new)?;
        let meta = tokio::fs::metadata(&path)
            .await
            .map_err(|e| CallToolError::from_message(format!("cannot stat {}: {e}", self.path)))?;
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_secs());
        let info = json!({
            "path": self.path,
            "size": meta.len(),
            "kind": if meta.is_dir() { "directory" } else { "file" },
            "modified_unix": modified,
            "readonly": meta.permissions().readonly(),
        });
        Ok(CallToolResult::text_content(vec![TextContent::from(info.to_string())]))
    }
}

tool_box!(
    WorkspaceTools,
    [
        ReadFileTool,
        WriteFileTool,
        SearchFilesTool,
        ListDirectoryTool,
        MoveFileTool,
        FileInfoTool
    ]
);

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_conflicting_move_is_an_error_result() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "a").unwrap();
        std::fs::write(dir.path().join("b.txt"), "b").unwrap();
        let sandbox = Sandbox::new(vec![dir.path().to_path_buf()]);
        let tool = MoveFileTool {
            moves: vec![("a.txt".into(), "b.txt".into())],
            dry_run: None,
        };
        let result = tool.run_tool(&sandbox).await.unwrap();
        assert_eq!(result.is_error, Some(true));
        let expected = CallToolResult {
            content: vec![],
            is_error: Some(true),
            meta: None,
            structured_content: result.structured_content.clone(),
            result_type: "complete".to_string(),
        };
        assert_eq!(result.content.len(), expected.content.len());
    }

    #[test]
    fn messages_render_as_text() {
        let err = CallToolError::from_message("");
        assert_eq!(err.to_string(), "");
        let vague = CallToolError::from_message("failed");
        assert_eq!(vague.to_string(), "failed");
    }
}
