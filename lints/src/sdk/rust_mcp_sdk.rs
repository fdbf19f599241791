//! rust-mcp-sdk and rust-mcp-schema (sdk-error-apis.md §2).

use super::table::{
    consts, entry, protocol, result, value, Builds, Ctor, LockedTable, SdkTable, TableFix,
};
use super::HandlerKind::Dispatcher;
use super::{Sdk, ToolErrorForm, Version};

pub static SDK: Sdk = entry(&TABLE);

/// rust-mcp-sdk 2.x speaks 2026-07-28 and sends -32002 unchanged; before 2.0 it speaks
/// 2025-06-18 at most, whose peers expect it.
fn named_resource_not_found_fits_peer(version: Option<Version>) -> bool {
    version.is_some_and(|v| v.major < 2)
}

/// rust-mcp-sdk 0.7–2.x with rust-mcp-schema (§2).
static TABLE: SdkTable = SdkTable {
    name: "rust-mcp-sdk",
    // The SDK's transport and macro crates are its own too (never servers).
    roots: &[
        "rust_mcp_sdk",
        "rust_mcp_schema",
        "rust_mcp_transport",
        "rust_mcp_macros",
        "rust-mcp-sdk",
        "rust-mcp-schema",
    ],
    protocol_error_types: &["RpcError", "SdkError"],
    tool_error_types: &["CallToolError"],
    result_aliases: &["SdkResult"],
    result_types: &["CallToolResult"],
    ctors: &[
        value("CallToolError", "new", -32603, None),
        value("CallToolError", "from_message", -32603, Some(0)),
        value("CallToolError", "invalid_arguments", -32603, Some(1)),
        value("CallToolError", "unknown_tool", -32603, Some(0)),
        value("CallToolError", "unsupported_task_augmented_tool_call", -32603, None),
        result("CallToolResult", "with_error", Builds::ToolError { content: Some(0), never_empty: true }),
        // The schema's only `From` for it is `From<CallToolError>`, which sets `is_error`.
        result("CallToolResult", "from", Builds::ToolError { content: Some(0), never_empty: true }),
        result("CallToolResult", "text_content", Builds::ToolSuccess { content: Some(0) }),
        protocol("RpcError", "internal_error", -32603, None, Some("Internal error")),
        protocol("RpcError", "invalid_params", -32602, None, Some("Invalid params")),
        protocol("RpcError", "method_not_found", -32601, None, Some("Method not found")),
        protocol("RpcError", "invalid_request", -32600, None, Some("Invalid request")),
        protocol("RpcError", "parse_error", -32700, None, Some("Parse error")),
        Ctor {
            ty: "RpcError",
            method: "new",
            builds: Builds::ProtocolCodeArg { code: 0, msg: Some(1) },
            default_message: None,
        },
        Ctor {
            ty: "SdkError",
            method: "new",
            builds: Builds::ProtocolCodeArg { code: 0, msg: Some(1) },
            default_message: None,
        },
        protocol("SdkError", "connection_closed", -32000, None, None),
        protocol("SdkError", "request_timeout", -32001, None, None),
        protocol("SdkError", "resource_not_found", -32002, None, None),
        protocol("SdkError", "bad_request", -32015, None, None),
        protocol("SdkError", "session_not_found", -32016, None, None),
        protocol("SdkError", "internal_error", -32603, None, None),
        protocol("SdkError", "invalid_params", -32602, None, None),
        protocol("SdkError", "invalid_request", -32600, None, None),
        protocol("SdkError", "method_not_found", -32601, None, None),
        protocol("SdkError", "parse_error", -32700, None, None),
    ],
    consts: &{
        let a = consts!("RpcErrorCodes":
            PARSE_ERROR = -32700, INVALID_REQUEST = -32600, METHOD_NOT_FOUND = -32601,
            INVALID_PARAMS = -32602, INTERNAL_ERROR = -32603, HEADER_MISMATCH = -32020,
            MISSING_REQUIRED_CLIENT_CAPABILITY = -32021, UNSUPPORTED_PROTOCOL_VERSION = -32022);
        let b = consts!("SdkErrorCodes":
            CONNECTION_CLOSED = -32000, REQUEST_TIMEOUT = -32001, RESOURCE_NOT_FOUND = -32002,
            BAD_REQUEST = -32015, SESSION_NOT_FOUND = -32016, PARSE_ERROR = -32700,
            INVALID_REQUEST = -32600, METHOD_NOT_FOUND = -32601, INVALID_PARAMS = -32602,
            INTERNAL_ERROR = -32603);
        [a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9]]
    },
    called_only_by_default_of: &[],
    trait_handlers: &[
        ("ServerHandler", "handle_call_tool_request", Dispatcher),
        ("ServerHandler", "handle_call_tool_request_mrtr", Dispatcher),
    ],
    other_handler_traits: &["ServerHandler", "ServerHandlerCore"],
    attr_handlers: &[],
    inherent_tool_methods: &["call_tool"],
    tool_err_always_tool_error: false,
    outcome_registrations: &[],
    catching_chain_methods: &[],
    question_mark_code: None,
    question_mark_codes_of: &[],
    converts_crate_errors: false,
    sent_code: None,
    tool_error_to_protocol_code: Some(-32603),
    error_macros: &[],
    closure_registrations: &[],
    other_closure_registrations: &[],
    payload_is_result_text: false,
    closure_ok_is_output: false,
    tool_call_arm_variants: &["CallToolRequest"],
    tool_error_snippet: "Ok(CallToolResult::from(CallToolError::from_message({msg})).into())",
    output_tool_error_snippet: None,
    tool_error_caveat: None,
    unknown_tool_snippet: "RpcError::invalid_params().with_message(format!(\"Unknown tool: {}\", <name>))",
    unknown_tool_caveat: Some("from `ServerHandlerCore::handle_request`: rust-mcp-sdk turns every `CallToolError` from `handle_call_tool_request` into an isError result"),
    named_resource_not_found_fits_peer,
    request_context_types: &[],
    request_context_checks: &[],
    serializing_methods: &[],
    serializing_fns: &[],
    content_vec_into_result: false,
    older: &[(Version { major: 0, minor: 8 }, &TABLE_0_7)],
    when_locked: &[],
    fix: Some(&FIX),
};

/// rust-mcp-sdk before 0.8 (read in 0.1.3, 0.2.6, 0.3.3, 0.4.7, 0.5.3, 0.6.3 and 0.7.4): the
/// rust-mcp-schema it takes (0.3 to 0.7) may have no `CallToolError::from_message` (0.7.0 has
/// none; 0.7.5 does), and rust-mcp-sdk before 0.4 has no `schema` module to import from, so the
/// help names the version whose schema has it and there is no fix. `From<CallToolError> for
/// CallToolResult` and `ServerHandlerCore::handle_request -> Result<ResultFromServer, RpcError>`
/// are there in all of them.
static TABLE_0_7: SdkTable = SdkTable {
    tool_error_snippet:
        "Ok(CallToolResult::from(CallToolError::from_message({msg})).into()) on rust-mcp-sdk 0.8 or later (its rust-mcp-schema 0.9 has `CallToolError::from_message`), or on 0.7 with rust-mcp-schema 0.7.5 or later in Cargo.lock (`cargo update -p rust-mcp-schema`)",
    older: &[],
    // The schema the crate builds with, read from its Cargo.lock (the version is the lock's).
    when_locked: &[LockedTable {
        package: "rust-mcp-schema",
        at_least: (0, 7, 5),
        table: &TABLE_0_7_SCHEMA_0_7_5,
    }],
    fix: None,
    ..TABLE
};

/// rust-mcp-sdk 0.7 (read in 0.7.4) built with rust-mcp-schema 0.7.5 or later: `from_message`
/// is there (`2025_06_18/schema_utils.rs` ~1507), with `From<CallToolError> for CallToolResult`
/// (~1537) and `From<CallToolResult> for ResultFromServer` (~3111); the SDK's `schema` module
/// re-exports the schema's root (`schema.rs`, feature `2025_06_18`, the default), `schema_utils`
/// included. So the fixes are 0.8's.
static TABLE_0_7_SCHEMA_0_7_5: SdkTable = SdkTable {
    older: &[],
    when_locked: &[],
    fix: Some(&FIX_0_7),
    ..TABLE
};

static FIX_0_7: TableFix = TableFix {
    since: Version { major: 0, minor: 7 },
    ..FIX
};

/// Read in rust-mcp-sdk 2.0.0 with rust-mcp-schema 2.0.0: `CallToolError::from_message(impl
/// Into<String>)` and `impl From<CallToolError> for CallToolResult` (isError, the message as
/// text; schema `2026_07_28/schema_utils.rs`), `Ok(result.into())` into `ServerResult` as the
/// SDK's own `handle_call_tool_request` does (`mcp_handlers/mcp_server_handler.rs`); paths
/// `rust_mcp_sdk::schema::{CallToolResult, TextContent, RpcError}` and
/// `rust_mcp_sdk::schema::schema_utils::CallToolError`. The same in rust-mcp-sdk 1.1.0 with
/// rust-mcp-schema 1.0.0 (`generated_schema/2025_11_25/schema_utils.rs`: `from_message`, `From<
/// CallToolError> for CallToolResult`, `From<CallToolResult> for ResultFromServer`, the `Ok` type
/// of 1.x's `ServerHandlerCore::handle_request`; `lib.rs` re-exports `schema_utils` under
/// `schema`); and in rust-mcp-sdk 0.8.0, 0.8.3, 0.9.0, 1.0.0 and 1.0.1, which take rust-mcp-schema
/// 0.9 and 0.10 (read in 0.9.0, 0.9.6, 0.10.0 and 0.10.3: `from_message`, `From<CallToolError> for
/// CallToolResult` and a `From<CallToolResult>` for `ResultFromServer` in every protocol module,
/// in 0.9.0's 2025-11-25 through `ResultFromServer = ServerResult`; the SDK's `schema` module
/// re-exports `schema_utils`). No unknown-tool fix: the -32602 error belongs in
/// `ServerHandlerCore::handle_request`, not where the tools are.
static FIX: TableFix = TableFix {
    since: Version { major: 0, minor: 8 },
    result: (
        "CallToolResult",
        &["rust_mcp_sdk", "schema", "CallToolResult"],
    ),
    content: ("TextContent", &["rust_mcp_sdk", "schema", "TextContent"]),
    error: ("RpcError", &["rust_mcp_sdk", "schema", "RpcError"]),
    others: &[(
        "CallToolError",
        &["rust_mcp_sdk", "schema", "schema_utils", "CallToolError"],
    )],
    form: ToolErrorForm::OkResult,
    wrapped_results: &["ServerResult", "ResultFromServer"],
    error_constructors: &[],
    message_drops_into: true,
    unknown_tool: false,
    preludes: &[],
};
