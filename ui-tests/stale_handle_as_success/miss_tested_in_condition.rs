//@ rmcp = "3.1"
//@ dep: serde_json = "1"
// A lookup's miss tested in an `if` condition (`sessions.get(&id).is_none()`,
// `!jobs.contains_key(&job_id)`, `!x.get(k).is_some()`): the `then` block is the miss, and a
// "not found" answer there told as success is MCP008, as in a `None =>` arm. Not firing: a miss
// that fills a cache (no answer), one answered with `CallToolResult::error`, a key literal
// (`contains_key("default")`, the server's own entry).
use std::collections::HashMap;

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData,
};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ById {
    pub id: String,
}

pub struct Server {
    sessions: HashMap<String, String>,
    jobs: HashMap<String, u32>,
    cache: std::sync::Mutex<HashMap<String, String>>,
}

#[tool_router]
impl Server {
    #[tool(description = "Read a session's log")]
    async fn session_log(&self, Parameters(p): Parameters<ById>) -> String {
        if self.sessions.get(&p.id).is_none() {
            return json!({ "error": format!("Session {} not found", p.id) }).to_string(); //~ stale_handle_as_success
        }
        self.sessions[&p.id].clone()
    }

    #[tool(description = "Cancel a job")]
    async fn cancel_job(&self, Parameters(p): Parameters<ById>) -> String {
        if !self.jobs.contains_key(&p.id) {
            return format!("Job {} not found", p.id); //~ stale_handle_as_success
        }
        format!("cancelled {}", p.id)
    }

    #[tool(description = "Describe a job")]
    async fn job_status(&self, Parameters(p): Parameters<ById>) -> Result<CallToolResult, ErrorData> {
        if !self.jobs.get(&p.id).is_some() {
            return Ok(CallToolResult::error(vec![Content::text(format!("Job {} not found", p.id))]));
        }
        Ok(CallToolResult::success(vec![Content::text("running")]))
    }

    #[tool(description = "Render a page, cached")]
    async fn render(&self, Parameters(p): Parameters<ById>) -> String {
        let mut cache = self.cache.lock().unwrap();
        if cache.get(&p.id).is_none() {
            cache.insert(p.id.clone(), format!("<p>{}</p>", p.id));
        }
        cache[&p.id].clone()
    }

    #[tool(description = "Use the default session")]
    async fn default_session(&self) -> String {
        if !self.sessions.contains_key("default") {
            return "no default session yet".to_string();
        }
        self.sessions["default"].clone()
    }
}
