//! Thin client for the forge's REST API (pipelines, jobs, artifacts, runners).

use crate::error::ForgeError;
use reqwest::{Client, StatusCode};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Duration;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pipeline {
    pub id: u64,
    pub project: String,
    pub git_ref: String,
    pub sha: String,
    pub status: String,
    pub duration_secs: Option<u64>,
    pub web_url: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    pub id: u64,
    pub name: String,
    pub stage: String,
    pub status: String,
    pub runner: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Artifact {
    pub name: String,
    pub size: u64,
    pub download_url: String,
}

pub struct ForgeClient {
    http: Client,
    base: String,
    token: Option<String>,
    timeout: Duration,
}

impl ForgeClient {
    pub fn new(base: &str, token: Option<String>, timeout: Duration) -> Result<Self, ForgeError> {
        let http = Client::builder()
            .user_agent(concat!("forgebot/", env!("CARGO_PKG_VERSION")))
            .timeout(timeout)
            .build()?;
        Ok(Self {
            http,
            base: base.to_string(),
            token,
            timeout,
        })
    }

    fn map_send(&self, e: reqwest::Error) -> ForgeError {
        if e.is_timeout() {
            ForgeError::Timeout(self.timeout.as_secs())
        } else {
            ForgeError::Http(e)
        }
    }

    async fn get_json<T: DeserializeOwned>(&self, path: &str) -> Result<Option<T>, ForgeError> {
        let resp = self
            .http
            .get(format!("{}{}", self.base, path))
            .send()
            .await
            .map_err(|e| self.map_send(e))?;
        match resp.status() {
            StatusCode::NOT_FOUND => Ok(None),
            s if s.is_success() => Ok(Some(resp.json::<T>().await?)),
            s => Err(ForgeError::Api {
                status: s.as_u16(),
                body: resp.text().await.unwrap_or_default(),
            }),
        }
    }

    async fn post(&self, path: &str, body: serde_json::Value) -> Result<serde_json::Value, ForgeError> {
        let token = self
            .token
            .as_deref()
            .ok_or_else(|| ForgeError::Config("FORGE_TOKEN is not set; write operations are disabled".into()))?;
        let resp = self
            .http
            .post(format!("{}{}", self.base, path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .map_err(|e| self.map_send(e))?;
        let status = resp.status();
        if !status.is_success() {
            return Err(ForgeError::Api {
                status: status.as_u16(),
                body: resp.text().await.unwrap_or_default(),
            });
        }
        Ok(resp.json().await?)
    }

    pub async fn pipelines(&self, project: &str, branch: Option<&str>) -> Result<Vec<Pipeline>, ForgeError> {
        let mut path = format!("/projects/{project}/pipelines");
        if let Some(b) = branch {
            path.push_str(&format!("?ref={b}"));
        }
        self.get_json(&path)
            .await?
            .ok_or(ForgeError::NotFound { kind: "project", id: project.to_string() })
    }

    pub async fn pipeline(&self, id: u64) -> Result<Option<Pipeline>, ForgeError> {
        self.get_json(&format!("/pipelines/{id}")).await
    }

    pub async fn jobs(&self, pipeline_id: u64) -> Result<Vec<Job>, ForgeError> {
        self.get_json(&format!("/pipelines/{pipeline_id}/jobs"))
            .await?
            .ok_or(ForgeError::NotFound { kind: "pipeline", id: pipeline_id.to_string() })
    }

    pub async fn job_log(&self, job_id: u64) -> Result<String, ForgeError> {
        let log: Option<String> = self.get_json(&format!("/jobs/{job_id}/trace")).await?;
        log.ok_or(ForgeError::NotFound { kind: "job", id: job_id.to_string() })
    }

    pub async fn artifacts(&self, pipeline_id: u64) -> Result<Vec<Artifact>, ForgeError> {
        self.get_json(&format!("/pipelines/{pipeline_id}/artifacts"))
            .await?
            .ok_or(ForgeError::NotFound { kind: "pipeline", id: pipeline_id.to_string() })
    }

    pub async fn download(&self, url: &str) -> Result<Vec<u8>, ForgeError> {
        let resp = self.http.get(url).send().await.map_err(|e| self.map_send(e))?;
        if !resp.status().is_success() {
            return Err(ForgeError::Api {
                status: resp.status().as_u16(),
                body: format!("download of {url} refused"),
            });
        }
        Ok(resp.bytes().await?.to_vec())
    }

    pub async fn trigger(&self, project: &str, sha: &str, vars: HashMap<String, String>) -> Result<Pipeline, ForgeError> {
        let v = self
            .post(&format!("/projects/{project}/pipeline"), serde_json::json!({ "sha": sha, "variables": vars }))
            .await?;
        serde_json::from_value(v).map_err(|e| ForgeError::Api {
            status: 200,
            body: format!("unexpected pipeline body: {e}"),
        })
    }

    pub async fn cancel(&self, pipeline_id: u64) -> Result<(), ForgeError> {
        self.post(&format!("/pipelines/{pipeline_id}/cancel"), serde_json::json!({})).await?;
        Ok(())
    }

    pub async fn retry_job(&self, job_id: u64) -> Result<Job, ForgeError> {
        let v = self.post(&format!("/jobs/{job_id}/retry"), serde_json::json!({})).await?;
        serde_json::from_value(v).map_err(|e| ForgeError::Api {
            status: 200,
            body: format!("unexpected job body: {e}"),
        })
    }
}
