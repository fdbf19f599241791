//@ rmcp = "1.8"
// A `#[tool]` fn that returns one `Content` block: rmcp makes it a success result whole, so, as
// for a `-> String` tool, an `Err(e)` arm that answers `Content::text(format!("Failed: {e}"))`
// is a failure answered as success. The success arm's block, and a block that reports an empty
// outcome, are not.
use rmcp::{handler::server::wrapper::Parameters, model::Content, schemars, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Shot {
    pub path: String,
}

pub struct Screen;

#[tool_router]
impl Screen {
    #[tool(description = "Read a screenshot file")]
    async fn read_shot(&self, Parameters(s): Parameters<Shot>) -> Content {
        match std::fs::read(&s.path) {
            Ok(bytes) if bytes.is_empty() => Content::text("The screenshot is empty"),
            Ok(bytes) => Content::text(format!("{} bytes", bytes.len())),
            Err(e) => Content::text(format!("Failed to read {}: {e}", s.path)), //~ failure_as_success
        }
    }
}
