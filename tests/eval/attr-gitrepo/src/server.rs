//! The MCP server: git tools, HEAD as a resource, and a release-notes prompt.

use std::path::PathBuf;
use std::process::Command;

use mcp_attr::schema::{CallToolResult, TextContent};
use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::{bail_public, Error, ErrorCode, Result};

use crate::git::{is_safe_rev, Repo};

pub struct GitInspector {
    root: PathBuf,
}

impl GitInspector {
    pub fn new(root: PathBuf) -> Self {
        Self { root }
    }

    fn repo(&self) -> Repo<'_> {
        Repo { root: &self.root }
    }
}

/// An isError result the model can read.
fn tool_error(message: impl std::fmt::Display) -> CallToolResult {
    CallToolResult {
        content: vec![TextContent::new(message).into()],
        is_error: Some(true),
        meta: Default::default(),
    }
}

#[mcp_server]
impl McpServer for GitInspector {
    /// Recent commits, newest first
    #[tool]
    async fn log(
        &self,
        /// How many commits to show (1-500, default 20)
        limit: Option<u32>,
        /// Only commits touching this path
        path: Option<String>,
    ) -> Result<CallToolResult> {
        let limit = limit.unwrap_or(20);
        if limit == 0 || limit > 500 {
            return Ok(tool_error(format!("limit must be between 1 and 500, got {limit}")));
        }
        let n = format!("-n{limit}");
        let mut args = vec!["log", "--format=%h %ad %an %s", "--date=short", n.as_str()];
        if let Some(p) = path.as_deref() {
            args.extend(["--", p]);
        }
        let out = self.repo().run_git(&args)?;
        Ok(vec![TextContent::new(out)].into())
    }

    /// Show one commit: message and diffstat
    #[tool]
    async fn show(&self, rev: String) -> Result<String> {
        if !is_safe_rev(&rev) {
            bail_public!(
                ErrorCode::INVALID_PARAMS,
                "`{rev}` is not a revision: use a commit hash, branch, tag or HEAD~N"
            );
        }
        self.repo().run_git(&["show", "--stat", "--format=fuller", &rev])
    }

    /// `git blame` for one line of a file
    #[tool]
    async fn blame(&self, path: String, line: usize) -> Result<CallToolResult> {
        let text = std::fs::read_to_string(self.root.join(&path))?;
        let lines = text.lines().count();
        if line == 0 || line > lines {
            return Ok(tool_error(format!("{path} has {lines} lines; line must be between 1 and {lines}")));
        }
        let range = format!("{line},{line}");
        let out = self
            .repo()
            .run_git(&["blame", "--porcelain", "-L", &range, "--", &path])?;
        Ok(vec![TextContent::new(out)].into())
    }

    /// Local branches, the current one marked with *
    #[tool]
    async fn branches(&self) -> Result<String> {
        self.repo().run_git(&["branch", "--list"])
    }

    /// Switch the working tree to another branch
    #[tool]
    async fn checkout(&self, branch: String) -> Result<CallToolResult> {
        let dirty = self.repo().dirty_files()?;
        if !dirty.is_empty() {
            return Ok(tool_error(format!(
                "the working tree has uncommitted changes in {}; commit or stash them before switching to {branch}",
                dirty.join(", ")
            )));
        }
        self.repo().run_git(&["switch", &branch])?;
        Ok(vec![TextContent::new(format!("switched to {branch}"))].into())
    }

    /// Search tracked files with `git grep` (a POSIX extended regex)
    #[tool]
    async fn grep(&self, pattern: String) -> Result<CallToolResult> {
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.root)
            .args(["grep", "-n", "-E", "-e", &pattern])
            .output()
            .expect("git was found on PATH at startup");
        match out.status.code() {
            Some(0) => Ok(vec![TextContent::new(String::from_utf8_lossy(&out.stdout))].into()),
            Some(1) => Ok(vec![TextContent::new(format!("no tracked file matches {pattern}"))].into()),
            _ => Ok(CallToolResult {
                content: vec![],
                is_error: Some(true),
                meta: Default::default(),
            }),
        }
    }

    /// The commit HEAD points to
    #[resource("git://HEAD", mime_type = "text/plain")]
    async fn head(&self) -> Result<String> {
        let head = self.root.join(".git").join("HEAD");
        match std::fs::read_to_string(&head) {
            Ok(text) => Ok(text.trim().to_string()),
            Err(_) => Err(Error::new(ErrorCode(-32010))
                .with_message(format!("{} is not a git repository", self.root.display()), true)),
        }
    }

    /// Draft release notes from the commits since a tag
    #[prompt]
    async fn release_notes(&self, since: String) -> Result<String> {
        if !is_safe_rev(&since) {
            bail_public!(ErrorCode::INVALID_PARAMS, "invalid input");
        }
        let range = format!("{since}..HEAD");
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.root)
            .args(["log", "--format=- %s", &range])
            .output()?;
        Ok(format!(
            "Write release notes for these changes, grouped by feature and fix:\n{}",
            String::from_utf8_lossy(&out.stdout)
        ))
    }
}
