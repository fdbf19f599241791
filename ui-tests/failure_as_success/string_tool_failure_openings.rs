//@ rmcp = "1.8"
// A `-> String` tool has no failure answer of its own: an early `return` of a text that says the
// call failed ("Failed to ..", "Could not ..", "Unable to ..", "Cannot ..", also after a marker
// such as "❌ **Error:**") is a failure answered as success. The same words inside a text, a
// text that reports an empty outcome ("No pages matched"), and a final answer are not.
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Edit {
    pub page: String,
    pub heading: String,
    pub local_path: Option<String>,
}

pub struct Pages {
    pages: std::collections::HashMap<String, String>,
}

#[tool_router]
impl Pages {
    #[tool(description = "Replace a section of a page")]
    async fn replace_section(&self, Parameters(e): Parameters<Edit>) -> String {
        let Some(body) = self.pages.get(&e.page) else {
            // A lookup miss of the model's id: stale_handle_as_success, whatever the words.
            return format!("Could not find page {}", e.page); //~ stale_handle_as_success
        };
        if body.is_empty() {
            return "Cannot edit a page without content".to_string(); //~ failure_as_success
        }
        if !body.contains(&e.heading) {
            if e.heading.is_empty() {
                return format!("Could not use an empty heading on {}", e.page); //~ failure_as_success
            }
            return format!("Failed to locate heading '{}'", e.heading); //~ failure_as_success
        }
        if e.heading.len() > 200 {
            return format!("Unable to use a heading of {} characters", e.heading.len()); //~ failure_as_success
        }
        format!("Replaced section {}", e.heading)
    }

    #[tool(description = "Download a page")]
    async fn download(&self, Parameters(e): Parameters<Edit>) -> String {
        if e.local_path.is_none() {
            return "❌ **Error:** local_path is required when downloading".to_string(); //~ failure_as_success
        }
        format!("Saved {}", e.page)
    }

    #[tool(description = "Search the pages")]
    async fn search(&self, Parameters(e): Parameters<Edit>) -> String {
        // An empty outcome is an answer, and the words further in are the data's.
        let hits: Vec<&String> = self.pages.keys().filter(|k| k.contains(&e.page)).collect();
        if hits.is_empty() {
            return "No pages matched".to_string();
        }
        if hits.len() > 100 {
            return format!("{} pages matched; the first could not be shown", hits.len());
        }
        format!("Failed to match: {}", hits.len())
    }
}
