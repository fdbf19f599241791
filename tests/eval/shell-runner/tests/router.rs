//! Integration tests: results the router produces look like what clients expect.

use rmcp::model::{CallToolResult, Content, ErrorCode};
use shell_runner_mcp::McpError;

fn is_tool_error(r: &CallToolResult) -> bool {
    r.is_error == Some(true)
}

#[test]
fn error_results_are_flagged() {
    assert!(is_tool_error(&CallToolResult::error(vec![])));
    assert!(is_tool_error(&CallToolResult::error(vec![Content::text(
        "failed"
    )])));
    assert!(!is_tool_error(&CallToolResult::success(vec![
        Content::text("ok")
    ])));
}

#[test]
fn protocol_errors_keep_code_and_message() {
    let e = McpError::new(ErrorCode(-32001), "internal error", None);
    assert_eq!(e.code, ErrorCode(-32001));
    let e = McpError::internal_error("something went wrong", None);
    assert_eq!(e.code, ErrorCode::INTERNAL_ERROR);
}
