//@ dep: mcp-attr = "0.0.7"
// mcp-attr 0.0.7 `#[tool]` fns: `Ok(String)` becomes a success result. `Err(e) => Ok(..)` with the
// error's text reports a failure as success; the isError literal is the right answer (a plain
// `Err` would be a protocol error, which is another lint).
use mcp_attr::schema::{CallToolResult, TextContent};
use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::Result;

struct Git;

#[mcp_server]
impl McpServer for Git {
    /// The current branch of a repository.
    #[tool]
    async fn current_branch(&self, repo: String) -> Result<String> {
        match std::fs::read_to_string(format!("{repo}/.git/HEAD")) {
            Ok(head) => Ok(head.trim().trim_start_matches("ref: refs/heads/").to_string()),
            Err(e) => Ok(format!("could not read {repo}/.git/HEAD: {e}")), //~ failure_as_success
        }
    }

    /// The configured remote URL.
    #[tool]
    async fn remote_url(&self, repo: String) -> Result<CallToolResult> {
        match std::fs::read_to_string(format!("{repo}/.git/config")) {
            Ok(config) => Ok(config.lines().find(|l| l.trim_start().starts_with("url =")).unwrap_or("no remote").to_string().into()),
            Err(e) => Ok(CallToolResult {
                content: vec![TextContent::new(format!("cannot read {repo}/.git/config: {e}")).into()],
                is_error: Some(true),
                meta: Default::default(),
            }),
        }
    }
}
