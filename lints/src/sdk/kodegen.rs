//! kodegen (docs/sdks.md, "kodegen"): a tool framework over rmcp, read in kodegen_mcp_schema
//! 0.10.10 and 0.10.14 and kodegen_server_http 0.10.11 (over rmcp 0.11).
//!
//! - A tool is `impl kodegen_mcp_schema::Tool for T { async fn execute(&self, args, ctx) ->
//!   Result<ToolResponse<..>, McpError> }` (`tool/traits.rs` ~465), registered with
//!   kodegen_server_http's `register_tool`, which hands rmcp's `ToolRouter` the route
//!   `Tool::into_tool_route` builds (`traits.rs` ~496).
//! - Its `Err` is a JSON-RPC error, never an isError result: `ToolHandler::call` (`traits.rs`
//!   ~977-1007) answers `Err(e)` with `Err(rmcp::ErrorData::from(e))`, and kodegen_server_http's
//!   `call_tool` (`server.rs` ~1123-1235) passes the router's answer on. `From<McpError> for
//!   rmcp::ErrorData` (`tool/error.rs` ~87-106) picks the code per variant: `InvalidArguments`
//!   -32602, `ToolNotFound` -32601, `ResourceNotFound` rmcp's -32002, every other variant -32603
//!   (`PermissionDenied` and `ReadOnlyViolation` as "Unauthorized: ..").
//! - `?` converts `anyhow::Error`, `std::io::Error` and `serde_json::Error` into `McpError`
//!   itself (`#[from]` on `Other`, `Io`, `Serialization`): -32603.
//! - Its `Ok(ToolResponse::new(display, metadata))` is a success result (`into_call_tool_result`,
//!   `traits.rs` ~174: `is_error: None`), the display text first. The framework has no way for a
//!   tool to answer isError.
//! - Unknown tools never reach a tool: rmcp's `ToolRouter` answers them (-32602 in rmcp 0.11).

use super::table::{entry, peer_expects_minus_32002, protocol, result, Builds, Ctor, SdkTable};
use super::HandlerKind::Tool;
use super::Sdk;

pub static SDK: Sdk = entry(&TABLE);

/// A variant (`McpError::Network(msg)`) or helper (`McpError::search_index(msg)`) whose error
/// goes out as -32603 with the message.
const fn internal(method: &'static str) -> Ctor {
    protocol("McpError", method, -32603, Some(0), None)
}

static TABLE: SdkTable = SdkTable {
    name: "kodegen",
    roots: &["kodegen_mcp_schema", "kodegen_server_http"],
    protocol_error_types: &["McpError"],
    tool_error_types: &[],
    result_aliases: &[],
    result_types: &["ToolResponse"],
    ctors: &[
        protocol("McpError", "InvalidArguments", -32602, Some(0), None),
        protocol("McpError", "invalid_arguments", -32602, Some(0), None),
        protocol("McpError", "ToolNotFound", -32601, Some(0), None),
        protocol("McpError", "ResourceNotFound", -32002, Some(0), None),
        protocol("McpError", "resource_not_found", -32002, Some(0), None),
        internal("PermissionDenied"),
        internal("ReadOnlyViolation"),
        internal("Authentication"),
        internal("Network"),
        internal("SearchIndex"),
        internal("search_index"),
        internal("Manifest"),
        internal("manifest"),
        internal("InvalidUrl"),
        internal("invalid_url"),
        internal("SearchEngine"),
        internal("search_engine"),
        // `#[from]` wrappers: the message is the wrapped error's `Display` (an `anyhow!(..)`'s
        // text when the tool builds it there).
        protocol("McpError", "Other", -32603, Some(0), None),
        protocol("McpError", "Io", -32603, None, None),
        protocol("McpError", "Serialization", -32603, None, None),
        result(
            "ToolResponse",
            "new",
            Builds::ToolSuccess { content: Some(0) },
        ),
        result(
            "ToolResponse",
            "empty_display",
            Builds::ToolSuccess { content: None },
        ),
    ],
    consts: &[],
    called_only_by_default_of: &[],
    trait_handlers: &[("Tool", "execute", Tool)],
    // `Tool::name`, `description`, `prompt`, ..: the tool's declaration, not its answer.
    other_handler_traits: &["Tool", "PromptProvider"],
    attr_handlers: &[],
    inherent_tool_methods: &[],
    tool_err_always_tool_error: false,
    outcome_registrations: &[],
    catching_chain_methods: &[],
    question_mark_code: Some(-32603),
    question_mark_codes_of: &[],
    converts_crate_errors: false,
    sent_code: None,
    tool_error_to_protocol_code: None,
    error_macros: &[],
    closure_registrations: &[],
    other_closure_registrations: &[],
    payload_is_result_text: false,
    closure_ok_is_output: false,
    tool_call_arm_variants: &[],
    // `Tool::execute` has no isError answer (see above): the help names the rmcp result a
    // handler of the crate's own would return.
    tool_error_snippet: "Ok(CallToolResult::error(vec![Content::text({msg})]))",
    output_tool_error_snippet: None,
    tool_error_caveat: None,
    // No code to write: the router answers.
    unknown_tool_snippet: "",
    unknown_tool_caveat: Some("leave unknown names to rmcp's ToolRouter, which kodegen_server_http hands every call and which answers them with -32602"),
    named_resource_not_found_fits_peer: peer_expects_minus_32002,
    request_context_types: &["ToolExecutionContext"],
    request_context_checks: &[],
    serializing_methods: &[],
    serializing_fns: &[],
    content_vec_into_result: false,
    older: &[],
    when_locked: &[],
    fix: None,
};
