//! ultrafast-mcp (sdk-error-apis.md §6).

use super::table::{
    consts, entry, peer_expects_minus_32002, protocol, Builds, Ctor, SdkTable, TableFix,
};
use super::HandlerKind::Dispatcher;
use super::{Sdk, ToolErrorForm, Version};

pub static SDK: Sdk = entry(&TABLE);

/// ultrafast-mcp (§6).
static TABLE: SdkTable = SdkTable {
    name: "ultrafast-mcp",
    roots: &[
        "ultrafast_mcp",
        "ultrafast_mcp_core",
        "ultrafast_mcp_server",
        "ultrafast-mcp",
    ],
    protocol_error_types: &["MCPError", "JsonRpcError"],
    tool_error_types: &[],
    result_aliases: &["MCPResult"],
    result_types: &["ToolResult", "ToolCallResponse"],
    ctors: &[
        protocol("MCPError", "invalid_params", -32602, Some(0), None),
        protocol("MCPError", "not_found", -32602, Some(0), None),
        protocol("MCPError", "method_not_found", -32603, Some(0), None),
        protocol("MCPError", "internal_error", -32603, Some(0), None),
        protocol("MCPError", "invalid_request", -32603, Some(0), None),
        protocol("MCPError", "invalid_response", -32603, Some(0), None),
        protocol("MCPError", "serialization_error", -32603, Some(0), None),
        protocol("MCPError", "transport_error", -32603, Some(0), None),
        protocol("MCPError", "request_timeout", -32603, None, None),
        protocol("MCPError", "ToolExecution", -32603, None, None),
        protocol("MCPError", "Internal", -32603, Some(0), None),
        Ctor {
            ty: "JsonRpcError",
            method: "new",
            builds: Builds::ProtocolCodeArg {
                code: 0,
                msg: Some(1),
            },
            default_message: None,
        },
    ],
    consts: &{
        let a = consts!("error_codes":
            INITIALIZATION_FAILED = -32000, CAPABILITY_NOT_SUPPORTED = -32001, RESOURCE_NOT_FOUND = -32002,
            TOOL_EXECUTION_ERROR = -32003, INVALID_URI = -32004, ACCESS_DENIED = -32005,
            AUTHENTICATION_ERROR = -32006, VALIDATION_ERROR = -32007, RATE_LIMIT_ERROR = -32008,
            PARSE_ERROR = -32700, INVALID_REQUEST = -32600, METHOD_NOT_FOUND = -32601,
            INVALID_PARAMS = -32602, INTERNAL_ERROR = -32603);
        let b = consts!("mcp_error_codes":
            INITIALIZATION_FAILED = -32000, CAPABILITY_NOT_SUPPORTED = -32001, RESOURCE_NOT_FOUND = -32002,
            TOOL_EXECUTION_ERROR = -32003, INVALID_URI = -32004, ACCESS_DENIED = -32005,
            REQUEST_TIMEOUT = -32006, PROTOCOL_VERSION_NOT_SUPPORTED = -32007);
        [
            a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
        ]
    },
    called_only_by_default_of: &[],
    trait_handlers: &[("ToolHandler", "handle_tool_call", Dispatcher)],
    other_handler_traits: &["ToolHandler", "ResourceHandler", "PromptHandler"],
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
    tool_error_snippet:
        "Ok(ToolResult { content: vec![ToolContent::text({msg})], is_error: Some(true) })",
    output_tool_error_snippet: None,
    tool_error_caveat: None,
    unknown_tool_snippet: "Err(MCPError::invalid_params(format!(\"Unknown tool: {}\", <name>)))",
    unknown_tool_caveat: None,
    named_resource_not_found_fits_peer: peer_expects_minus_32002,
    request_context_types: &[],
    request_context_checks: &[],
    serializing_methods: &[],
    serializing_fns: &[],
    content_vec_into_result: false,
    older: &[],
    when_locked: &[],
    fix: Some(&FIX),
};

/// Read in ultrafast-mcp 202506018.1.0 (feature `core`): `ToolResult = ToolCallResponse {
/// content: Vec<ToolContent>, is_error: Option<bool> }` and `ToolContent::text(String)`
/// (ultrafast-mcp-core `types/tools.rs`), `MCPError::invalid_params(String)`, which the server
/// sends as -32602 (`error.rs`, ultrafast-mcp-server `server.rs`), all re-exported at the root
/// (`lib.rs`). `ToolContent::text` takes a `String`, and so do the `MCPError` constructors the
/// message comes from: the message is kept as written.
static FIX: TableFix = TableFix {
    since: Version {
        major: 202506018,
        minor: 1,
    },
    result: ("ToolResult", &["ultrafast_mcp", "ToolResult"]),
    content: ("ToolContent", &["ultrafast_mcp", "ToolContent"]),
    error: ("MCPError", &["ultrafast_mcp", "MCPError"]),
    others: &[],
    form: ToolErrorForm::OkResult,
    wrapped_results: &[],
    error_constructors: &[],
    message_drops_into: false,
    unknown_tool: true,
    preludes: &[],
};
