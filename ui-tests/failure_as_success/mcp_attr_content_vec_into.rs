//@ dep: mcp-attr = "0.0.7"
// mcp-attr 0.0.7: `impl<T: Into<CallToolResultContentItem>> From<Vec<T>> for CallToolResult`
// builds `is_error: None`, a success result, whether written `vec![..].into()` or
// `CallToolResult::from(vec![..])`. A failure answered with one is a failure the model reads as
// success; the success answers themselves are fine.
use mcp_attr::schema::{CallToolResult, TextContent};
use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::Result;

struct Importer;

fn import(path: &str) -> std::io::Result<usize> {
    Ok(std::fs::read_to_string(path)?.lines().count())
}

#[mcp_server]
impl McpServer for Importer {
    /// Import snippets from a file on disk.
    #[tool]
    async fn import_file(&self, path: String) -> Result<CallToolResult> {
        match import(&path) {
            Ok(n) => Ok(vec![TextContent::new(format!("imported {n} snippets from {path}"))].into()),
            Err(e) => Ok(vec![TextContent::new(format!("Failed to import {path}: {e}"))].into()), //~ failure_as_success
        }
    }

    /// Count the snippets in a file on disk.
    #[tool]
    async fn count_file(&self, path: String) -> Result<CallToolResult> {
        match import(&path) {
            Ok(n) => Ok(CallToolResult::from(vec![TextContent::new(format!("{n} snippets"))])),
            Err(e) => Ok(CallToolResult::from(vec![TextContent::new(format!("Error: cannot read {path}: {e}"))])), //~ failure_as_success
        }
    }
}

fn main() {}
