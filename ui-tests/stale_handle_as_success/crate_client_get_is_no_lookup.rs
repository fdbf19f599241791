//@ rmcp = "1.8"
// rmcp, `-> String` tools: `self.client.get::<Page>(&url)` resolves to the crate's own HTTP
// client method, which is no map lookup: its failure is an upstream failure answered as success
// (failure_as_success), not a lookup miss on a handle. A real map lookup of a session handle
// answered as success is still this lint's.
use std::collections::HashMap;

use rmcp::{handler::server::{router::tool::ToolRouter, wrapper::Parameters}, schemars, tool, tool_router};
use serde::{de::DeserializeOwned, Deserialize};

pub struct Client {
    base: String,
}

impl Client {
    pub async fn get<T: DeserializeOwned>(&self, endpoint: &str) -> Result<T, String> {
        Err(format!("GET {}{endpoint} failed: connection refused", self.base))
    }
}

#[derive(Deserialize)]
pub struct Page {
    pub title: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PageArgs {
    pub page_id: String,
}

#[derive(Clone)]
pub struct Wiki {
    client: std::sync::Arc<Client>,
    sessions: std::sync::Arc<HashMap<String, String>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Wiki {
    #[tool(description = "Get a page")]
    async fn get_page(&self, Parameters(args): Parameters<PageArgs>) -> String {
        match self.client.get::<Page>(&format!("/pages/{}", args.page_id)).await {
            Ok(page) => page.title,
            Err(e) => format!("Error fetching page: {e}"), //~ failure_as_success
        }
    }

    #[tool(description = "Read a session's cursor")]
    async fn cursor(&self, Parameters(args): Parameters<PageArgs>) -> String {
        match self.sessions.get(&args.page_id) {
            Some(cursor) => cursor.clone(),
            None => format!("Error: no session {}", args.page_id), //~ stale_handle_as_success
        }
    }
}
