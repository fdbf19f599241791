//@ rmcp = "3.11"
//@ dep: serde_json = "1"
// A result helper that answers isError or success by a flag its callers pass (`fn respond(..,
// is_error: bool) { if is_error { structured_error(v) } else { structured(v) } }`): which answer
// a call gives is the caller's flag, so the helper's success branch is no answer of its own and
// a failure passed on with `true` is not reported. A helper that always answers success, used on
// the failure path, is.
use rmcp::{model::*, tool, tool_router, ErrorData as McpError};
use serde_json::{json, Value};

fn respond(summary: String, value: Value, is_error: bool) -> CallToolResult {
    let mut result = if is_error {
        CallToolResult::structured_error(value)
    } else {
        CallToolResult::structured(value)
    };
    result.content.insert(0, ContentBlock::text(summary));
    result
}

fn tool_error(e: &std::io::Error) -> CallToolResult {
    respond(e.to_string(), json!({ "ok": false, "error": e.to_string() }), true)
}

fn tool_ok(value: Value) -> CallToolResult {
    respond("ok".to_string(), value, false)
}

fn plain_text(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

pub struct Irc;

#[tool_router]
impl Irc {
    #[tool(description = "Read the log")]
    async fn read_log(&self) -> Result<CallToolResult, McpError> {
        match std::fs::read_to_string("/var/log/irc.log") {
            Ok(text) => Ok(tool_ok(json!({ "log": text }))),
            Err(e) => Ok(tool_error(&e)),
        }
    }

    #[tool(description = "Read the topic")]
    async fn read_topic(&self) -> Result<CallToolResult, McpError> {
        match std::fs::read_to_string("/var/lib/irc/topic") {
            Ok(text) => Ok(plain_text(text)),
            Err(e) => Ok(plain_text(format!("Failed to read the topic: {e}"))), //~ failure_as_success
        }
    }
}
