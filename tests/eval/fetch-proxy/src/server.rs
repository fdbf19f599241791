use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{Implementation, ServerCapabilities, ServerInfo};
use rmcp::{schemars, tool, tool_handler, tool_router, ServerHandler};
use serde::Deserialize;
use tokio::sync::Mutex;

use crate::extract::{html_to_text, truncate};
use crate::upstream::Upstream;

const DEFAULT_MAX_CHARS: usize = 20_000;

struct Session {
    client: reqwest::Client,
    pages: usize,
}

#[derive(Clone)]
pub struct FetchServer {
    http: reqwest::Client,
    sessions: Arc<Mutex<HashMap<String, Session>>>,
    upstream: Option<Arc<Upstream>>,
    tool_router: ToolRouter<Self>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct FetchArgs {
    /// http(s) URL to fetch
    pub url: String,
    /// Session id from open_session, to keep cookies between fetches
    pub session: Option<String>,
    /// Maximum characters of text to return (default 20000)
    pub max_chars: Option<usize>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct UrlArg {
    pub url: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SessionArg {
    pub session: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    pub query: String,
}

fn parse_http_url(raw: &str) -> Result<url::Url, String> {
    let url = url::Url::parse(raw).map_err(|e| format!("invalid url {raw:?}: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "unsupported scheme {:?}; only http and https URLs can be fetched",
            url.scheme()
        ));
    }
    Ok(url)
}

#[tool_router]
impl FetchServer {
    pub fn new(upstream: Option<Upstream>) -> Self {
        Self {
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(20))
                .build()
                .expect("static client configuration"),
            sessions: Arc::new(Mutex::new(HashMap::new())),
            upstream: upstream.map(Arc::new),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Fetch a web page and return its text")]
    async fn fetch(
        &self,
        Parameters(FetchArgs {
            url,
            session,
            max_chars,
        }): Parameters<FetchArgs>,
    ) -> Result<String, String> {
        let url = parse_http_url(&url)?;
        let client = match &session {
            Some(id) => match self.sessions.lock().await.get_mut(id) {
                Some(s) => {
                    s.pages += 1;
                    s.client.clone()
                }
                None => return Ok(format!("Session {id} not found.")),
            },
            None => self.http.clone(),
        };
        let resp = client
            .get(url.clone())
            .send()
            .await
            .map_err(|e| format!("could not fetch {url}: {e}"))?;
        if !resp.status().is_success() {
            return Err(format!("{url} answered HTTP {}", resp.status()));
        }
        let html = resp
            .text()
            .await
            .map_err(|e| format!("could not read the body of {url}: {e}"))?;
        Ok(truncate(
            html_to_text(&html),
            max_chars.unwrap_or(DEFAULT_MAX_CHARS),
        ))
    }

    #[tool(description = "Status and headers of a URL, without the body")]
    async fn head(&self, Parameters(UrlArg { url }): Parameters<UrlArg>) -> Result<String, String> {
        let url = parse_http_url(&url)?;
        let Ok(resp) = self.http.head(url.clone()).send().await else {
            return Err(String::new());
        };
        let mut out = format!("HTTP {}\n", resp.status());
        for (name, value) in resp.headers() {
            out.push_str(&format!(
                "{name}: {}\n",
                value.to_str().unwrap_or("<binary>")
            ));
        }
        Ok(out)
    }

    #[tool(description = "Open a cookie session; pass its id to fetch")]
    async fn open_session(&self) -> Result<String, String> {
        let client = reqwest::Client::builder()
            .cookie_store(true)
            .timeout(Duration::from_secs(20))
            .build()
            .map_err(|e| format!("could not create a session client: {e}"))?;
        let id = format!("ses_{}", uuid::Uuid::new_v4().simple());
        self.sessions
            .lock()
            .await
            .insert(id.clone(), Session { client, pages: 0 });
        Ok(id)
    }

    #[tool(description = "Close a cookie session")]
    async fn close_session(
        &self,
        Parameters(SessionArg { session }): Parameters<SessionArg>,
    ) -> Result<String, String> {
        match self.sessions.lock().await.remove(&session) {
            Some(s) => Ok(format!("closed {session} after {} pages", s.pages)),
            None => Err("Error".into()),
        }
    }

    #[tool(description = "Search the web through the configured search server")]
    async fn search(
        &self,
        Parameters(SearchArgs { query }): Parameters<SearchArgs>,
    ) -> Result<String, String> {
        let Some(upstream) = &self.upstream else {
            return Err(
                "search is not configured on this server (SEARCH_SERVER_CMD is unset)".into(),
            );
        };
        match upstream.search(&query).await {
            Ok(hits) if hits.is_empty() => Ok(format!("No results for {query:?}.")),
            Ok(hits) => Ok(hits
                .iter()
                .map(|h| format!("{}\n{}\n{}", h.title, h.url, h.snippet))
                .collect::<Vec<_>>()
                .join("\n\n")),
            Err(e) => Ok(format!("search failed: {e}")),
        }
    }
}

#[tool_handler]
impl ServerHandler for FetchServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            capabilities: ServerCapabilities::builder().enable_tools().build(),
            server_info: Implementation::from_build_env(),
            instructions: Some("Fetch pages as text; open a session to keep cookies.".into()),
            ..Default::default()
        }
    }
}
