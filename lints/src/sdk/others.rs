//! The SDKs other than rmcp, as tables (sdk-error-apis.md §2–§6).

use super::table::{Builds, Ctor, SdkTable};
use super::HandlerKind::{Dispatcher, Other, Tool};

const fn protocol(
    ty: &'static str,
    method: &'static str,
    code: i64,
    msg: Option<usize>,
    default_message: Option<&'static str>,
) -> Ctor {
    Ctor {
        ty,
        method,
        builds: Builds::Protocol { code, msg },
        default_message,
    }
}

const fn value(
    ty: &'static str,
    method: &'static str,
    protocol_code: i64,
    msg: Option<usize>,
) -> Ctor {
    Ctor {
        ty,
        method,
        builds: Builds::ErrorValue { protocol_code, msg },
        default_message: None,
    }
}

const fn result(ty: &'static str, method: &'static str, builds: Builds) -> Ctor {
    Ctor {
        ty,
        method,
        builds,
        default_message: None,
    }
}

const STANDARD: [(&str, i64); 5] = [
    ("PARSE_ERROR", -32700),
    ("INVALID_REQUEST", -32600),
    ("METHOD_NOT_FOUND", -32601),
    ("INVALID_PARAMS", -32602),
    ("INTERNAL_ERROR", -32603),
];

macro_rules! consts {
    ($ty:literal: $($name:ident = $code:expr),* $(,)?) => {
        [$(($ty, stringify!($name), $code)),*]
    };
}

/// rust-mcp-sdk 0.7–2.x with rust-mcp-schema (§2).
pub static RUST_MCP_SDK: SdkTable = SdkTable {
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
    trait_handlers: &[
        ("ServerHandler", "handle_call_tool_request", Dispatcher),
        ("ServerHandler", "handle_call_tool_request_mrtr", Dispatcher),
    ],
    other_handler_traits: &["ServerHandler", "ServerHandlerCore"],
    attr_handlers: &[],
    inherent_tool_methods: &["call_tool"],
    tool_err_always_tool_error: false,
    question_mark_code: None,
    tool_error_to_protocol_code: Some(-32603),
    error_macros: &[],
    closure_registrations: &[],
    tool_call_arm_variants: &["CallToolRequest"],
    tool_error_snippet: "Ok(CallToolResult::from(CallToolError::from_message({msg})).into())",
    unknown_tool_snippet: "RpcError::invalid_params().with_message(format!(\"Unknown tool: {}\", <name>)) from `ServerHandlerCore::handle_request` (rust-mcp-sdk turns every `CallToolError` from `handle_call_tool_request` into an isError result)",
};

/// pmcp 2.x (§3).
pub static PMCP: SdkTable = SdkTable {
    name: "pmcp",
    roots: &["pmcp"],
    protocol_error_types: &["Error"],
    tool_error_types: &[],
    result_aliases: &[],
    result_types: &["CallToolResult"],
    ctors: &[
        // Tuple variants written directly (`Error::Validation("..".into())`).
        protocol("Error", "Validation", -32603, Some(0), None),
        protocol("Error", "Internal", -32603, Some(0), None),
        protocol("Error", "NotFound", -32603, Some(0), None),
        protocol("Error", "Authentication", -32603, Some(0), None),
        protocol("Error", "InvalidState", -32603, Some(0), None),
        protocol("Error", "Capability", -32603, Some(0), None),
        protocol("Error", "Other", -32603, None, None),
        protocol("Error", "RateLimited", -32603, None, None),
        protocol("Error", "CircuitBreakerOpen", -32603, None, None),
        protocol("Error", "Timeout", -32603, None, None),
        protocol("Error", "Cancelled", -32603, None, None),
        result("Error", "tool_rejected", Builds::ToolErrorText { msg: 0 }),
        protocol("Error", "internal", -32603, Some(0), None),
        protocol("Error", "validation", -32603, Some(0), None),
        protocol("Error", "not_found", -32603, Some(0), None),
        protocol("Error", "authentication", -32603, Some(0), None),
        protocol("Error", "invalid_state", -32603, Some(0), None),
        protocol("Error", "capability", -32603, Some(0), None),
        protocol("Error", "protocol_msg", -32603, Some(0), None),
        protocol("Error", "timeout", -32603, None, None),
        protocol("Error", "cancelled", -32603, None, None),
        protocol("Error", "invalid_params", -32602, Some(0), None),
        protocol("Error", "method_not_found", -32601, Some(0), None),
        protocol("Error", "parse", -32700, Some(0), None),
        Ctor {
            ty: "Error",
            method: "protocol",
            builds: Builds::ProtocolCodeArg {
                code: 0,
                msg: Some(1),
            },
            default_message: None,
        },
        result(
            "CallToolResult",
            "error",
            Builds::ToolError {
                content: Some(0),
                never_empty: false,
            },
        ),
        result(
            "CallToolResult",
            "rejected",
            Builds::ToolErrorText { msg: 0 },
        ),
        result(
            "CallToolResult",
            "new",
            Builds::ToolSuccess { content: Some(0) },
        ),
        result(
            "CallToolResult",
            "success",
            Builds::ToolSuccess { content: Some(0) },
        ),
    ],
    consts: &{
        let extra = consts!("ErrorCode":
            REQUEST_TIMEOUT = -32001, UNSUPPORTED_CAPABILITY = -32002, AUTHENTICATION_REQUIRED = -32003,
            PERMISSION_DENIED = -32004, RATE_LIMITED = -32005, CIRCUIT_BREAKER_OPEN = -32006);
        [
            ("ErrorCode", STANDARD[0].0, STANDARD[0].1),
            ("ErrorCode", STANDARD[1].0, STANDARD[1].1),
            ("ErrorCode", STANDARD[2].0, STANDARD[2].1),
            ("ErrorCode", STANDARD[3].0, STANDARD[3].1),
            ("ErrorCode", STANDARD[4].0, STANDARD[4].1),
            extra[0],
            extra[1],
            extra[2],
            extra[3],
            extra[4],
            extra[5],
        ]
    },
    trait_handlers: &[
        ("ToolHandler", "handle", Tool),
        ("ToolHandler", "handle_output", Tool),
        ("ToolHandler", "call_tool", Tool),
    ],
    other_handler_traits: &[
        "PromptHandler",
        "ResourceHandler",
        "SamplingHandler",
        "ToolHandler",
    ],
    attr_handlers: &[
        ("mcp_tool", "", Tool),
        ("mcp_prompt", "", Other),
        ("mcp_resource", "", Other),
    ],
    inherent_tool_methods: &[],
    tool_err_always_tool_error: false,
    question_mark_code: Some(-32603),
    tool_error_to_protocol_code: None,
    error_macros: &[],
    closure_registrations: &[
        "tool_typed",
        "tool_typed_sync",
        "tool_typed_with_output",
        "tool_typed_sync_with_output",
        "tool_with_result",
        "SimpleTool::new",
        "SyncTool::new",
        "TypedTool::new",
        "TypedSyncTool::new",
        "TypedToolWithOutput::new",
    ],
    tool_call_arm_variants: &[],
    tool_error_snippet: "Err(Error::tool_rejected({msg}, None))",
    unknown_tool_snippet: "Err(Error::invalid_params(format!(\"Unknown tool: {}\", <name>)))",
};

/// turbomcp 3.x (§4).
pub static TURBOMCP: SdkTable = SdkTable {
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
    trait_handlers: &[("McpHandler", "call_tool", Dispatcher)],
    other_handler_traits: &["McpHandler"],
    attr_handlers: &[
        ("tool", "server", Tool),
        ("resource", "server", Other),
        ("prompt", "server", Other),
    ],
    inherent_tool_methods: &[],
    tool_err_always_tool_error: true,
    question_mark_code: Some(-32603),
    tool_error_to_protocol_code: None,
    error_macros: &[("mcp_err", None, true)],
    closure_registrations: &[],
    tool_call_arm_variants: &[],
    tool_error_snippet: "Ok(ToolResult::error({msg}))",
    unknown_tool_snippet: "Err(McpError::tool_not_found(<name>))",
};

/// mcp-attr 0.0.x with jsoncall (§5).
pub static MCP_ATTR: SdkTable = SdkTable {
    name: "mcp-attr",
    roots: &["mcp_attr", "jsoncall", "mcp-attr"],
    protocol_error_types: &["Error", "ErrorObject"],
    tool_error_types: &[],
    result_aliases: &[],
    result_types: &["CallToolResult"],
    ctors: &[
        protocol("Error", "from", -32603, None, Some("Internal error")),
        Ctor {
            ty: "Error",
            method: "new",
            builds: Builds::ProtocolCodeArg { code: 0, msg: None },
            // Without `.with_message(..)` the client gets the code's generic text.
            default_message: Some("Internal error"),
        },
        protocol("errors", "tool_not_found", -32601, Some(0), None),
        protocol("errors", "prompt_not_found", -32601, Some(0), None),
        protocol("errors", "resource_not_found", -32602, Some(0), None),
    ],
    consts: &{
        let s = STANDARD;
        [
            ("ErrorCode", s[0].0, s[0].1),
            ("ErrorCode", s[1].0, s[1].1),
            ("ErrorCode", s[2].0, s[2].1),
            ("ErrorCode", s[3].0, s[3].1),
            ("ErrorCode", s[4].0, s[4].1),
            ("ErrorCode", "SERVER_ERROR_START", -32000),
            ("ErrorCode", "SERVER_ERROR_END", -32099),
        ]
    },
    trait_handlers: &[("McpServer", "tools_call", Dispatcher)],
    other_handler_traits: &["McpServer"],
    attr_handlers: &[("tool", "mcp_server", Tool), ("prompt", "mcp_server", Other), ("resource", "mcp_server", Other)],
    inherent_tool_methods: &[],
    tool_err_always_tool_error: false,
    question_mark_code: Some(-32603),
    tool_error_to_protocol_code: None,
    error_macros: &[("bail", Some(-32603), false), ("bail_public", None, false)],
    closure_registrations: &[],
    tool_call_arm_variants: &[],
    tool_error_snippet: "Ok(CallToolResult { content: vec![TextContent::new({msg}).into()], is_error: Some(true), meta: Default::default() })",
    unknown_tool_snippet: "Err(Error::new(ErrorCode::INVALID_PARAMS).with_message(format!(\"Unknown tool: {}\", <name>), true))",
};

/// ultrafast-mcp (§6).
pub static ULTRAFAST: SdkTable = SdkTable {
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
    trait_handlers: &[("ToolHandler", "handle_tool_call", Dispatcher)],
    other_handler_traits: &["ToolHandler", "ResourceHandler", "PromptHandler"],
    attr_handlers: &[],
    inherent_tool_methods: &[],
    tool_err_always_tool_error: false,
    question_mark_code: Some(-32603),
    tool_error_to_protocol_code: None,
    error_macros: &[],
    closure_registrations: &[],
    tool_call_arm_variants: &[],
    tool_error_snippet:
        "Ok(ToolResult { content: vec![ToolContent::text({msg})], is_error: Some(true) })",
    unknown_tool_snippet: "Err(MCPError::invalid_params(format!(\"Unknown tool: {}\", <name>)))",
};

/// How many SDKs are described as tables.
pub const TABLE_COUNT: usize = 5;

pub static ALL: [&SdkTable; TABLE_COUNT] = [&RUST_MCP_SDK, &PMCP, &TURBOMCP, &MCP_ATTR, &ULTRAFAST];
