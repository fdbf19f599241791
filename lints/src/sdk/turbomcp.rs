//! turbomcp (sdk-error-apis.md §4): 3.x and 4.x, and 2.x, whose `#[tool]` errors take the other
//! channel.

use super::table::{
    consts, entry, peer_expects_minus_32002, protocol, result, value, Builds, Ctor, SdkTable,
    TableFix,
};
use super::HandlerKind::{Dispatcher, Other, Tool};
use super::{Sdk, ToolErrorForm, Version};

pub static SDK: Sdk = entry(&TABLE);

/// turbomcp 3.x and 4.x (§4): a `#[server]` `#[tool]`'s `Err` is an isError result.
static TABLE: SdkTable = SdkTable {
    name: "turbomcp",
    roots: &[
        "turbomcp",
        "turbomcp_core",
        "turbomcp_protocol",
        "turbomcp_server",
        "turbomcp_types",
    ],
    protocol_error_types: &["McpError"],
    tool_error_types: &[],
    result_aliases: &["McpResult"],
    result_types: &["ToolResult", "CallToolResult"],
    ctors: &[
        value("McpError", "invalid_params", -32602, Some(0)),
        value("McpError", "internal", -32603, Some(0)),
        value("McpError", "safe_internal", -32603, Some(0)),
        value("McpError", "safe_tool_execution_failed", -32603, Some(0)),
        value("McpError", "tool_execution_failed", -32603, Some(1)),
        value("McpError", "tool_not_found", -32602, Some(0)),
        value("McpError", "prompt_not_found", -32602, Some(0)),
        value("McpError", "method_not_found", -32601, Some(0)),
        value("McpError", "capability_not_supported", -32601, Some(0)),
        value("McpError", "parse_error", -32700, Some(0)),
        value("McpError", "invalid_request", -32600, Some(0)),
        value("McpError", "serialization", -32603, Some(0)),
        value("McpError", "resource_not_found", -32002, Some(0)),
        value("McpError", "resource_access_denied", -32005, Some(0)),
        value("McpError", "protocol_version_mismatch", -32007, Some(0)),
        value("McpError", "authentication", -32008, Some(0)),
        value("McpError", "rate_limited", -32009, Some(0)),
        value("McpError", "server_overloaded", -32010, None),
        value("McpError", "permission_denied", -32011, Some(0)),
        value("McpError", "timeout", -32012, Some(0)),
        value("McpError", "unavailable", -32013, Some(0)),
        value("McpError", "transport", -32014, Some(0)),
        value("McpError", "configuration", -32015, Some(0)),
        value("McpError", "external_service", -32016, Some(0)),
        value("McpError", "cancelled", -32017, Some(0)),
        value("McpError", "security", -32018, Some(0)),
        // Stays a JSON-RPC error even from a `#[tool]`.
        protocol(
            "McpError",
            "url_elicitation_required",
            -32042,
            Some(0),
            None,
        ),
        Ctor {
            ty: "McpError",
            method: "new",
            builds: Builds::ErrorValueCodeArg {
                code: 0,
                msg: Some(1),
            },
            default_message: None,
        },
        Ctor {
            ty: "McpError",
            method: "from_rpc_code",
            builds: Builds::ErrorValueCodeArg {
                code: 0,
                msg: Some(1),
            },
            default_message: None,
        },
        result("ToolResult", "error", Builds::ToolErrorText { msg: 0 }),
        result("ToolResult", "text", Builds::ToolSuccess { content: None }),
        result("ToolResult", "json", Builds::ToolSuccess { content: None }),
        result("ToolResult", "empty", Builds::ToolSuccess { content: None }),
    ],
    consts: &consts!("ErrorKind":
        InvalidParams = -32602, ToolNotFound = -32602, PromptNotFound = -32602,
        Internal = -32603, Serialization = -32603, ToolExecutionFailed = -32603,
        MethodNotFound = -32601, CapabilityNotSupported = -32601, ParseError = -32700,
        InvalidRequest = -32600, ResourceNotFound = -32002, ResourceAccessDenied = -32005,
        ProtocolVersionMismatch = -32007, UrlElicitationRequired = -32042, Authentication = -32008,
        RateLimited = -32009, ServerOverloaded = -32010, PermissionDenied = -32011, Timeout = -32012,
        Unavailable = -32013, Transport = -32014, Configuration = -32015, ExternalService = -32016,
        Cancelled = -32017, Security = -32018, UserRejected = -1),
    called_only_by_default_of: &[],
    trait_handlers: &[("McpHandler", "call_tool", Dispatcher)],
    other_handler_traits: &["McpHandler"],
    attr_handlers: &[
        ("tool", "server", Tool),
        ("resource", "server", Other),
        ("prompt", "server", Other),
    ],
    inherent_tool_methods: &[],
    tool_err_always_tool_error: true,
    outcome_registrations: &[],
    catching_chain_methods: &[],
    question_mark_code: Some(-32603),
    question_mark_codes_of: &[],
    converts_crate_errors: false,
    sent_code: None,
    tool_error_to_protocol_code: None,
    error_macros: &[("mcp_err", None, true)],
    closure_registrations: &[],
    other_closure_registrations: &[],
    payload_is_result_text: false,
    closure_ok_is_output: false,
    tool_call_arm_variants: &[],
    tool_error_snippet: "Ok(ToolResult::error({msg}))",
    // A `#[tool]` whose `Ok` is its output (`McpResult<Json<T>>`, `McpResult<Value>`,
    // `McpResult<String>`): the generated dispatch turns its `Err(e)` into `Ok(e.to_tool_result())`,
    // an isError result with `e`'s message (turbomcp-macros 3.6.0 `server.rs` ~1389-1396,
    // turbomcp-core `error.rs` `to_tool_result` ~536-555); `McpError::internal(impl Into<String>)`
    // is the failure turbomcp 3.6.0's README writes in a `#[tool]` (Error Handling, ~724-739).
    output_tool_error_snippet: Some("Err(McpError::internal({msg}))"),
    tool_error_caveat: None,
    unknown_tool_snippet: "Err(McpError::tool_not_found(<name>))",
    unknown_tool_caveat: None,
    named_resource_not_found_fits_peer: peer_expects_minus_32002,
    // Versions before 3.0 are 2.x's (read in 2.3.7); no version (no manifest) is 3.x's.
    // `Context` (read in 1.1.2, lib.rs: `info`/`warn`/`error` log through `tracing` and return
    // `Ok(())`, `set`/`get` (de)serialise into the request's own store, `resolve` looks up a
    // service the server registered, `report_progress` updates its progress manager) and
    // `RequestContext` (2.x and later).
    request_context_types: &["Context", "RequestContext"],
    request_context_checks: &["validate_tenant_ownership"],
    serializing_methods: &[],
    serializing_fns: &[],
    content_vec_into_result: false,
    older: &[(Version { major: 3, minor: 0 }, &TABLE_2)],
    when_locked: &[],
    fix: Some(&FIX),
};

/// Read in turbomcp 3.6.0 (turbomcp-types `results.rs`: `ToolResult::error(text: impl
/// Into<String>)` and `ToolResult::text(..)`, same argument; turbomcp-core `error.rs`:
/// `McpError::tool_not_found(impl Into<String>)`, -32602), re-exported at the root (`lib.rs`:
/// `turbomcp::{McpError, McpResult, ToolResult}`). A `#[tool]`'s `Err` already is an isError
/// result on 3.x; the fixes serve `McpHandler::call_tool` (`Result<ToolResult, McpError>`).
/// 2.x has none: its `#[tool]` cannot return an isError result.
static FIX: TableFix = TableFix {
    since: Version { major: 3, minor: 0 },
    result: ("ToolResult", &["turbomcp", "ToolResult"]),
    content: ("Content", &["turbomcp", "Content"]),
    error: ("McpError", &["turbomcp", "McpError"]),
    others: &[],
    form: ToolErrorForm::OkResult,
    wrapped_results: &[],
    error_constructors: &[("text", "error")],
    message_drops_into: true,
    unknown_tool: true,
    // turbomcp 3.6.0 `lib.rs` `pub mod prelude`: `McpError`, `ToolResult` and `Content` (~342-372).
    preludes: &[&["turbomcp", "prelude"]],
};

/// turbomcp 2.x, as read in turbomcp 2.3.7, turbomcp-macros 2.3.7 and turbomcp-server 2.3.7.
/// The `#[tool]` wrapper (turbomcp-macros `tool.rs` ~121-137) maps every `McpError` variant to a
/// `ServerError` and the server sends it as a JSON-RPC error with `ServerError::error_code()`
/// (turbomcp-server `error.rs` ~313-345, `routing/utils.rs` `error_response`): `Handler` -32002
/// for most variants, `Authorization` -32005 for `Unauthorized`, `Internal` -32603,
/// `Serialization` -32602. A 2.x `#[tool]` cannot return an isError result at all.
static TABLE_2: SdkTable = SdkTable {
    name: "turbomcp",
    roots: TABLE.roots,
    protocol_error_types: &["McpError"],
    tool_error_types: &[],
    result_aliases: &["McpResult"],
    result_types: &["CallToolResult"],
    ctors: &[
        protocol("McpError", "internal", -32603, Some(0), None),
        protocol("McpError", "Internal", -32603, Some(0), None),
        protocol("McpError", "unauthorized", -32005, Some(0), None),
        protocol("McpError", "Unauthorized", -32005, Some(0), None),
        protocol("McpError", "Serialization", -32602, None, None),
        protocol("McpError", "invalid_request", -32002, Some(0), None),
        protocol("McpError", "InvalidRequest", -32002, Some(0), None),
        protocol("McpError", "tool", -32002, Some(0), None),
        protocol("McpError", "Tool", -32002, Some(0), None),
        protocol("McpError", "protocol", -32002, Some(0), None),
        protocol("McpError", "Protocol", -32002, Some(0), None),
        protocol("McpError", "resource", -32002, Some(0), None),
        protocol("McpError", "Resource", -32002, Some(0), None),
        protocol("McpError", "Prompt", -32002, Some(0), None),
        protocol("McpError", "Context", -32002, Some(0), None),
        protocol("McpError", "network", -32002, Some(0), None),
        protocol("McpError", "Network", -32002, Some(0), None),
        protocol("McpError", "invalid_input", -32002, Some(0), None),
        protocol("McpError", "InvalidInput", -32002, Some(0), None),
        protocol("McpError", "Schema", -32002, Some(0), None),
        protocol("McpError", "Transport", -32002, Some(0), None),
        // `McpError::Server(ServerError::not_found(..))`: the wrapper keeps the server error,
        // sent with `ServerError::error_code()` (turbomcp-server 2.3.7 `error.rs` ~147-345).
        protocol("ServerError", "not_found", -32004, Some(0), None),
        protocol("ServerError", "rate_limit", -32009, Some(0), None),
        protocol(
            "ServerError",
            "rate_limit_with_retry",
            -32009,
            Some(0),
            None,
        ),
        protocol("ServerError", "configuration", -32015, Some(0), None),
        protocol(
            "ServerError",
            "configuration_with_key",
            -32015,
            Some(0),
            None,
        ),
        protocol("ServerError", "authentication", -32008, Some(0), None),
        protocol(
            "ServerError",
            "authentication_with_method",
            -32008,
            Some(0),
            None,
        ),
        protocol("ServerError", "authorization", -32005, Some(0), None),
        protocol(
            "ServerError",
            "authorization_with_resource",
            -32005,
            Some(0),
            None,
        ),
        protocol("ServerError", "resource_exhausted", -32010, Some(0), None),
        protocol(
            "ServerError",
            "resource_exhausted_with_usage",
            -32010,
            Some(0),
            None,
        ),
        protocol("ServerError", "handler", -32002, Some(0), None),
        protocol("ServerError", "handler_with_context", -32002, Some(0), None),
        // "Operation '{op}' timed out": the first argument names the operation, not the failure.
        protocol("ServerError", "timeout", -32603, None, None),
        protocol("ServerError", "middleware", -32603, Some(1), None),
        protocol("ServerError", "routing", -32603, Some(0), None),
        protocol("ServerError", "routing_with_method", -32603, Some(0), None),
        // `McpError::from(ProtocolError::invalid_params(..))` (`turbomcp::ProtocolError` is
        // `turbomcp_protocol::Error`): sent as `ServerError::Protocol`, with its kind's code
        // (turbomcp-protocol 2.3.7 `error.rs` ~241-557, `jsonrpc_error_code` ~680-716).
        protocol("ProtocolError", "validation", -32602, Some(0), None),
        protocol("ProtocolError", "invalid_params", -32602, Some(0), None),
        protocol("ProtocolError", "authentication", -32008, Some(0), None),
        protocol("ProtocolError", "not_found", -32020, Some(0), None),
        protocol("ProtocolError", "permission_denied", -32011, Some(0), None),
        protocol("ProtocolError", "bad_request", -32600, Some(0), None),
        protocol("ProtocolError", "internal", -32603, Some(0), None),
        protocol("ProtocolError", "transport", -32014, Some(0), None),
        protocol("ProtocolError", "serialization", -32602, Some(0), None),
        protocol("ProtocolError", "protocol", -32601, Some(0), None),
        protocol("ProtocolError", "timeout", -32012, Some(0), None),
        protocol("ProtocolError", "unavailable", -32013, Some(0), None),
        protocol("ProtocolError", "rate_limited", -32009, Some(0), None),
        protocol("ProtocolError", "configuration", -32015, Some(0), None),
        protocol("ProtocolError", "external_service", -32016, Some(0), None),
        protocol("ProtocolError", "cancelled", -32017, Some(0), None),
        protocol("ProtocolError", "handler", -32019, Some(0), None),
        protocol("ProtocolError", "security", -32018, Some(0), None),
        protocol("ProtocolError", "tool_not_found", -32001, Some(0), None),
        protocol(
            "ProtocolError",
            "tool_execution_failed",
            -32002,
            Some(1),
            None,
        ),
        protocol("ProtocolError", "prompt_not_found", -32003, Some(0), None),
        protocol("ProtocolError", "resource_not_found", -32004, Some(0), None),
        protocol(
            "ProtocolError",
            "resource_access_denied",
            -32005,
            Some(1),
            None,
        ),
        protocol(
            "ProtocolError",
            "capability_not_supported",
            -32006,
            Some(0),
            None,
        ),
    ],
    // turbomcp-protocol 2.3.7 `Error::jsonrpc_error_code` (`error.rs` ~680-716).
    consts: &consts!("ErrorKind":
        BadRequest = -32600, Protocol = -32601, Validation = -32602, Serialization = -32602,
        Internal = -32603, UserRejected = -1, ToolNotFound = -32001, ToolExecutionFailed = -32002,
        PromptNotFound = -32003, ResourceNotFound = -32004, ResourceAccessDenied = -32005,
        CapabilityNotSupported = -32006, ProtocolVersionMismatch = -32007, Authentication = -32008,
        RateLimited = -32009, ServerOverloaded = -32010, PermissionDenied = -32011, Timeout = -32012,
        Unavailable = -32013, Transport = -32014, Configuration = -32015, ExternalService = -32016,
        Cancelled = -32017, Security = -32018, Handler = -32019, NotFound = -32020),
    called_only_by_default_of: &[],
    trait_handlers: &[],
    other_handler_traits: &[],
    attr_handlers: TABLE.attr_handlers,
    inherent_tool_methods: &[],
    tool_err_always_tool_error: false,
    outcome_registrations: &[],
    catching_chain_methods: &[],
    // `From<io::Error>` (Transport), reqwest (Network), chrono (InvalidInput): all -32002.
    // `serde_json::Error` (Serialization, -32602) is the exception the table cannot tell apart.
    question_mark_code: Some(-32002),
    // turbomcp 2.3.7 `lib.rs` ~894: `Serialization(#[from] serde_json::Error)`, sent as -32602.
    question_mark_codes_of: &[("serde_json::Error", -32602)],
    converts_crate_errors: false,
    sent_code: None,
    tool_error_to_protocol_code: None,
    // `mcp_error!(..)` is `turbomcp_protocol::Error::handler(..)`, kind `Handler`: -32019.
    error_macros: &[("mcp_error", Some(-32019), false)],
    closure_registrations: &[],
    other_closure_registrations: &[],
    payload_is_result_text: false,
    closure_ok_is_output: false,
    tool_call_arm_variants: &[],
    tool_error_snippet:
        "Err(McpError::tool({msg})) on turbomcp 3 (2.x sends every #[tool] Err as a JSON-RPC error)",
    output_tool_error_snippet: None,
    tool_error_caveat: None,
    unknown_tool_snippet: TABLE.unknown_tool_snippet,
    unknown_tool_caveat: None,
    named_resource_not_found_fits_peer: peer_expects_minus_32002,
    request_context_types: &["Context", "RequestContext"],
    request_context_checks: &["validate_tenant_ownership"],
    serializing_methods: &[],
    serializing_fns: &[],
    content_vec_into_result: false,
    older: &[],
    when_locked: &[],
    fix: None,
};
