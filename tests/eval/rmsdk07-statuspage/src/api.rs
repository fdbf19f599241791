//! A small client for the Statuspage REST API.

use serde::{Deserialize, Serialize};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0} not found")]
    NotFound(String),
    #[error("rate limited by the status API; retry after {retry_after}s")]
    RateLimited { retry_after: u64 },
    #[error("status API returned {status}: {body}")]
    Status { status: u16, body: String },
    #[error("status API unreachable: {0}")]
    Transport(#[from] reqwest::Error),
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Incident {
    pub id: String,
    pub name: String,
    pub status: String,
    pub impact: String,
    pub shortlink: Option<String>,
    pub created_at: String,
    pub resolved_at: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Component {
    pub id: String,
    pub name: String,
    pub status: String,
}

pub struct StatusApi {
    http: reqwest::Client,
    base: String,
}

impl StatusApi {
    pub fn new(base: &str, page_id: &str, token: &str) -> Self {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(
            reqwest::header::AUTHORIZATION,
            format!("OAuth {token}").parse().expect("token is a valid header value"),
        );
        let http = reqwest::Client::builder()
            .default_headers(headers)
            .build()
            .expect("reqwest client builds");
        Self {
            http,
            base: format!("{base}/pages/{page_id}"),
        }
    }

    async fn check(resp: reqwest::Response, what: &str) -> Result<reqwest::Response, ApiError> {
        match resp.status().as_u16() {
            200..=299 => Ok(resp),
            404 => Err(ApiError::NotFound(what.to_string())),
            429 => {
                let retry_after = resp
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(60);
                Err(ApiError::RateLimited { retry_after })
            }
            status => Err(ApiError::Status {
                status,
                body: resp.text().await.unwrap_or_default(),
            }),
        }
    }

    pub async fn incidents(&self, unresolved_only: bool) -> Result<Vec<Incident>, ApiError> {
        let path = if unresolved_only { "incidents/unresolved" } else { "incidents" };
        let resp = self.http.get(format!("{}/{path}", self.base)).send().await?;
        Ok(Self::check(resp, "incident list").await?.json().await?)
    }

    pub async fn incident(&self, id: &str) -> Result<Incident, ApiError> {
        let resp = self
            .http
            .get(format!("{}/incidents/{id}", self.base))
            .send()
            .await?;
        Ok(Self::check(resp, &format!("incident {id}")).await?.json().await?)
    }

    pub async fn create_incident(
        &self,
        name: &str,
        status: &str,
        body: &str,
        component_ids: &[String],
    ) -> Result<Incident, ApiError> {
        let payload = serde_json::json!({
            "incident": {
                "name": name,
                "status": status,
                "body": body,
                "component_ids": component_ids,
            }
        });
        let resp = self
            .http
            .post(format!("{}/incidents", self.base))
            .json(&payload)
            .send()
            .await?;
        Ok(Self::check(resp, "new incident").await?.json().await?)
    }

    pub async fn update_status(&self, id: &str, status: &str, body: &str) -> Result<Incident, ApiError> {
        let payload = serde_json::json!({ "incident": { "status": status, "body": body } });
        let resp = self
            .http
            .patch(format!("{}/incidents/{id}", self.base))
            .json(&payload)
            .send()
            .await?;
        Ok(Self::check(resp, &format!("incident {id}")).await?.json().await?)
    }

    pub async fn components(&self) -> Result<Vec<Component>, ApiError> {
        let resp = self.http.get(format!("{}/components", self.base)).send().await?;
        Ok(Self::check(resp, "component list").await?.json().await?)
    }
}
