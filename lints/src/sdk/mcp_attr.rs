//! mcp-attr with jsoncall (sdk-error-apis.md §5).

use super::table::{
    entry, peer_expects_minus_32002, protocol, result, Builds, Ctor, SdkTable, TableFix, STANDARD,
};
use super::HandlerKind::{Dispatcher, Other, Tool};
use super::{Sdk, ToolErrorForm, Version};

pub static SDK: Sdk = entry(&TABLE);

/// mcp-attr 0.0.x with jsoncall (§5).
static TABLE: SdkTable = SdkTable {
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
        // `From<Vec<T>>`, `From<Json<T>>`, `From<()>` (`schema_ext.rs`): all success results.
        result("CallToolResult", "from", Builds::ToolSuccess { content: Some(0) }),
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
    called_only_by_default_of: &[],
    trait_handlers: &[("McpServer", "tools_call", Dispatcher)],
    other_handler_traits: &["McpServer"],
    attr_handlers: &[("tool", "mcp_server", Tool), ("prompt", "mcp_server", Other), ("resource", "mcp_server", Other)],
    inherent_tool_methods: &[],
    tool_err_always_tool_error: false,
    outcome_registrations: &[],
    catching_chain_methods: &[],
    question_mark_code: Some(-32603),
    question_mark_codes_of: &[],
    converts_crate_errors: true,
    sent_code: None,
    tool_error_to_protocol_code: None,
    error_macros: &[("bail", Some(-32603), false), ("bail_public", None, false)],
    closure_registrations: &[],
    other_closure_registrations: &[],
    payload_is_result_text: false,
    closure_ok_is_output: false,
    tool_call_arm_variants: &[],
    tool_error_snippet: "Ok(CallToolResult { content: vec![TextContent::new({msg}).into()], is_error: Some(true), meta: Default::default() })",
    output_tool_error_snippet: None,
    tool_error_caveat: None,
    unknown_tool_snippet: "Err(Error::new(ErrorCode::INVALID_PARAMS).with_message(format!(\"Unknown tool: {}\", <name>), true))",
    unknown_tool_caveat: None,
    named_resource_not_found_fits_peer: peer_expects_minus_32002,
    request_context_types: &[],
    request_context_checks: &[],
    serializing_methods: &[],
    // `Json::from(&value)`: `serde_json::to_string_pretty(value)` (mcp-attr 0.0.7 `utils.rs`).
    serializing_fns: &[("Json", "from")],
    // `impl<T: Into<CallToolResultContentItem>> From<Vec<T>> for CallToolResult` (0.0.7
    // `schema_ext.rs`): `is_error: None`.
    content_vec_into_result: true,
    older: &[],
    when_locked: &[],
    fix: Some(&FIX),
};

/// Read in mcp-attr 0.0.7 with jsoncall 0.0.3: `CallToolResult { content:
/// Vec<CallToolResultContentItem>, is_error: Option<bool>, meta: serde_json::Map<..> }`
/// (`schema.rs`; `From<TextContent> for CallToolResultContentItem`), `TextContent::new(impl
/// Display)` (`schema_ext.rs`), `Error::new(ErrorCode).with_message(impl Display, bool)`
/// (jsoncall `error.rs`); `mcp_attr::{Error, ErrorCode}` (`lib.rs`), `mcp_attr::schema::..`.
/// A `#[tool]` fn's `Ok` is its output (`Result<String>`), never a `CallToolResult`: only
/// `McpServer::tools_call` gets the isError fix.
static FIX: TableFix = TableFix {
    since: Version { major: 0, minor: 0 },
    result: ("CallToolResult", &["mcp_attr", "schema", "CallToolResult"]),
    content: ("TextContent", &["mcp_attr", "schema", "TextContent"]),
    error: ("Error", &["mcp_attr", "Error"]),
    others: &[("ErrorCode", &["mcp_attr", "ErrorCode"])],
    form: ToolErrorForm::OkResult,
    wrapped_results: &[],
    error_constructors: &[],
    message_drops_into: true,
    unknown_tool: true,
    preludes: &[],
};
