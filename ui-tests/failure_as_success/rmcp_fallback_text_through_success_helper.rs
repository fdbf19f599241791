//@ rmcp = "1.8"
// rmcp: a tool hands a serialisation fallback that says it failed ("Serialization error: ..")
// to a crate helper that makes a success result of its parameter. Reported at the fallback, with
// the helper's result as the related location, as when the tool builds the result itself. Not:
// the same helper given the tool's own output.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
struct File {
    name: String,
    size: u64,
}

fn tool_success(text: String) -> Result<CallToolResult, McpError> {
    Ok(CallToolResult::success(vec![Content::text(text)]))
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct FileArgs {
    pub key: String,
}

#[derive(Clone)]
pub struct Figma {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Figma {
    #[tool(description = "Get a file")]
    async fn get_file(&self, Parameters(args): Parameters<FileArgs>) -> Result<CallToolResult, McpError> {
        let file = File { name: args.key.clone(), size: 0 };
        let text = serde_json::to_string_pretty(&file)
            .unwrap_or_else(|e| format!("Serialization error: {e}")); //~ failure_as_success
        tool_success(text)
    }

    #[tool(description = "Echo a key")]
    async fn echo(&self, Parameters(args): Parameters<FileArgs>) -> Result<CallToolResult, McpError> {
        tool_success(format!("key {}", args.key))
    }
}
