//! Thin client for the Relay helpdesk REST API.

use std::time::Duration;

use reqwest::{StatusCode, header};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::json;
use thiserror::Error;
use url::Url;

#[derive(Debug, Error)]
pub enum ApiError {
    #[error("{0} not found")]
    NotFound(String),
    #[error("Relay rejected the API token")]
    Unauthorized,
    #[error("Relay rate limit hit; retry after {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    #[error("Relay answered {0}: {1}")]
    Status(u16, String),
    #[error("cannot reach Relay: {0}")]
    Transport(#[from] reqwest::Error),
    #[error("unexpected Relay response: {0}")]
    Decode(String),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ticket {
    pub id: String,
    pub subject: String,
    pub status: String,
    pub priority: String,
    pub queue: String,
    pub assignee: Option<String>,
    /// Unix seconds when the SLA is breached, if the queue has one.
    pub sla_due: Option<u64>,
    #[serde(default)]
    pub body: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TicketPage {
    pub tickets: Vec<Ticket>,
    pub total: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Queue {
    pub name: String,
    pub open: u64,
    pub sla_hours: Option<u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Agent {
    pub id: u64,
    pub handle: String,
    pub email: String,
}

#[derive(Clone)]
pub struct RelayClient {
    http: reqwest::Client,
    base: Url,
}

impl RelayClient {
    pub fn new(base: Url, token: String, timeout: Duration) -> anyhow::Result<Self> {
        let mut headers = header::HeaderMap::new();
        let mut auth = header::HeaderValue::from_str(&format!("Bearer {token}"))?;
        auth.set_sensitive(true);
        headers.insert(header::AUTHORIZATION, auth);
        let http = reqwest::Client::builder()
            .default_headers(headers)
            .timeout(timeout)
            .user_agent(concat!("relaydesk/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Self { http, base })
    }

    fn url(&self, path: &str) -> Url {
        self.base.join(path).expect("API paths are relative")
    }

    async fn check(resp: reqwest::Response, what: &str) -> Result<reqwest::Response, ApiError> {
        match resp.status() {
            s if s.is_success() => Ok(resp),
            StatusCode::NOT_FOUND => Err(ApiError::NotFound(what.to_string())),
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => Err(ApiError::Unauthorized),
            StatusCode::TOO_MANY_REQUESTS => {
                let retry_after_secs = resp
                    .headers()
                    .get(header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(30);
                Err(ApiError::RateLimited { retry_after_secs })
            }
            s => {
                let body = resp.text().await.unwrap_or_default();
                Err(ApiError::Status(s.as_u16(), body))
            }
        }
    }

    async fn get_json<T: DeserializeOwned>(&self, path: &str, what: &str) -> Result<T, ApiError> {
        let resp = self.http.get(self.url(path)).send().await?;
        let resp = Self::check(resp, what).await?;
        resp.json::<T>().await.map_err(|e| ApiError::Decode(e.to_string()))
    }

    async fn send_json<T: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        what: &str,
        body: serde_json::Value,
    ) -> Result<T, ApiError> {
        let resp = self
            .http
            .request(method, self.url(path))
            .json(&body)
            .send()
            .await?;
        let resp = Self::check(resp, what).await?;
        resp.json::<T>().await.map_err(|e| ApiError::Decode(e.to_string()))
    }

    pub async fn get_ticket(&self, id: &str) -> Result<Ticket, ApiError> {
        self.get_json(&format!("tickets/{id}"), &format!("ticket {id}")).await
    }

    pub async fn list_tickets(&self, queue: &str, status: Option<&str>, limit: u64) -> Result<TicketPage, ApiError> {
        let mut path = format!("queues/{queue}/tickets?limit={limit}");
        if let Some(s) = status {
            path.push_str(&format!("&status={s}"));
        }
        self.get_json(&path, &format!("queue {queue}")).await
    }

    pub async fn create_ticket(&self, queue: &str, subject: &str, body: &str, priority: &str) -> Result<Ticket, ApiError> {
        let payload = json!({ "subject": subject, "body": body, "priority": priority });
        self.send_json(reqwest::Method::POST, &format!("queues/{queue}/tickets"), &format!("queue {queue}"), payload)
            .await
    }

    pub async fn update_status(&self, id: &str, status: &str) -> Result<Ticket, ApiError> {
        self.send_json(reqwest::Method::PATCH, &format!("tickets/{id}"), &format!("ticket {id}"), json!({ "status": status }))
            .await
    }

    pub async fn add_comment(&self, id: &str, body: &str, internal: bool) -> Result<serde_json::Value, ApiError> {
        let payload = json!({ "body": body, "internal": internal });
        self.send_json(reqwest::Method::POST, &format!("tickets/{id}/comments"), &format!("ticket {id}"), payload)
            .await
    }

    pub async fn list_agents(&self) -> Result<Vec<Agent>, ApiError> {
        self.get_json("agents", "agent list").await
    }

    pub async fn assign(&self, id: &str, agent_id: u64) -> Result<Ticket, ApiError> {
        self.send_json(reqwest::Method::PATCH, &format!("tickets/{id}"), &format!("ticket {id}"), json!({ "assignee_id": agent_id }))
            .await
    }

    pub async fn list_queues(&self) -> Result<Vec<Queue>, ApiError> {
        self.get_json("queues", "queue list").await
    }

    pub async fn apply_macro(&self, id: &str, macro_id: u64) -> Result<Ticket, ApiError> {
        self.send_json(
            reqwest::Method::POST,
            &format!("tickets/{id}/macros/{macro_id}"),
            &format!("macro {macro_id}"),
            json!({}),
        )
        .await
    }

    pub async fn search(&self, query: &str) -> Result<TicketPage, ApiError> {
        let mut url = self.url("search");
        url.query_pairs_mut().append_pair("q", query);
        let resp = self.http.get(url).send().await?;
        let resp = Self::check(resp, "search").await?;
        resp.json().await.map_err(|e| ApiError::Decode(e.to_string()))
    }
}
