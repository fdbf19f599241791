//@ rmcp = "1.8"
// A fn declared inside another fn's body is a fn of its own, scoped as rustc scopes it: visible
// in its whole block (before its statement too), in the blocks nested there and in the other
// fns declared there, and nowhere outside. A call of it goes to it, never to a module fn of the
// same name, and a module fn's call never goes to a nested fn of another body.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

// Same name as the `search` tool's nested normaliser; only start-up code calls this one.
fn normalise(path: &str) -> Result<String, McpError> {
    Err(McpError::internal_error(format!("config file {path} is unreadable"), None))
}

// What the `render` tool calls: the module fn, not `start`'s nested one.
fn render(text: &str) -> Result<String, McpError> {
    Ok(format!("<p>{text}</p>"))
}

pub fn start() {
    let _ = normalise("/etc/app.toml");
    fn render(template: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("template {template} failed to compile"), None))
    }
    let _ = render("boot");
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub q: String,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Search")]
    async fn search(&self, Parameters(args): Parameters<Query>) -> Result<CallToolResult, McpError> {
        fn normalise(q: &str) -> Result<String, McpError> {
            Ok(q.trim().to_lowercase())
        }
        let q = normalise(&args.q)?;
        Ok(CallToolResult::success(vec![Content::text(q)]))
    }

    #[tool(description = "Fetch a page")]
    async fn fetch(&self, Parameters(args): Parameters<Query>) -> Result<CallToolResult, McpError> {
        let body = download(&args.q)?;
        let again = download(&body)?;
        return Ok(CallToolResult::success(vec![Content::text(again)]));

        // Declared after its uses; it calls a sibling declared in the same block.
        fn download(url: &str) -> Result<String, McpError> {
            let full = endpoint(url);
            Err(McpError::internal_error(format!("upstream {full} failed"), None)) //~ tool_failure_as_protocol_error
        }
        fn endpoint(url: &str) -> String {
            format!("https://example.com/{url}")
        }
    }

    #[tool(description = "Render")]
    async fn render(&self, Parameters(args): Parameters<Query>) -> Result<CallToolResult, McpError> {
        let html = render(&args.q)?;
        Ok(CallToolResult::success(vec![Content::text(html)]))
    }
}
