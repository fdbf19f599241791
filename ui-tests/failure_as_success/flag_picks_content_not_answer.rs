//@ rmcp = "0.8"
//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A helper whose flag parameter picks between two contents (`if save_to_file { Ok(save(d)) }
// else { Ok(Content::image(..)) }`) picks no answer: both values are followed, so the failure
// text `save` builds in its `Err` arm reaches the tool's success result. (A flag that picks an
// isError or a success result, `if is_error { structured_error(v) } else { structured(v) }`, is
// the caller's to decide and is not followed.)
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData,
};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub data: String,
    pub save: bool,
}

pub fn save(data: &str) -> Content {
    match std::fs::write("/tmp/shot.png", data) {
        Ok(()) => Content::text(json!({ "file_path": "/tmp/shot.png" }).to_string()),
        Err(e) => Content::text(
            json!({ "error": "file_write_error", "message": format!("Failed to write: {e}") }) //~ failure_as_success
                .to_string(),
        ),
    }
}

pub fn describe(data: &str) -> Content {
    Content::text(format!("{} bytes", data.len()))
}

pub async fn take(data: &str, save_to_file: bool) -> Result<Content, String> {
    if data.is_empty() {
        return Err("no screenshot data; is the app attached?".into());
    }
    if save_to_file {
        Ok(save(data))
    } else {
        Ok(Content::image(data, "image/png"))
    }
}

pub async fn summary(data: &str, verbose: bool) -> Result<Content, String> {
    if verbose {
        Ok(describe(data))
    } else {
        Ok(Content::text("ok"))
    }
}

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "screenshot")]
    async fn screenshot(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match take(&p.data, p.save).await {
            Ok(content) => Ok(CallToolResult::success(vec![content])),
            Err(e) => Ok(CallToolResult::error(vec![Content::text(e)])),
        }
    }

    #[tool(description = "summary")]
    async fn summary(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match summary(&p.data, p.save).await {
            Ok(content) => Ok(CallToolResult::success(vec![content])),
            Err(e) => Ok(CallToolResult::error(vec![Content::text(e)])),
        }
    }
}
