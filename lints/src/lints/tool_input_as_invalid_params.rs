use crate::codes::INVALID_PARAMS;
use crate::options::ProtocolVersion;
use crate::model::site::{Channel, Origin};
use crate::context::LintContext;

declare_lint! {
    /// ### What it does
    /// Finds -32602 (`McpError::invalid_params`, `ErrorCode::INVALID_PARAMS`, `ErrorCode(-32602)`) used
    /// inside a tool to reject argument *values*: a wrong format, a number out of range, a value outside an
    /// enum, a cross-field rule, or "X not found" for a name the model gave. Since 2025-11-25 (SEP-1303)
    /// these are tool execution errors. Fires only for targets 2025-11-25 and 2026-07-28.
    ///
    /// Not reported: the dispatcher's unknown-tool branch and any -32602 in its `tools/call` arm
    /// before a tool is chosen (that rejects the request itself; an arm there that maps what the
    /// tools returned, `Err(e) => match &e { ToolError::InvalidArgument(m) => (INVALID_PARAMS,
    /// ..) }`, is reported for a variant every build of which is a tool's value check), also from a helper that reads
    /// the tool's name out of the request there (`let name = required_string(params, "name")?`), and
    /// in a dispatcher the route hands the request to, before it picks a tool, the request's own
    /// params missing (`params.ok_or_else(|| RpcError::invalid_params(..))?` of `params:
    /// Option<Value>`); a -32602 whose message answers
    /// an unknown tool ("Tool {name} not found", "Unknown tool: {name}") wherever it is built; schema-level failures (arguments missing or
    /// not an object, a required field absent or of the wrong JSON type, also the catch-all
    /// `Some(other) =>` after `Some(Value::String(s)) =>`, but not after an arm with a guard that
    /// tests the value), which the 2026-07-28 schema
    /// still shows as -32602; and protocol-level checks of `requestState`, `inputResponses`, request
    /// metadata or what the client declared in `initialize` (`peer.peer_info()`'s capabilities: a
    /// missing client capability is -32021). A field the request type declares `Option<..>`, in a type that derives `JsonSchema`,
    /// is optional in the generated input schema: a check that requires it ("content is required for
    /// action=store", `let Some(id) = req.id else`, `if req.query.is_none() && req.tag.is_none()`,
    /// also on a local the field is passed through, `let json = normalize(req.json)`,
    /// a match arm's guard `"note" if req.content.is_none() =>`, `is_none_or(|q| q.is_empty())`) is
    /// a rule on argument values and is reported, whatever its message says. A check on the
    /// server's own state only (`self.forge.as_deref().ok_or_else(..)`: nothing configured at
    /// start-up, also through a local bound to such a read, `let guard = self.vars.read().await;
    /// guard.as_ref().ok_or_else(..)`; `if self.config.disable_sudo { return Err(..) }`: a tool turned off) rejects no
    /// argument and is not reported, unless it sits in a branch the model's values chose (`if let
    /// Some(filter) = params.filter { if !self.config.allow_filters { .. } }`). Nor is a miss on a
    /// key read out of a record the server's own store returned (`let call =
    /// self.store.call(&args.call_id)?; self.store.berth(&call.berth)?`): the store is
    /// inconsistent, the model gave no such value.
    ///
    /// ### Why is this bad?
    /// A -32602 goes to the host as a protocol error, and the model may never see it. As an `isError`
    /// result, "departure date must be in the future" reaches the model, which fixes the value and calls
    /// again. The lint warns rather than denies because the spec is not yet consistent (see Spec).
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::*, tool, tool_router, handler::server::wrapper::Parameters};
    ///
    /// #[tool_router]
    /// impl Flights {
    ///     #[tool(description = "Book a flight")]
    ///     async fn book(&self, Parameters(args): Parameters<Booking>) -> Result<CallToolResult, McpError> {
    ///         if args.date <= self.today() {
    ///             return Err(McpError::invalid_params("departure date must be in the future", None));
    ///         }
    ///         let booking = self.api.book(&args).await;
    ///         Ok(CallToolResult::success(vec![ContentBlock::text(booking.summary())]))
    ///     }
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// if args.date <= self.today() {
    ///     let message = format!(
    ///         "Invalid departure date {}: must be in the future. Current date is {}.",
    ///         args.date,
    ///         self.today()
    ///     );
    ///     return Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
    /// }
    /// ```
    ///
    /// ### Fix safety
    /// `--fix` rewrites the -32602 the way `tool_failure_as_protocol_error` rewrites its errors:
    /// `return Err(McpError::invalid_params(msg, None))` becomes
    /// `return Ok(CallToolResult::error(vec![ContentBlock::text(msg)]))` (MachineApplicable), and
    /// `.map_err(|e| McpError::invalid_params(..))?` a `match` (MaybeIncorrect unless the value's type
    /// is evident). Dropping `Some(data)` makes it MaybeIncorrect. The client then gets an isError
    /// result instead of a -32602 error; that is the change SEP-1303 asks for. A target before
    /// 2025-11-25 turns the lint off, and with it the fix.
    ///
    /// ### Known problems
    /// - A helper's -32602 that every tool caller replaces with an error value of its own made of
    ///   the text (`.map_err(|e| CoreError::Other(e.message.to_string()))`) is not reported: the
    ///   code sent is the one the answer of that value picks. Handed on whole (`CoreError::Rpc(e)`,
    ///   `anyhow!(e)`) or rebuilt with its code (`ErrorData::new(e.code, ..)`), it is.
    /// - An arm of a `match` over a tuple of fields the generated schema leaves optional, taken when
    ///   some are absent (`(Some(_), None) | (None, Some(_)) =>` of `match (self.width,
    ///   self.height)`), is a rule across them whatever its message says ("are required together").
    /// - Schema-level and value-level checks are told apart from the failing operation (an optional
    ///   field of a derived-schema request type, a JSON accessor, a deserialisation; a member read
    ///   inside a field that type declares as any JSON, `params: Option<serde_json::Value>`, is a
    ///   value the schema never checked) and, where the
    ///   source cannot tell, from the message text: a value check on a hand-parsed JSON object that
    ///   only says "missing" may be taken for a schema check. Decoding text into a type
    ///   (`serde_json::from_str`) is schema-level; a type's own `FromStr` (`SortOrder::from_str(s)`,
    ///   `s.parse::<SortOrder>()`) checks a value. In a chain over an argument's JSON types
    ///   (`if let Some(n) = v.as_u64() { .. } else if let Some(s) = v.as_str() { .. } else { .. }`)
    ///   only the last `else` refuses the shape; a failure inside a branch checks its value.
    /// - A parser reaches the tool through a call or a path given to a combinator
    ///   (`req.order.as_deref().map(parse_order).transpose()?`).
    /// - To target 2025-06-18 or older, where "Invalid arguments" is a protocol error, set
    ///   `target-protocol` (config) or `--target-protocol`; the lint is then off.
    /// - With no target set (config `target-protocol`, `--target-protocol`), a hand-rolled server
    ///   is judged against the newest version its source declares (the `protocolVersion` of its
    ///   `initialize` answer, directly or through a const, a `let` or a const list of versions;
    ///   configuration.md, "Target protocol versions"), and its findings say so in a note: one
    ///   declaring 2025-06-18 or older gets nothing from this lint. A version computed in a fn
    ///   the answer calls (`negotiate(&params)`) is not read. An SDK server is judged against the
    ///   target alone.
    ///
    /// ### Spec
    /// - `docs/specification/2025-11-25/server/tools.mdx` (Error Handling, line 460) lists "Input
    ///   validation errors (e.g., date in wrong format, value out of range)" under tool execution errors
    ///   and "Malformed requests (requests that fail to satisfy CallToolRequest schema)" under protocol
    ///   errors; 2026-07-28 (line 738) is the same. 2024-11-05 to 2025-06-18 listed "Invalid arguments"
    ///   as a protocol error.
    /// - `seps/1303-input-validation-errors-as-tool-execution-errors.md` (Final): "Tool Execution Errors
    ///   should be used for all tool argument validation failures".
    /// - The contradiction: `schema/2026-07-28/schema.ts` ~360–391, on `InvalidParamsError`, still lists
    ///   "**Tools**: Unknown tool name or invalid tool arguments", with the example
    ///   `examples/InvalidParamsError/invalid-tool-arguments.json` (a missing required property). Read
    ///   narrowly, -32602 remains right only when the `CallToolRequest` itself breaks the schema.
    ///
    /// ### SDK notes
    /// - rmcp, every generation: `invalid_params` is -32602 and passes through to the client unchanged.
    /// - rmcp >= 1.8 (PR #894): `ToolRouter::call` turns an `invalid_params` whose message starts with
    ///   "failed to deserialize parameters:" into an `isError` result; that covers `Parameters<T>`
    ///   failures under `#[tool_handler]` or `self.tool_router.call(..)`. Such messages are not reported.
    ///   Before 1.8 the SDK itself sent those failures as -32602; that is not your code.
    /// - rmcp's own rustdoc example (`CallToolResult`, 1.8+) returns
    ///   `Err(ErrorData::invalid_params("query must be non-empty", None))`; SEP-1303 classes that check as
    ///   a tool execution error, and so does this lint.
    /// - rust-mcp-sdk: `RpcError::invalid_params()` in the `CallToolRequest` arm of
    ///   `ServerHandlerCore::handle_request` or in `handle_call_tool_request_mrtr`, also in an arm
    ///   of a `match` over `tool_box!`'s enum there (`let tool = Tools::try_from(params)?; match
    ///   tool { Tools::GitShow(t) => .. }`: the variant is the tool, the conversion answered an
    ///   unknown one). `CallToolError::invalid_arguments(..)` from `handle_call_tool_request` is an `isError` result
    ///   already.
    /// - pmcp: never. `Error::invalid_params(..)` and `Error::protocol(ErrorCode::INVALID_PARAMS, ..)`
    ///   are sent as -32603 like every handler error (MCP001); `Error::tool_rejected(..)` is the fix,
    ///   as pmcp's own argument parsing does.
    /// - turbomcp 3.x: `McpError::invalid_params(..)` in a `#[server]` `#[tool]` fn is already an `isError`
    ///   result: not reported. In a hand-written `McpHandler::call_tool` it is -32602 and is.
    /// - mcp-attr: `bail_public!(ErrorCode::INVALID_PARAMS, ..)` and
    ///   `Error::new(ErrorCode::INVALID_PARAMS)`. ultrafast-mcp: `MCPError::invalid_params(..)` and
    ///   `MCPError::not_found(..)`, both sent as -32602.
    /// - Hand-rolled JSON-RPC: `"code": -32602` (or a const given to the response helper) in a tool; the
    ///   dispatcher's schema-level rejections are not reported. On jsonrpc-core:
    ///   `Error::invalid_params(msg)` and `invalid_params_with_details(msg, ..)`, -32602.
    pub LINT,
    name: "tool_input_as_invalid_params",
    code: "MCP006",
    group: Suspicious,
    level: Warn,
    summary: "-32602 used inside a tool to reject argument values",
    since: "0.1.0",
    check: Some(check),
}

fn check(cx: &mut LintContext<'_>) {
    for site in &cx.model.sites {
        let Some(dialect) = cx.model.dialect_of(site.file) else {
            continue;
        };
        let target = cx.target(site.file);
        if target.version < ProtocolVersion::V2025_11_25
            || site.is_text_argument()
            || site.channel != Channel::Protocol
            || site.code != Some(INVALID_PARAMS)
            || !site.context.is_tool()
            // Before a tool is chosen, -32602 rejects the request itself (no tool name, params
            // that are not an object, a server without a tool context), not a tool's argument;
            // unless the arm maps a variant only tools' value checks build.
            || (site.context.is_tool_call_arm() && !site.path.variant_value_check)
            // The same in a dispatcher before it picks a tool (`params.ok_or_else(..)?`).
            || site.path.request_failure
            || site.path.schema_level
            // `if !peer.peer_info()..capabilities.sampling.is_some()`: the session, not an
            // argument (the spec's answer is -32021).
            || site.path.client_declaration
            // `self.forge.as_deref().ok_or_else(..)`: the server's own state, no argument.
            || site.path.server_state
            // Serialising the server's own value (turbomcp 2.x sends its `serde_json::Error` as
            // -32602): no argument either.
            || site.path.server_fault
            // A miss on a key read out of the server's own record: no argument of the model's.
            || site.path.stored_key
            // "Tool {name} not found" with -32602 is the spec's unknown-tool answer, given by a
            // helper router outside the dispatcher's `_ =>` arm: not an argument value.
            || site.texts.iter().any(|t| names_unknown_tool(&t.known_lowercase()))
        {
            continue;
        }
        let tools_reject = site.context.tools_subject("rejects");
        let mut d = cx
            .site_diagnostic(
                site,
                format!("{tools_reject} an argument value with -32602 (Invalid params)"),
            )
            .with_label("since 2025-11-25 (SEP-1303) input validation is a tool execution error");
        if let Some(note) = site.context.helper_note() {
            d = d.with_note(note);
        }
        if let Some(note) = target.note() {
            d = d.with_note(note);
        }
        d.fix = cx.fix_in(site.file, || crate::fix::tool_error_result(cx.model, site));
        let help = crate::fix::tool_error_help(cx.model, site, dialect, d.fix.as_ref(), "so the model can correct the argument and retry");
        d = d.with_help(help);
        if let Origin::HelperCall {
            helper, built_at, ..
        } = &site.origin
        {
            d = d.with_note(format!(
                "`{helper}` builds it at line {} and is also used outside tool context",
                built_at.start_line
            ));
        }
        cx.report(site.file, d);
    }
}

/// "Unknown tool: x", "Tool x not found", "no such tool": the message answers a tool name no
/// tool has (lowercased text).
fn names_unknown_tool(text: &str) -> bool {
    let text = text.trim();
    text.contains("unknown tool")
        || text.contains("no such tool")
        || text.contains("tool not found")
        || (text.starts_with("tool ")
            && (text.ends_with(" not found") || text.ends_with(" does not exist")))
}

#[cfg(test)]
mod tests {
    use super::names_unknown_tool;

    #[test]
    fn unknown_tool_messages() {
        for t in ["unknown tool: x", "tool   not found", "tool 'x' does not exist", "no such tool"] {
            assert!(names_unknown_tool(t), "{t}");
        }
        for t in ["file not found", "tool input not valid", "tool_name must be a string"] {
            assert!(!names_unknown_tool(t), "{t}");
        }
    }
}
