use crate::model::site::Channel;
use crate::text::{is_vague, MessageText};
use crate::context::LintContext;

declare_lint! {
    /// ### What it does
    /// Finds error text that says neither what failed nor what valid input looks like, in the text of an
    /// `isError` result or the message of a protocol error: "error", "failed", "something went wrong",
    /// "an error occurred", "internal error", "invalid input", "operation failed" and similar phrases,
    /// alone or followed by filler such as "Please try again." or "Check the server logs for details.".
    ///
    /// Text is compared after normalising case, whitespace and surrounding punctuation, and only when the
    /// whole text is known: a string literal, or a `format!` without placeholders. Not reported: text with
    /// interpolated detail (`format!("Error: {e}")`, `format!("Invalid input: {detail}")`), specific
    /// messages, and strings that never reach an MCP result or error (logs, an HTTP side channel).
    ///
    /// ### Why is this bad?
    /// The model reads the error text to decide what to do next. "Something went wrong" gives it nothing:
    /// it repeats the same call or gives up. In supermodeltools/mcp#71 a generic "Request failed. Check
    /// the MCP server logs for details." left 163 of 610 tool calls failed with no way to recover. Of a
    /// protocol error, hosts usually pass on only `message`, not `data` (anthropics/claude-code#71352).
    /// Be specific without leaking internals: name the value and the rule, not the stack trace.
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::*, tool, tool_router, handler::server::wrapper::Parameters};
    ///
    /// #[tool_router]
    /// impl Weather {
    ///     #[tool(description = "Current weather for a city")]
    ///     async fn weather(&self, Parameters(args): Parameters<City>) -> Result<CallToolResult, McpError> {
    ///         if args.city.trim().is_empty() {
    ///             return Ok(CallToolResult::error(vec![ContentBlock::text("Invalid input")]));
    ///         }
    ///         match self.api.current(&args.city).await {
    ///             Ok(report) => Ok(CallToolResult::success(vec![ContentBlock::text(report)])),
    ///             Err(_) => Ok(CallToolResult::error(vec![ContentBlock::text("Something went wrong")])),
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// if args.city.trim().is_empty() {
    ///     let message = "city must be a non-empty city name, e.g. \"Lisbon\"";
    ///     return Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
    /// }
    /// match self.api.current(&args.city).await {
    ///     Ok(report) => Ok(CallToolResult::success(vec![ContentBlock::text(report)])),
    ///     Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
    ///         "weather service failed for {}: {e}",
    ///         args.city
    ///     ))])),
    /// }
    /// ```
    ///
    /// ### Fix safety
    /// The suggestion replaces the text with `"<what failed and what valid input looks like>"`. It is
    /// HasPlaceholders: shown in JSON and SARIF output, never applied, because only you know the
    /// specific words.
    ///
    /// ### Known problems
    /// - Text the source does not show (`e.to_string()`, a variable, a helper's return value) is never
    ///   reported, and a `format!` with any placeholder counts as specific.
    /// - The built-in phrase list is English. Add phrases under `[lints]` with
    ///   `vague_error_text = { level = "warn", extra-phrases = ["no luck"] }`; they are normalised the same
    ///   way. Built-in phrases cannot be removed; suppress a deliberate generic message with a reason.
    ///
    /// ### Spec
    /// - The `Error` interface in `schema.ts`, every version: "The message SHOULD be limited to a concise
    ///   single sentence."
    /// - `docs/specification/2026-07-28/server/tools.mdx` (Error Handling, line 738; since 2025-11-25,
    ///   SEP-1303) describes tool execution errors as carrying "actionable feedback that language models
    ///   can use to self-correct and retry with adjusted parameters". Its example text is "Invalid
    ///   departure date: must be in the future. Current date is 08/08/2025."
    /// - `seps/2567-sessionless-mcp.md` ~148: "When a tool receives a handle for state that has expired or
    ///   been destroyed, the error should say so — "basket `bsk_a1b2c3` has expired" rather than "invalid
    ///   argument"."
    ///
    /// ### SDK notes
    /// - rmcp, every generation: the first argument of `ErrorData` constructors (`internal_error`,
    ///   `invalid_params`, `new`, ...) is the `message`; the `data` argument rarely reaches the model.
    /// - In a `#[tool]` fn declared `-> Result<_, String>`, the `Err` string is the `isError` text.
    /// - Text blocks are `ContentBlock::text` in rmcp 2.x–3.x and `Content::text` (or `RawContent::text`)
    ///   before; both are checked.
    /// - rmcp's own messages (the router's "tool not found") are not in your crate and are not reported.
    /// - rust-mcp-sdk: the text of `CallToolError::from_message(..)` and `RpcError` messages
    ///   (`.with_message(..)`). `RpcError::internal_error()` without `.with_message(..)` sends the SDK's
    ///   "Internal error" and is reported at the constructor; so is mcp-attr's `Error::new(code)` without a
    ///   message.
    /// - pmcp: the message of `Error::tool_rejected(..)` and `CallToolResult::rejected(..)` (the `isError`
    ///   text) and of every `Error` constructor.
    /// - turbomcp: an `McpError`'s message is the `isError` text in a `#[tool]` fn and a protocol message
    ///   in `McpHandler::call_tool`; `mcp_err!(kind, msg)` and `ToolResult::error(..)` count.
    /// - mcp-attr: a `bail!(..)` message is judged as written, although release builds send "Internal
    ///   error" in its place.
    /// - Hand-rolled JSON-RPC: the `"message"` of error objects and the `"text"` of `isError` content,
    ///   where a `"tools/call"` handler reaches them.
    pub LINT,
    name: "vague_error_text",
    code: "MCP003",
    group: Style,
    level: Warn,
    summary: "error text says neither what failed nor what valid input looks like",
    since: "0.1.0",
    check: Some(check),
}

fn check(cx: &mut LintContext<'_>) {
    if !cx.model.is_mcp() {
        return;
    }
    let extra = &cx.options.vague_phrases;
    for site in &cx.model.sites {
        if site.channel == Channel::ToolSuccess || (site.is_delegated() && !site.is_text_argument())
        {
            continue;
        }
        for text in &site.texts {
            let MessageText::Literal { value, span } = text else {
                continue;
            };
            if !is_vague(value, extra) {
                continue;
            }
            let audience = match site.channel {
                Channel::Protocol => "this protocol error",
                _ => "this tool result",
            };
            let mut d = cx
                .diagnostic(*span, format!("vague error text {value:?}"))
                .with_label(format!("{audience} says neither what failed nor what to change"))
                .with_help(
                    "name what failed and what valid input looks like, e.g. `format!(\"cannot read {path}: {e}\")` or \"date must be YYYY-MM-DD\"",
                );
            d.fix = Some(crate::fix::specific_text(cx.model, site, *span));
            cx.report(site.file, d);
        }
    }
}
