//! The MCP surface: one tool per GitHub operation.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::model::{CallToolResult, Content, Implementation, ServerCapabilities, ServerInfo};
use rmcp::{schemars, tool, ServerHandler};
use serde::Deserialize;

use crate::github::{GhError, GitHub, Issue};
use crate::McpError;

const MAX_COMMENT_CHARS: usize = 65_536;

#[derive(Clone)]
pub struct GhServer {
    github: GitHub,
    default_repo: Option<String>,
    read_only: bool,
    cache: Arc<Mutex<HashMap<(String, u64), Issue>>>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CreateIssue {
    #[schemars(description = "Repository as owner/name; defaults to GH_DEFAULT_REPO")]
    pub repo: Option<String>,
    #[schemars(description = "Issue title")]
    pub title: String,
    #[schemars(description = "Markdown body")]
    pub body: Option<String>,
    #[serde(default)]
    pub labels: Vec<String>,
}

fn render_issue(issue: &Issue) -> String {
    let labels: Vec<&str> = issue.labels.iter().map(|l| l.name.as_str()).collect();
    format!(
        "#{} {} [{}] by @{} ({} comments){}\n{}\n\n{}",
        issue.number,
        issue.title,
        issue.state,
        issue.user.login,
        issue.comments,
        if labels.is_empty() {
            String::new()
        } else {
            format!(" labels: {}", labels.join(", "))
        },
        issue.html_url,
        issue.body.as_deref().unwrap_or("(no description)")
    )
}

impl GhServer {
    pub fn new(github: GitHub, default_repo: Option<String>, read_only: bool) -> Self {
        Self {
            github,
            default_repo,
            read_only,
            cache: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    fn repo_or_default(&self, repo: Option<String>) -> Result<String, CallToolResult> {
        match repo.or_else(|| self.default_repo.clone()) {
            Some(r) => Ok(r),
            None => Err(CallToolResult::error(vec![Content::text(
                "no repository given and GH_DEFAULT_REPO is not set; pass repo as owner/name",
            )])),
        }
    }
}

#[tool(tool_box)]
impl GhServer {
    #[tool(description = "List issues of a repository, optionally filtered by state and labels")]
    async fn list_issues(
        &self,
        #[tool(param)]
        #[schemars(description = "Repository as owner/name")]
        repo: String,
        #[tool(param)]
        #[schemars(description = "open, closed or all (default open)")]
        state: Option<String>,
        #[tool(param)]
        #[schemars(description = "Only issues carrying all of these labels")]
        labels: Option<Vec<String>>,
    ) -> Result<CallToolResult, McpError> {
        if !repo.contains('/') {
            return Err(McpError::invalid_params(
                "repo must look like owner/name",
                None,
            ));
        }
        let state = state.unwrap_or_else(|| "open".to_string());
        if !matches!(state.as_str(), "open" | "closed" | "all") {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "state must be one of open, closed, all; got {state:?}"
            ))]));
        }
        let issues = self
            .github
            .list_issues(&repo, &state, &labels.unwrap_or_default())
            .await?;
        if issues.is_empty() {
            return Ok(CallToolResult::success(vec![Content::text(format!(
                "No {state} issues in {repo}."
            ))]));
        }
        let lines: Vec<String> = issues
            .iter()
            .map(|i| format!("#{} {} [{}]", i.number, i.title, i.state))
            .collect();
        Ok(CallToolResult::success(vec![Content::text(
            lines.join("\n"),
        )]))
    }

    #[tool(description = "Read one issue with its body")]
    async fn get_issue(
        &self,
        #[tool(param)] repo: String,
        #[tool(param)] number: u64,
    ) -> Result<CallToolResult, McpError> {
        let key = (repo.clone(), number);
        if let Some(hit) = self
            .cache
            .lock()
            .map_err(|_| McpError::internal_error("issue cache lock poisoned", None))?
            .get(&key)
        {
            return Ok(CallToolResult::success(vec![Content::text(render_issue(
                hit,
            ))]));
        }
        let issue = self.github.issue(&repo, number).await?;
        let text = render_issue(&issue);
        self.cache
            .lock()
            .map_err(|_| McpError::internal_error("issue cache lock poisoned", None))?
            .insert(key, issue);
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Open a new issue")]
    async fn create_issue(
        &self,
        #[tool(aggr)] req: CreateIssue,
    ) -> Result<CallToolResult, McpError> {
        if self.read_only {
            return Ok(CallToolResult {
                content: vec![],
                is_error: Some(true),
            });
        }
        let repo = match self.repo_or_default(req.repo) {
            Ok(r) => r,
            Err(result) => return Ok(result),
        };
        if req.title.trim().is_empty() {
            return Ok(CallToolResult {
                content: vec![Content::text("title must not be empty")],
                is_error: Some(true),
            });
        }
        let issue = self
            .github
            .create_issue(&repo, &req.title, req.body.as_deref(), &req.labels)
            .await?;
        Ok(CallToolResult::success(vec![Content::text(format!(
            "Created #{} in {repo}: {}",
            issue.number, issue.html_url
        ))]))
    }

    #[tool(description = "Add a comment to an issue")]
    async fn add_comment(
        &self,
        #[tool(param)] repo: String,
        #[tool(param)] number: u64,
        #[tool(param)] body: String,
    ) -> Result<CallToolResult, McpError> {
        if body.trim().is_empty() {
            return Ok(CallToolResult::error(vec![Content::text("Error")]));
        }
        if body.chars().count() > MAX_COMMENT_CHARS {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "comment is {} characters; GitHub accepts at most {MAX_COMMENT_CHARS}",
                body.chars().count()
            ))]));
        }
        let url = self.github.comment(&repo, number, &body).await?;
        Ok(CallToolResult::success(vec![Content::text(format!(
            "Commented: {url}"
        ))]))
    }

    #[tool(description = "Close an issue as completed or not_planned")]
    async fn close_issue(
        &self,
        #[tool(param)] repo: String,
        #[tool(param)] number: u64,
        #[tool(param)]
        #[schemars(description = "completed or not_planned")]
        reason: String,
    ) -> Result<CallToolResult, McpError> {
        if !matches!(reason.as_str(), "completed" | "not_planned") {
            return Err(McpError::invalid_params(
                format!("unknown close reason {reason:?}; use completed or not_planned"),
                None,
            ));
        }
        let issue = self.github.close(&repo, number, &reason).await?;
        if let Ok(mut cache) = self.cache.lock() {
            cache.remove(&(repo, number));
        }
        Ok(CallToolResult::success(vec![Content::text(format!(
            "Closed #{} ({reason})",
            issue.number
        ))]))
    }

    #[tool(
        description = "Search issues with GitHub's search syntax, e.g. `repo:o/r is:open label:bug`"
    )]
    async fn search_issues(
        &self,
        #[tool(param)] query: String,
    ) -> Result<CallToolResult, McpError> {
        match self.github.search(&query).await {
            Ok(items) if items.is_empty() => Ok(CallToolResult::success(vec![Content::text(
                format!("No issues match {query:?}."),
            )])),
            Ok(items) => Ok(CallToolResult::success(
                items
                    .iter()
                    .map(|i| Content::text(format!("#{} {} {}", i.number, i.title, i.html_url)))
                    .collect(),
            )),
            Err(GhError::RateLimited { reset }) => Ok(CallToolResult::error(vec![Content::text(
                format!("GitHub search is rate limited until unix time {reset}; retry later"),
            )])),
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!(
                "Search failed: {e}"
            ))])),
        }
    }
}

#[tool(tool_box)]
impl ServerHandler for GhServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            server_info: Implementation {
                name: "gh-issues".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            },
            instructions: Some(
                "Tools for GitHub issues. Repositories are written owner/name.".into(),
            ),
            capabilities: ServerCapabilities::builder().enable_tools().build(),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_error(r: &CallToolResult) -> bool {
        r.is_error == Some(true)
    }

    #[test]
    fn empty_error_result_is_still_an_error() {
        let r = CallToolResult::error(vec![]);
        assert!(is_error(&r));
        assert!(r.content.is_empty());
    }

    #[test]
    fn protocol_errors_keep_their_message() {
        let e = McpError::internal_error("error", None);
        assert_eq!(e.message, "error");
    }
}
