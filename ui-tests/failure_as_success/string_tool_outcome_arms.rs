//@ rmcp = "0.13"
//@ dep: serde_json = "1"
// A `-> String` tool whose call answers an outcome, not an `Err`: `Ok(false)` (the action did not
// happen) and `Ok(None)` (nothing to give, no key asked for) answered with a text or `json!` that
// says it failed (`{"error": ..}`, written in the tool or built by a crate helper) are failures
// told as success. The same arms answering the outcome as data (a yes/no query's
// `{"exists": false}`, a search's `{"found": false}`) are the tool's answer and stay silent.
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use serde_json::json;
use std::collections::HashMap;

fn error_response(kind: &str, message: impl Into<String>) -> String {
    json!({ "error": kind, "message": message.into() }).to_string()
}

pub struct Accessibility;

impl Accessibility {
    pub async fn click(&self, id: u64) -> Result<bool, std::io::Error> {
        Ok(id > 0)
    }
    pub async fn stop_recording(&self) -> Result<Option<String>, std::io::Error> {
        Ok(None)
    }
    pub async fn exists(&self, path: &str) -> Result<bool, std::io::Error> {
        Ok(!path.is_empty())
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Element {
    pub id: u64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Lookup {
    pub name: String,
}

pub struct Desktop {
    a11y: Accessibility,
    bookmarks: HashMap<String, String>,
}

#[tool_router]
impl Desktop {
    #[tool(description = "Click an element")]
    async fn click(&self, Parameters(e): Parameters<Element>) -> String {
        match self.a11y.click(e.id).await {
            Ok(true) => json!({ "clicked": e.id }).to_string(),
            Ok(false) => error_response("click_failed", format!("Element {} does not support click", e.id)), //~ failure_as_success
            Err(err) => error_response("a11y_error", format!("Failed to click: {err}")), //~ failure_as_success
        }
    }

    #[tool(description = "Press an element")]
    async fn press(&self, Parameters(e): Parameters<Element>) -> String {
        match self.a11y.click(e.id).await {
            Ok(true) => "pressed".to_string(),
            Ok(false) => json!({ "error": "press_failed", "id": e.id }).to_string(), //~ failure_as_success
            Err(err) => format!("Failed to press: {err}"), //~ failure_as_success
        }
    }

    #[tool(description = "Stop the performance recording and return its report")]
    async fn stop_recording(&self) -> String {
        match self.a11y.stop_recording().await {
            Ok(Some(report)) => report,
            Ok(None) => error_response("no_data", "No performance recording active"), //~ failure_as_success
            Err(err) => format!("Failed to stop recording: {err}"), //~ failure_as_success
        }
    }

    #[tool(description = "Whether a file exists")]
    async fn exists(&self, Parameters(l): Parameters<Lookup>) -> String {
        match self.a11y.exists(&l.name).await {
            Ok(true) => json!({ "exists": true }).to_string(),
            Ok(false) => json!({ "exists": false }).to_string(),
            Err(err) => format!("Failed to check {}: {err}", l.name), //~ failure_as_success
        }
    }

    #[tool(description = "Find a bookmark by its title")]
    async fn find_bookmark(&self, Parameters(l): Parameters<Lookup>) -> String {
        match self.bookmarks.get(&l.name) {
            Some(url) => url.clone(),
            None => json!({ "found": false, "title": l.name }).to_string(),
        }
    }
}
