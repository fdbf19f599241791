//! Upload of a rendered notebook to the team's backup service.

#[derive(Debug)]
pub enum BackupError {
    RateLimited(u64),
    Rejected(u16, String),
    Http(reqwest::Error),
}

impl std::fmt::Display for BackupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BackupError::RateLimited(s) => write!(f, "backup service rate limited, retry in {s}s"),
            BackupError::Rejected(code, body) => write!(f, "backup service answered {code}: {body}"),
            BackupError::Http(e) => write!(f, "backup service unreachable: {e}"),
        }
    }
}

pub async fn upload(base: &str, name: &str, body: String) -> Result<String, BackupError> {
    let resp = reqwest::Client::new()
        .put(format!("{base}/notebooks/{name}"))
        .body(body)
        .send()
        .await
        .map_err(BackupError::Http)?;
    match resp.status().as_u16() {
        200 | 201 => Ok(resp
            .headers()
            .get("etag")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()),
        429 => Err(BackupError::RateLimited(30)),
        code => Err(BackupError::Rejected(code, resp.text().await.unwrap_or_default())),
    }
}
