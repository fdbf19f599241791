//@ dep: kodegen_mcp_schema = "0.10"
//@ dep: serde = "1"
//@ dep: anyhow = "1"
//@ dep: tokio = "1"
// kodegen (kodegen_mcp_schema 0.10): every `Err` of `execute` is a JSON-RPC error. Tools that run
// their work in the background answer two layers, and only the inner one is the tool's failure:
// - `AsyncTask<T>` is the crate's own future over a oneshot channel (`impl Future for
//   AsyncTask<T> { type Output = Result<T, RecvError>; }`): awaiting it fails only when the
//   server's own worker died, also when the task was kept in a local (one call per branch) or
//   the result was; the inner `Result` is the operation on the model's values.
// - `spawn_blocking(move || { ..? .. })`: a `?` inside the closure returns from the closure
//   (into `anyhow::Error`, stated or not), not from `execute`; the closure's error is the tool's
//   failure where the tool maps it (`.map_err(|e| McpError::Other(..))?` after the join).
// - A client built from the process's own configuration (`std::env::var("TOKEN")`) fails on the
//   server's own setup; one built from the model's token is the tool's failure.
// - A helper's `McpError` that a fn failing with `anyhow::Error` passes on with `?` becomes a
//   report; the tool's `.map_err(McpError::Other)?` makes the protocol error anew, and is where
//   it is reported (not at the helper).
use kodegen_mcp_schema::{McpError, Tool, ToolExecutionContext, ToolResponse};
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::sync::oneshot;

pub struct AsyncTask<T> {
    rx: oneshot::Receiver<T>,
}

impl<T: Send + 'static> AsyncTask<T> {
    pub fn spawn<F: FnOnce() -> T + Send + 'static>(f: F) -> Self {
        let (tx, rx) = oneshot::channel();
        tokio::task::spawn_blocking(move || {
            let _ = tx.send(f());
        });
        Self { rx }
    }
}

impl<T> Future for AsyncTask<T> {
    type Output = Result<T, oneshot::error::RecvError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.rx).poll(cx)
    }
}

pub type GitResult<T> = Result<T, anyhow::Error>;

pub fn open_repo(path: String) -> AsyncTask<GitResult<String>> {
    AsyncTask::spawn(move || {
        if !std::path::Path::new(&path).exists() {
            anyhow::bail!("Path does not exist: {path}");
        }
        Ok(path)
    })
}

pub fn init_bare_repo(path: String) -> AsyncTask<GitResult<String>> {
    AsyncTask::spawn(move || {
        std::fs::create_dir_all(&path)?;
        Ok(path)
    })
}

pub struct Forge {
    token: String,
}

pub struct ForgeBuilder {
    token: Option<String>,
}

impl ForgeBuilder {
    pub fn token(mut self, token: String) -> Self {
        self.token = Some(token);
        self
    }

    pub fn build(self) -> GitResult<Forge> {
        let token = self.token.ok_or_else(|| anyhow::anyhow!("no token"))?;
        Ok(Forge { token })
    }
}

impl Forge {
    pub fn builder() -> ForgeBuilder {
        ForgeBuilder { token: None }
    }

    pub fn issue(&self, number: u64) -> AsyncTask<GitResult<String>> {
        let token = self.token.clone();
        AsyncTask::spawn(move || match number {
            0 => anyhow::bail!("issue {number} not found"),
            _ => Ok(format!("issue {number} as {token}")),
        })
    }
}

#[derive(Deserialize)]
pub struct RepoArgs {
    pub path: String,
    pub bare: bool,
    pub number: u64,
    pub token: Option<String>,
}

#[derive(Serialize)]
pub struct RepoOutput {
    pub head: String,
}

pub struct RepoTool;

impl Tool for RepoTool {
    type Args = RepoArgs;
    type Prompts = ();

    fn name() -> &'static str {
        "repo"
    }

    fn description() -> &'static str {
        "Open or create a repository, and read one of its issues"
    }

    async fn execute(&self, args: Self::Args, _ctx: ToolExecutionContext) -> Result<ToolResponse<RepoOutput>, McpError> {
        let task = if args.bare {
            init_bare_repo(args.path.clone())
        } else {
            open_repo(args.path.clone())
        };
        let repo = task
            .await
            .map_err(|e| McpError::Other(anyhow::anyhow!("Task execution failed: {e}")))?
            .map_err(|e| McpError::Other(anyhow::anyhow!("{e}")))?; //~ tool_failure_as_protocol_error
        let head = tokio::task::spawn_blocking(move || -> Result<String, anyhow::Error> {
            let head = std::fs::read_to_string(format!("{repo}/.git/HEAD"))?;
            let name = head
                .strip_prefix("ref: ")
                .ok_or_else(|| anyhow::anyhow!("HEAD of {repo} is detached"))?;
            Ok(name.trim().to_string())
        })
        .await
        .map_err(|e| McpError::Other(anyhow::anyhow!("Task execution failed: {e}")))?
        .map_err(|e| McpError::Other(anyhow::anyhow!("{e}")))?; //~ tool_failure_as_protocol_error
        let token = match &args.token {
            Some(token) => token.clone(),
            None => std::env::var("FORGE_TOKEN")
                .map_err(|_| McpError::Other(anyhow::anyhow!("FORGE_TOKEN is not set")))?,
        };
        let forge = Forge::builder()
            .token(token)
            .build()
            .map_err(|e| McpError::Other(anyhow::anyhow!("Failed to create the client: {e}")))?; //~ tool_failure_as_protocol_error
        let task_result = forge.issue(args.number).await;
        let api_result = task_result
            .map_err(|e| McpError::Other(anyhow::anyhow!("Task channel error: {e}")))?;
        let issue = api_result
            .map_err(|e| McpError::Other(anyhow::anyhow!("Forge API error: {e}")))?; //~ tool_failure_as_protocol_error
        Ok(ToolResponse::new(issue, RepoOutput { head }))
    }
}

pub struct EnvForgeTool;

impl Tool for EnvForgeTool {
    type Args = RepoArgs;
    type Prompts = ();

    fn name() -> &'static str {
        "env_forge"
    }

    fn description() -> &'static str {
        "Read an issue with the server's own token"
    }

    async fn execute(&self, args: Self::Args, _ctx: ToolExecutionContext) -> Result<ToolResponse<RepoOutput>, McpError> {
        let token = std::env::var("FORGE_TOKEN")
            .map_err(|_| McpError::Other(anyhow::anyhow!("FORGE_TOKEN is not set")))?;
        let forge = Forge::builder()
            .token(token)
            .build()
            .map_err(|e| McpError::Other(anyhow::anyhow!("Failed to create the client: {e}")))?;
        let issue = forge
            .issue(args.number)
            .await
            .map_err(|e| McpError::Other(anyhow::anyhow!("Task channel error: {e}")))?
            .map_err(|e| McpError::Other(anyhow::anyhow!("Forge API error: {e}")))?; //~ tool_failure_as_protocol_error
        Ok(ToolResponse::new(issue.clone(), RepoOutput { head: issue }))
    }
}

pub struct SearchIndex;

async fn open_index(dir: &str) -> Result<SearchIndex, McpError> {
    if dir.is_empty() {
        return Err(McpError::SearchEngine(format!("no index in {dir:?}")));
    }
    Ok(SearchIndex)
}

async fn crawl(dir: &str) -> anyhow::Result<usize> {
    let _index = open_index(dir).await?;
    Ok(dir.len())
}

pub struct CrawlTool;

impl Tool for CrawlTool {
    type Args = RepoArgs;
    type Prompts = ();

    fn name() -> &'static str {
        "crawl"
    }

    fn description() -> &'static str {
        "Crawl a repository into its search index"
    }

    async fn execute(&self, args: Self::Args, _ctx: ToolExecutionContext) -> Result<ToolResponse<RepoOutput>, McpError> {
        let pages = crawl(&args.path).await.map_err(McpError::Other)?; //~ tool_failure_as_protocol_error
        Ok(ToolResponse::new(format!("{pages} pages"), RepoOutput { head: args.path }))
    }
}
