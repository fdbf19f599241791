//! crates.io API client.

use serde::Deserialize;

#[derive(Debug)]
pub enum RegistryError {
    NotFound,
    Http(reqwest::Error),
    Status(u16),
}

impl std::fmt::Display for RegistryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegistryError::NotFound => write!(f, "not found"),
            RegistryError::Http(e) => write!(f, "crates.io unreachable: {e}"),
            RegistryError::Status(s) => write!(f, "crates.io answered HTTP {s}"),
        }
    }
}

impl std::error::Error for RegistryError {}

#[derive(Debug, Deserialize)]
pub struct CrateSummary {
    pub name: String,
    pub max_version: String,
    pub description: Option<String>,
    pub downloads: u64,
}

#[derive(Debug, Deserialize)]
pub struct SearchPage {
    pub crates: Vec<CrateSummary>,
}

#[derive(Debug, Deserialize)]
pub struct CrateInfo {
    #[serde(rename = "crate")]
    pub krate: CrateSummary,
    pub versions: Vec<Version>,
}

#[derive(Debug, Deserialize)]
pub struct Version {
    pub num: String,
    pub yanked: bool,
    pub created_at: String,
    pub downloads: u64,
}

pub struct Registry {
    http: reqwest::Client,
    base: String,
}

impl Registry {
    pub fn new(base: &str) -> reqwest::Result<Self> {
        Ok(Self {
            http: reqwest::Client::builder()
                .user_agent("crates-lookup-mcp (https://example.org/crates-lookup)")
                .build()?,
            base: base.to_string(),
        })
    }

    async fn get<T: for<'de> Deserialize<'de>>(&self, path: &str) -> Result<T, RegistryError> {
        let resp = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .map_err(RegistryError::Http)?;
        match resp.status().as_u16() {
            200 => resp.json().await.map_err(RegistryError::Http),
            404 => Err(RegistryError::NotFound),
            s => Err(RegistryError::Status(s)),
        }
    }

    pub async fn search(&self, query: &str, per_page: u32) -> Result<SearchPage, RegistryError> {
        self.get(&format!("/crates?q={}&per_page={per_page}", urlencode(query)))
            .await
    }

    pub async fn info(&self, name: &str) -> Result<CrateInfo, RegistryError> {
        self.get(&format!("/crates/{name}")).await
    }

    pub async fn readme(&self, name: &str, version: &str) -> Result<String, RegistryError> {
        let resp = self
            .http
            .get(format!("{}/crates/{name}/{version}/readme", self.base))
            .send()
            .await
            .map_err(RegistryError::Http)?;
        if resp.status().as_u16() == 404 {
            return Err(RegistryError::NotFound);
        }
        resp.text().await.map_err(RegistryError::Http)
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
