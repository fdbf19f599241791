//@ rmcp = "2.2"
// `match r { Ok(d) => d, _ => .. }`: the catch-all after an `Ok(d)` arm takes every `Err`, so its
// answer is the failure's, as an `Err(_) =>` arm's would be. Under a guard on the `Ok` arm the
// catch-all also takes some successes: only an answer that says it failed is reported there.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_handler, tool_router, ServerHandler};
use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Page {
    html: String,
}

fn extract(html: &str) -> Result<String, String> {
    if html.trim().is_empty() {
        return Err("empty page".to_string());
    }
    Ok(html.to_string())
}

#[derive(Clone)]
pub struct Web {
    tool_router: ToolRouter<Web>,
}

#[tool_handler]
impl ServerHandler for Web {}

#[tool_router]
impl Web {
    #[tool(description = "Readable text of a page")]
    fn readable(&self, Parameters(p): Parameters<Page>) -> String {
        match extract(&p.html) {
            Ok(text) => text,
            _ => "Failed to parse HTML".to_string(), //~ failure_as_success
        }
    }

    #[tool(description = "Markdown of a page")]
    fn markdown(&self, Parameters(p): Parameters<Page>) -> String {
        match extract(&p.html) {
            Ok(text) if !text.is_empty() => text,
            _ => "<error>Failed to parse HTML</error>".to_string(), //~ failure_as_success
        }
    }

    #[tool(description = "Title of a page, if it has one")]
    fn title(&self, Parameters(p): Parameters<Page>) -> String {
        match extract(&p.html) {
            Ok(text) if text.starts_with('#') => text,
            _ => "untitled".to_string(),
        }
    }
}
