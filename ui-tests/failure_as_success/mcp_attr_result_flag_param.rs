//@ dep: mcp-attr = "0.0.7"
// A helper whose tail is the SDK's result struct with its flag a parameter
// (`CallToolResult { is_error: Some(is_error), .. }`) is read at each call by the literal it is
// passed: `text_result(msg, true)` in a failure arm is an isError result (silent),
// `text_result(msg, false)` there answers the failure as success.
use mcp_attr::schema::{CallToolRequestParams, CallToolResult, TextContent};
use mcp_attr::server::{McpServer, RequestContext};
use mcp_attr::{Error, ErrorCode, Result};

pub struct Files;

fn text_result(text: String, is_error: bool) -> CallToolResult {
    CallToolResult {
        content: vec![TextContent::new(text).into()],
        is_error: Some(is_error),
        meta: Default::default(),
    }
}

impl McpServer for Files {
    async fn tools_call(&self, p: CallToolRequestParams, _cx: &mut RequestContext) -> Result<CallToolResult> {
        let args = p.arguments.clone().unwrap_or_default();
        let dir = args.get("dir").and_then(|v| v.as_str()).unwrap_or(".");
        match p.name.as_str() {
            "count" => match std::fs::read_dir(dir) {
                Ok(rd) => Ok(text_result(format!("{} entries", rd.count()), false)),
                Err(e) => Ok(text_result(format!("cannot list {dir}: {e}"), true)),
            },
            "first" => match std::fs::read_dir(dir) {
                Ok(mut rd) => Ok(text_result(format!("{:?}", rd.next().map(|e| e.is_ok())), false)),
                Err(e) => Ok(text_result(format!("cannot list {dir}: {e}"), false)), //~ failure_as_success
            },
            other => Err(Error::new(ErrorCode::INVALID_PARAMS).with_message(format!("Unknown tool: {other}"), true)),
        }
    }
}
