//! tower-mcp (docs/sdks.md, "tower-mcp"): read in tower-mcp 0.20.0, 0.23.2 and 0.25.0 with
//! tower-mcp-types 0.20.1, 0.23.2 and 0.25.0 and tower-mcp-macros 0.25.0. What a tool's answer
//! becomes on the wire is the same in all three, so there is one table.
//!
//! - A tool is a closure given to `ToolBuilder::new(name)` (or `Tool::builder(name)`) through
//!   `.handler(..)`, `.no_params_handler(..)`, `.extractor_handler(state, ..)`, `.mrtr_handler(..)`
//!   and the task forms (`tool.rs` 0.25.0 ~1333-1985), an `#[tool_fn]` fn (tower-mcp-macros: it
//!   writes that `.handler(|input| f(input))` call), or `impl McpTool { fn call }` (`tool.rs`).
//! - Every `Err` of a tool but one, its middleware's included, is an isError result carrying the error's
//!   `Display` text: `ToolCatchError` (`tool.rs` 0.20.0 ~149, `tool/service.rs` 0.23.2 and 0.25.0
//!   ~62) wraps every tool service and answers `Err(err)` with `CallToolResult::error(err.to_string())`;
//!   `McpTool::call`'s `Err` goes the same way (`McpToolHandler::call`, `?`). So no error value a
//!   tool builds is a JSON-RPC error: `Error::tool(..)`, `Error::JsonRpc(JsonRpcError::..)` and
//!   `?` alike are isError results (the doc comment on `Error::Tool` saying -32603 is stale).
//! - The one: 0.25's `.mrtr_handler(..)` built without `.layer(..)` or `.guard(..)` has no
//!   `ToolCatchError` (`Tool::from_mrtr_handler`, `tool.rs` ~934; `call_outcome_with_context`
//!   ~704 passes its `Err` on). The router sends it as `Error::into_json_rpc_error` (`router.rs`
//!   ~3786, tower-mcp-types `error.rs` ~651): an `Error::JsonRpc` keeps its code, anything else
//!   is -32603.
//! - Results (tower-mcp-types `protocol.rs`, `impl CallToolResult`): `text`, `json`,
//!   `from_serialize`, `from_list`, `image`, `audio`, `resource_link`, `resource` are successes
//!   (`is_error: false`); `error(message: impl Into<String>)` is the isError result.
//! - The router answers an unknown tool itself, never a handler: -32601 `method_not_found` in
//!   0.20 and 0.23 (`router.rs` 0.20.0 ~2839, 0.23.2 ~1934), -32602 "Unknown tool: .." from 0.25
//!   (`router.rs` 0.25.0 `tool_not_found`).

use super::table::{
    consts, entry, result, value, value_code_arg, Builds, Ctor, OutcomeRegistration, SdkTable,
    TableFix,
};
use super::HandlerKind::{Other, Tool};
use super::{Sdk, ToolErrorForm, Version};

pub static SDK: Sdk = entry(&TABLE);

/// A `CallToolResult` constructor of a success result (`is_error: false`).
const fn success(method: &'static str) -> Ctor {
    result(
        "CallToolResult",
        method,
        Builds::ToolSuccess { content: None },
    )
}

/// tower-mcp negotiates 2026-07-28 (feature `protocol-2026-07-28`), where -32002 must not be
/// sent, and its own `JsonRpcError::resource_not_found` already answers -32602: a
/// `McpErrorCode::ResourceNotFound` written by hand is the legacy code, named or not.
fn minus_32002_never_fits(_version: Option<Version>) -> bool {
    false
}

static TABLE: SdkTable = SdkTable {
    name: "tower-mcp",
    roots: &["tower_mcp", "tower_mcp_types"],
    // `Error` is what the router sends as a JSON-RPC error (`into_json_rpc_error`); from a tool
    // only an uncaught registration's `Err` gets there (see `outcome_registrations`).
    protocol_error_types: &["Error", "JsonRpcError"],
    tool_error_types: &[],
    result_aliases: &[],
    result_types: &["CallToolResult"],
    ctors: &[
        value("Error", "tool", -32603, Some(0)),
        value("Error", "tool_with_name", -32603, Some(1)),
        value("Error", "tool_from", -32603, Some(0)),
        value("Error", "tool_context", -32603, Some(0)),
        value("Error", "invalid_params", -32602, Some(0)),
        value("Error", "internal", -32603, Some(0)),
        value("ToolError", "new", -32603, Some(0)),
        value("ToolError", "with_tool", -32603, Some(1)),
        value("JsonRpcError", "invalid_params", -32602, Some(0)),
        value("JsonRpcError", "internal_error", -32603, Some(0)),
        value("JsonRpcError", "invalid_request", -32600, Some(0)),
        value("JsonRpcError", "parse_error", -32700, Some(0)),
        value("JsonRpcError", "method_not_found", -32601, Some(0)),
        // -32602 with the `uri` in `data` in 0.20.1, 0.23.2 and 0.25.0 (SEP-2164).
        value("JsonRpcError", "resource_not_found", -32602, Some(0)),
        value("JsonRpcError", "forbidden", -32007, Some(0)),
        value("JsonRpcError", "request_timeout", -32010, Some(0)),
        value("JsonRpcError", "connection_closed", -32000, Some(0)),
        value_code_arg("JsonRpcError", "new", 0, Some(1)),
        value_code_arg("JsonRpcError", "mcp_error", 0, Some(1)),
        result("CallToolResult", "error", Builds::ToolErrorText { msg: 0 }),
        success("text"),
        success("json"),
        success("from_serialize"),
        success("from_list"),
        success("image"),
        success("audio"),
        success("resource_link"),
        success("resource"),
    ],
    // tower-mcp-types `error.rs`: `ErrorCode` (the JSON-RPC codes) and `McpErrorCode`, the same
    // numbers in 0.20.1, 0.23.2 and 0.25.0.
    consts: &consts!("McpErrorCode":
        ConnectionClosed = -32000, HeaderMismatch = -32020, ResourceNotFound = -32002,
        MissingRequiredClientCapability = -32021, UnsupportedProtocolVersion = -32022,
        SessionNotFound = -32005, SessionRequired = -32006, Forbidden = -32007,
        AlreadySubscribed = -32008, NotSubscribed = -32009, RequestTimeout = -32010,
        UrlElicitationRequired = -32042),
    called_only_by_default_of: &[],
    trait_handlers: &[("McpTool", "call", Tool)],
    other_handler_traits: &["McpTool", "McpPrompt", "McpResource"],
    attr_handlers: &[
        ("tool_fn", "", Tool),
        ("prompt_fn", "", Other),
        ("resource_fn", "", Other),
        ("resource_template_fn", "", Other),
    ],
    inherent_tool_methods: &[],
    tool_err_always_tool_error: true,
    // 0.25's `.mrtr_handler(..)` builds `Tool::from_mrtr_handler` with no `ToolCatchError`
    // (`tool.rs` ~934, ~2465): its `Err` reaches the router's `Error::into_json_rpc_error`,
    // unless `.layer(..)` / `.guard(..)` wraps it in `MrtrToolCatchError` (~2538,
    // `tool/service.rs` ~135).
    outcome_registrations: &[(
        "mrtr_handler",
        OutcomeRegistration {
            ok_wrapper: "RequestOutcome::Complete",
            uncaught: true,
        },
    )],
    catching_chain_methods: &["layer", "guard"],
    question_mark_code: None,
    question_mark_codes_of: &[],
    converts_crate_errors: false,
    sent_code: None,
    tool_error_to_protocol_code: None,
    error_macros: &[],
    // The builder's handler methods, only on a chain that starts at the tool builder
    // (`ResourceBuilder` and `PromptBuilder` have a `.handler(..)` too).
    closure_registrations: &[
        "ToolBuilder::new(..).handler",
        "ToolBuilder::new(..).no_params_handler",
        "ToolBuilder::new(..).extractor_handler",
        "ToolBuilder::new(..).extractor_handler_typed",
        "ToolBuilder::new(..).mrtr_handler",
        "ToolBuilder::new(..).live_task_handler",
        "ToolBuilder::new(..).live_task_handler_with_context",
        "ToolBuilder::new(..).fallback_handler",
        "ToolBuilder::new(..).fallback_mrtr_handler",
        "ToolBuilder::try_new(..).handler",
        "ToolBuilder::try_new(..).no_params_handler",
        "ToolBuilder::try_new(..).extractor_handler",
        "Tool::builder(..).handler",
        "Tool::builder(..).no_params_handler",
        "Tool::builder(..).extractor_handler",
    ],
    // Resources and prompts (`resource.rs` ~991, ~1049, ~2460, ~2556; `prompt.rs` ~860, ~915):
    // the router sends their `Err` as `Error::into_json_rpc_error` (`resource.rs` ~406,
    // `prompt.rs` ~337).
    other_closure_registrations: &[
        "ResourceBuilder::new(..).handler",
        "ResourceBuilder::new(..).handler_with_context",
        "ResourceTemplateBuilder::new(..).handler",
        "ResourceTemplateBuilder::new(..).handler_with_context",
        "PromptBuilder::new(..).handler",
        "PromptBuilder::new(..).handler_with_context",
    ],
    // `McpTool::call`'s output goes out as `CallToolResult::json(value)`, a success
    // (`McpToolHandler::call`, tool.rs 0.20.0 ~2465, 0.23.2 ~2861, 0.25.0 ~2887).
    payload_is_result_text: true,
    closure_ok_is_output: false,
    tool_call_arm_variants: &[],
    tool_error_snippet: "Ok(CallToolResult::error({msg}))",
    // `McpTool::call`'s `Ok` is its output, sent as a success: its isError answer is an `Err`
    // (`Error::tool(message: impl Into<String>)`, tower-mcp-types 0.25.0 `error.rs`), which
    // `McpToolHandler::call`'s `?` hands to `ToolCatchError`.
    output_tool_error_snippet: Some("Err(Error::tool({msg}))"),
    tool_error_caveat: None,
    // A tool cannot send a JSON-RPC error: the router answers unknown tools (`McpRouter::tool`
    // registers them), so the help points there.
    // No code to write: the router answers.
    unknown_tool_snippet: "",
    unknown_tool_caveat: Some("leave unknown names to McpRouter, which answers them with a JSON-RPC error (a tower-mcp tool's Err is an isError result)"),
    named_resource_not_found_fits_peer: minus_32002_never_fits,
    request_context_types: &["RequestContext"],
    request_context_checks: &[],
    serializing_methods: &[],
    serializing_fns: &[],
    content_vec_into_result: false,
    older: &[],
    when_locked: &[],
    fix: Some(&FIX),
};

/// Read in tower-mcp 0.20.0, 0.23.2 and 0.25.0: `CallToolResult::error(message: impl
/// Into<String>)` (tower-mcp-types `protocol.rs`), re-exported as `tower_mcp::CallToolResult`
/// (`lib.rs`, `pub use protocol::{..}`). A success result becomes the isError one by
/// `text` → `error`, the same argument.
static FIX: TableFix = TableFix {
    since: Version {
        major: 0,
        minor: 20,
    },
    result: ("CallToolResult", &["tower_mcp", "CallToolResult"]),
    content: ("Content", &["tower_mcp", "Content"]),
    error: ("Error", &["tower_mcp", "Error"]),
    others: &[],
    form: ToolErrorForm::OkResult,
    wrapped_results: &[],
    error_constructors: &[("text", "error")],
    message_drops_into: true,
    unknown_tool: false,
    preludes: &[],
};
