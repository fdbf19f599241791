//! A small GitHub REST client: just the issue endpoints the tools need.

use reqwest::{header, Client, StatusCode};
use rmcp::model::ErrorCode;
use serde::{Deserialize, Serialize};

use crate::McpError;

const API: &str = "https://api.github.com";

#[derive(Debug, thiserror::Error)]
pub enum GhError {
    #[error("request to GitHub failed: {0}")]
    Http(#[from] reqwest::Error),
    #[error("GitHub answered {status}: {body}")]
    Status { status: StatusCode, body: String },
    #[error("issue #{number} not found in {repo}")]
    NotFound { repo: String, number: u64 },
    #[error("rate limited until {reset}")]
    RateLimited { reset: u64 },
}

impl From<GhError> for McpError {
    fn from(e: GhError) -> Self {
        match e {
            GhError::NotFound { repo, number } => {
                McpError::invalid_params(format!("issue #{number} does not exist in {repo}"), None)
            }
            GhError::RateLimited { reset } => McpError::new(
                ErrorCode(-32009),
                format!("GitHub rate limit exceeded; it resets at unix time {reset}"),
                None,
            ),
            other => McpError::internal_error(format!("GitHub API request failed: {other}"), None),
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Issue {
    pub number: u64,
    pub title: String,
    pub state: String,
    pub body: Option<String>,
    pub html_url: String,
    pub user: User,
    #[serde(default)]
    pub labels: Vec<Label>,
    pub comments: u64,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct User {
    pub login: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Label {
    pub name: String,
}

#[derive(Debug, Deserialize)]
struct SearchResponse {
    items: Vec<Issue>,
}

#[derive(Clone)]
pub struct GitHub {
    http: Client,
}

impl GitHub {
    pub fn new(token: String) -> anyhow::Result<Self> {
        let mut headers = header::HeaderMap::new();
        headers.insert(header::AUTHORIZATION, format!("Bearer {token}").parse()?);
        headers.insert(header::ACCEPT, "application/vnd.github+json".parse()?);
        headers.insert(header::USER_AGENT, "gh-issues-mcp".parse()?);
        let http = Client::builder().default_headers(headers).build()?;
        Ok(Self { http })
    }

    async fn check(resp: reqwest::Response) -> Result<reqwest::Response, GhError> {
        let status = resp.status();
        if status.is_success() {
            return Ok(resp);
        }
        if status == StatusCode::FORBIDDEN || status == StatusCode::TOO_MANY_REQUESTS {
            if let Some(reset) = resp
                .headers()
                .get("x-ratelimit-reset")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse().ok())
            {
                return Err(GhError::RateLimited { reset });
            }
        }
        let body = resp.text().await.unwrap_or_default();
        Err(GhError::Status { status, body })
    }

    pub async fn list_issues(
        &self,
        repo: &str,
        state: &str,
        labels: &[String],
    ) -> Result<Vec<Issue>, GhError> {
        let mut req = self
            .http
            .get(format!("{API}/repos/{repo}/issues"))
            .query(&[("state", state), ("per_page", "50")]);
        if !labels.is_empty() {
            req = req.query(&[("labels", labels.join(","))]);
        }
        let resp = Self::check(req.send().await?).await?;
        Ok(resp.json().await?)
    }

    pub async fn issue(&self, repo: &str, number: u64) -> Result<Issue, GhError> {
        let resp = self
            .http
            .get(format!("{API}/repos/{repo}/issues/{number}"))
            .send()
            .await?;
        if resp.status() == StatusCode::NOT_FOUND {
            return Err(GhError::NotFound {
                repo: repo.to_string(),
                number,
            });
        }
        Ok(Self::check(resp).await?.json().await?)
    }

    pub async fn create_issue(
        &self,
        repo: &str,
        title: &str,
        body: Option<&str>,
        labels: &[String],
    ) -> Result<Issue, GhError> {
        let payload = serde_json::json!({ "title": title, "body": body, "labels": labels });
        let resp = self
            .http
            .post(format!("{API}/repos/{repo}/issues"))
            .json(&payload)
            .send()
            .await?;
        Ok(Self::check(resp).await?.json().await?)
    }

    pub async fn comment(&self, repo: &str, number: u64, body: &str) -> Result<String, GhError> {
        #[derive(Deserialize)]
        struct Created {
            html_url: String,
        }
        let resp = self
            .http
            .post(format!("{API}/repos/{repo}/issues/{number}/comments"))
            .json(&serde_json::json!({ "body": body }))
            .send()
            .await?;
        if resp.status() == StatusCode::NOT_FOUND {
            return Err(GhError::NotFound {
                repo: repo.to_string(),
                number,
            });
        }
        let created: Created = Self::check(resp).await?.json().await?;
        Ok(created.html_url)
    }

    pub async fn close(&self, repo: &str, number: u64, reason: &str) -> Result<Issue, GhError> {
        let resp = self
            .http
            .patch(format!("{API}/repos/{repo}/issues/{number}"))
            .json(&serde_json::json!({ "state": "closed", "state_reason": reason }))
            .send()
            .await?;
        Ok(Self::check(resp).await?.json().await?)
    }

    pub async fn search(&self, query: &str) -> Result<Vec<Issue>, GhError> {
        let resp = self
            .http
            .get(format!("{API}/search/issues"))
            .query(&[("q", query), ("per_page", "20")])
            .send()
            .await?;
        let found: SearchResponse = Self::check(resp).await?.json().await?;
        Ok(found.items)
    }
}
