//@ rmcp = "1.7"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A tool answers a crate fn's error through the crate's own isError helper, handing it the
// error's Display (`Err(e) => Ok(tool_error(format!("create failed: {e}")))`): the helper's
// result shows the text it is handed, so the crate fn's literal message is shown whole there,
// as it is when the tool builds `CallToolResult::error(..)` itself. Text the tool writes itself
// shows nothing of the error's, and a rejection in a fn that takes no input rejects no value the
// model gave.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData,
};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub id: String,
}

fn check(id: &str) -> Result<String, String> {
    if id.is_empty() {
        return Err("Invalid file path".to_string()); //~ vague_error_text
    }
    Ok(id.to_string())
}

fn open(id: &str) -> Result<String, String> {
    if id.starts_with('/') {
        return Err("Unknown session".to_string());
    }
    Ok(id.to_string())
}

/// Takes no input: its rejection is of what the server read, not of a value the model gave.
fn upstream_status() -> Result<String, String> {
    match std::env::var("UPSTREAM_STATUS").as_deref() {
        Ok("ready") => Ok("ready".to_string()),
        _ => Err("unexpected upstream status".to_string()),
    }
}

fn tool_error(s: String) -> CallToolResult {
    CallToolResult::error(vec![Content::text(s)])
}

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "create")]
    async fn create(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match check(&p.id) {
            Ok(s) => Ok(CallToolResult::success(vec![Content::text(s)])),
            Err(e) => Ok(tool_error(format!("session_create failed: {e}"))),
        }
    }

    #[tool(description = "status")]
    async fn status(&self) -> Result<CallToolResult, ErrorData> {
        match upstream_status() {
            Ok(s) => Ok(CallToolResult::success(vec![Content::text(s)])),
            Err(e) => Ok(tool_error(format!("status failed: {e}"))),
        }
    }

    #[tool(description = "open")]
    async fn open(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        match open(&p.id) {
            Ok(s) => Ok(CallToolResult::success(vec![Content::text(s)])),
            Err(_) => Ok(tool_error(format!("session {:?} does not exist; list sessions first", p.id))),
        }
    }
}
