//@ rmcp = "3.11"
//@ dep: tokio = "1"
//@ dep: serde = "1"
// Failures of the server's own plumbing are server faults, where -32603 is right: the `None` of
// state the server keeps behind a lock and fills itself (`guard.as_ref().ok_or_else(..)` after
// `self.launch()`), awaiting a future of the crate's own whose error is its worker's (`impl
// Future for AsyncTask<T> { type Output = Result<T, RecvError>; }`, kept in a local first), and a
// client built from the process's own configuration (`std::env::var("GITHUB_TOKEN")`, through a
// builder whose `build()` returns the crate's `Result` alias). Reported: what the upstream or the
// tool's arguments decide (the API's error, a client built from the model's token, a future whose
// error is the crate's own, a session the model named that is not there).
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;
use tokio::sync::{oneshot, Mutex};

mod runtime {
    use super::*;

    /// A background operation's single result, over a oneshot channel.
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
}

#[derive(Debug)]
pub struct ApiError(String);

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// An answer that fails with the crate's own error, not a worker's.
pub struct Pending(Result<String, ApiError>);

impl Future for Pending {
    type Output = Result<String, ApiError>;

    fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Self::Output> {
        Poll::Ready(Err(ApiError("not ready".into())))
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

pub struct Client {
    token: String,
}

pub struct ClientBuilder {
    token: Option<String>,
}

impl ClientBuilder {
    pub fn token(mut self, token: String) -> Self {
        self.token = Some(token);
        self
    }

    pub fn build(self) -> ApiResult<Client> {
        let token = self.token.ok_or_else(|| ApiError("no token".into()))?;
        Ok(Client { token })
    }
}

impl Client {
    pub fn builder() -> ClientBuilder {
        ClientBuilder { token: None }
    }

    pub fn get_issue(&self, number: u64) -> runtime::AsyncTask<Result<String, ApiError>> {
        let token = self.token.clone();
        runtime::AsyncTask::spawn(move || match number {
            0 => Err(ApiError(format!("issue {number} not found"))),
            _ => Ok(format!("issue {number} (as {token})")),
        })
    }

    pub fn search(&self, query: String) -> Pending {
        Pending(Ok(query))
    }
}

pub struct Browser;

impl Browser {
    pub fn title(&self) -> String {
        "about:blank".into()
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct IssueArgs {
    pub number: u64,
    pub token: String,
}

pub struct Issues {
    browser: Arc<Mutex<Option<Browser>>>,
    sessions: Arc<Mutex<std::collections::HashMap<u64, Browser>>>,
}

impl Issues {
    async fn launch(&self) -> Result<Arc<Mutex<Option<Browser>>>, ApiError> {
        let mut guard = self.browser.lock().await;
        if guard.is_none() {
            *guard = Some(Browser);
        }
        Ok(self.browser.clone())
    }
}

#[tool_router]
impl Issues {
    #[tool(description = "Read an issue")]
    async fn get_issue(
        &self,
        Parameters(args): Parameters<IssueArgs>,
    ) -> Result<CallToolResult, McpError> {
        let token = std::env::var("GITHUB_TOKEN")
            .map_err(|_| McpError::internal_error("GITHUB_TOKEN is not set", None))?;
        let client = Client::builder()
            .token(token)
            .build()
            .map_err(|e| McpError::internal_error(format!("Failed to create client: {e}"), None))?;
        let task_result = client.get_issue(args.number).await;
        let api_result = task_result
            .map_err(|e| McpError::internal_error(format!("Task channel error: {e}"), None))?;
        let issue = api_result
            .map_err(|e| McpError::internal_error(format!("GitHub API error: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(issue)]))
    }

    #[tool(description = "Read an issue with the caller's token")]
    async fn get_issue_as(
        &self,
        Parameters(args): Parameters<IssueArgs>,
    ) -> Result<CallToolResult, McpError> {
        let client = Client::builder()
            .token(args.token)
            .build()
            .map_err(|e| McpError::internal_error(format!("Failed to create client: {e}"), None))?; //~ tool_failure_as_protocol_error
        let issue = client
            .search(args.number.to_string())
            .await
            .map_err(|e| McpError::internal_error(format!("Search failed: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(issue)]))
    }

    #[tool(description = "Title of the open page")]
    async fn page_title(&self) -> Result<CallToolResult, McpError> {
        let browser_arc = self
            .launch()
            .await
            .map_err(|e| McpError::internal_error(format!("Browser error: {e}"), None))?;
        let guard = browser_arc.lock().await;
        let browser = guard
            .as_ref()
            .ok_or_else(|| McpError::internal_error("Browser not available", None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(browser.title())]))
    }

    #[tool(description = "Title of a session's page")]
    async fn session_title(
        &self,
        Parameters(args): Parameters<IssueArgs>,
    ) -> Result<CallToolResult, McpError> {
        let sessions = self.sessions.lock().await;
        let browser = sessions
            .get(&args.number)
            .ok_or_else(|| McpError::internal_error(format!("No session {}", args.number), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(browser.title())]))
    }
}
