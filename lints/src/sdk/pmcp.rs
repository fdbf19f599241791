//! pmcp (sdk-error-apis.md §3).

use super::table::{
    consts, entry, peer_expects_minus_32002, protocol, result, Builds, Ctor, SdkTable, TableFix,
    STANDARD,
};
use super::HandlerKind::{Dispatcher, Other, Tool};
use super::{Sdk, ToolErrorForm, Version};

pub static SDK: Sdk = entry(&TABLE);

/// pmcp 2.x (§3).
static TABLE: SdkTable = SdkTable {
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
    called_only_by_default_of: &[("ToolHandler", "handle", "handle_output")],
    trait_handlers: &[
        ("ToolHandler", "handle", Tool),
        ("ToolHandler", "handle_output", Tool),
        // `server::traits::ToolHandler::call_tool(&self, req: CallToolRequest)`: handed the
        // whole request, name and arguments, it picks the tool (read in 2.23.0).
        ("ToolHandler", "call_tool", Dispatcher),
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
    outcome_registrations: &[],
    catching_chain_methods: &[],
    question_mark_code: Some(-32603),
    question_mark_codes_of: &[],
    converts_crate_errors: false,
    // `Server::create_response` (server/mod.rs ~2395 in 2.23.0, ~951 in 1.20.0) and `ServerCore`'s
    // dispatch (server/core.rs ~4574 in 2.23.0, ~787-940 in 1.20.0) answer every handler `Err` with
    // -32603, `Error::protocol(code, ..)` and `invalid_params` included; only
    // `Error::ToolRejected` (2.x) becomes an isError result.
    sent_code: Some(-32603),
    tool_error_to_protocol_code: None,
    error_macros: &[],
    closure_registrations: &[
        "tool_typed",
        "tool_typed_sync",
        "tool_typed_with_output",
        "tool_typed_sync_with_output",
        "tool_with_result",
        // The same handlers with a description before them (2.x `ServerBuilder`).
        "tool_typed_with_description",
        "tool_typed_sync_with_description",
        "tool_typed_with_output_and_description",
        "tool_with_result_and_description",
        "SimpleTool::new",
        "SyncTool::new",
        "TypedTool::new",
        "TypedSyncTool::new",
        "TypedToolWithOutput::new",
        // The same with the schema given by hand (2.23 `server/typed_tool.rs`).
        "TypedTool::new_with_schema",
        "TypedSyncTool::new_with_schema",
        "TypedToolWithOutput::new_with_schemas",
        "TypedToolWithResult::new",
        "TypedToolWithResult::new_with_schema",
    ],
    other_closure_registrations: &[],
    // `Server::handle_call_tool` and `ServerCore::handle_call_tool` put the handler's `Value` in a
    // success result's text (`result.to_string()` / `to_string_pretty`, `CallToolResult::new`;
    // read in 1.20.0 server/mod.rs ~1113, 2.9.0 ~1347 and core.rs ~615, 2.12.0 ~1616 and ~688,
    // 2.23.0 ~2756 and core.rs ~1225, with `structured(value)` for a declared outputSchema):
    // the Value's own `"isError"` never reaches the result's flag.
    payload_is_result_text: true,
    // `TypedTool::new(.., |args, extra| Box::pin(async move { Ok(json!(..)) }))`: the closure's
    // `Ok` is the tool's output `Value`, as a `ToolHandler::handle`'s is.
    closure_ok_is_output: true,
    tool_call_arm_variants: &[],
    tool_error_snippet: "Err(Error::tool_rejected({msg}, None))",
    output_tool_error_snippet: None,
    tool_error_caveat: None,
    unknown_tool_snippet: "Err(Error::invalid_params(format!(\"Unknown tool: {}\", <name>)))",
    unknown_tool_caveat: None,
    named_resource_not_found_fits_peer: peer_expects_minus_32002,
    // `extra: RequestHandlerExtra` of `ToolHandler::handle`: cancellation, progress and the
    // metadata the server's middleware injects.
    request_context_types: &["RequestHandlerExtra"],
    request_context_checks: &[],
    serializing_methods: &["into_meta_entry"],
    serializing_fns: &[],
    content_vec_into_result: false,
    older: &[(Version { major: 2, minor: 9 }, &TABLE_2_8)],
    when_locked: &[],
    fix: Some(&FIX),
};

/// pmcp before 2.9 (read in 1.20.0): no `Error::tool_rejected`, and a `ToolHandler`'s `Ok` is
/// always a success (`Server::handle_call_tool` wraps its text in `CallToolResult::new`): a tool
/// cannot send an isError result, so the help names the version that can, and there is no fix.
static TABLE_2_8: SdkTable = SdkTable {
    tool_error_caveat: Some(
        "on pmcp 2.9 or later; before it, every Err of a tool is a JSON-RPC error",
    ),
    older: &[],
    when_locked: &[],
    fix: None,
    ..TABLE
};

/// Read in pmcp 2.9.0 (which adds it, CHANGELOG 2.9.0), 2.12.0 and 2.23.0 (1.20.0 has no
/// `tool_rejected`): `Error::tool_rejected(message:
/// impl Into<String>, details: Option<Value>)` (`src/error/mod.rs`), which both dispatchers send
/// as an isError result (`server/mod.rs`, `server/core.rs`: `Err(Error::ToolRejected { .. })`);
/// `CallToolResult::new(Vec<Content>)` and `CallToolResult::error(Vec<Content>)`
/// (`src/types/tools.rs`); `pmcp::Error`, `pmcp::types::{CallToolResult, Content}` (`lib.rs`).
/// No unknown-tool fix: pmcp answers every handler `Err` with -32603, so no code in a handler
/// can send -32602.
static FIX: TableFix = TableFix {
    since: Version { major: 2, minor: 9 },
    result: ("CallToolResult", &["pmcp", "types", "CallToolResult"]),
    content: ("Content", &["pmcp", "types", "Content"]),
    error: ("Error", &["pmcp", "Error"]),
    others: &[],
    form: ToolErrorForm::ErrorValue,
    wrapped_results: &[],
    error_constructors: &[("new", "error")],
    message_drops_into: true,
    unknown_tool: false,
    preludes: &[],
};
