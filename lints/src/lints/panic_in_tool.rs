use crate::context::LintContext;

declare_lint! {
    /// ### What it does
    /// Finds `unwrap()`, `expect(..)`, `panic!`, `todo!`, `unimplemented!` and `unreachable!` in tool
    /// context: `#[tool]` fns, a hand-written `call_tool`, router closures, trait tools, and the crate's
    /// functions they call. It is in the `restriction` group and off by default; enable it with
    /// `panic_in_tool = "warn"` under `[lints]` or `-W panic_in_tool`.
    ///
    /// ### Why is this bad?
    /// A panic is neither an `isError` result the model can read nor a protocol error the host can log
    /// with a code: the call just dies. Depending on the runtime and the `panic` profile setting, the
    /// request gets no response (the client waits until its timeout) or the process aborts, which on stdio
    /// ends the whole session. A failure the model could have worked around becomes an outage.
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::*, tool, tool_router, handler::server::wrapper::Parameters};
    ///
    /// #[tool_router]
    /// impl Fetcher {
    ///     #[tool(description = "Fetch a web page")]
    ///     async fn fetch(&self, Parameters(args): Parameters<Fetch>) -> Result<CallToolResult, McpError> {
    ///         let url = url::Url::parse(&args.url).unwrap();
    ///         let body = self.http.get(url).await.expect("request failed");
    ///         Ok(CallToolResult::success(vec![ContentBlock::text(body)]))
    ///     }
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// let url = match url::Url::parse(&args.url) {
    ///     Ok(url) => url,
    ///     Err(e) => {
    ///         let message = format!("{:?} is not a valid URL: {e}", args.url);
    ///         return Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
    ///     }
    /// };
    /// ```
    /// and answer the failed request the same way.
    ///
    /// ### Fix safety
    /// No automatic fix: replacing a panic needs an error message and a decision about what the
    /// failure means for the call.
    ///
    /// ### Known problems
    /// - Every panic site is reported, including ones that cannot fail in practice (`Regex::new` on a
    ///   literal, `.lock().unwrap()`); that is why the lint is opt-in. Suppress those with a reason.
    /// - Panics inside other crates, indexing (`v[i]`), arithmetic overflow and `RefCell` borrows are not
    ///   seen. Helpers are found through calls resolved by path, import and receiver type.
    ///
    /// ### Spec
    /// - No spec rule names panics. `schema/2026-07-28/schema.ts` 1824–1837, on `CallToolResult.isError`:
    ///   "Any errors that originate from the tool SHOULD be reported inside the result object, with
    ///   `isError` set to true, _not_ as an MCP protocol-level error response." A panic is reported
    ///   neither way.
    /// - SEP-2145 (PR #2145, pending, not in 2026-07-28) would add "**MUST** report tool execution failures
    ///   as Tool Execution Errors, including … Exceptions thrown by the tool implementation".
    ///
    /// ### SDK notes
    /// - rmcp, every generation, converts what a handler *returns* (`IntoCallToolResult`: `Ok`, `Err`,
    ///   `String`, `CallToolResult`, ...) into a result or an error. A panic returns nothing, so no rmcp
    ///   generation turns it into an `isError` result.
    /// - `ContentBlock::text` is rmcp 2.x–3.x; before 2.0 write `Content::text`.
    /// - Tool context in the other SDKs: rust-mcp-sdk `handle_call_tool_request(_mrtr)`, the
    ///   `CallToolRequest` arm of `ServerHandlerCore::handle_request` and `#[mcp_tool]` structs'
    ///   `call_tool`; pmcp `ToolHandler` impls, `#[mcp_tool]` fns and registered tool closures; turbomcp
    ///   `#[tool]` fns and `McpHandler::call_tool`; mcp-attr `#[tool]` fns and `tools_call`; ultrafast-mcp
    ///   `handle_tool_call`; hand-rolled servers the functions the `"tools/call"` branch reaches. The
    ///   functions these call are tool context too.
    pub LINT,
    name: "panic_in_tool",
    code: "MCP010",
    group: Restriction,
    level: Allow,
    summary: "a panic in tool context takes the whole call down",
    since: "0.1.0",
    check: Some(check),
}

fn check(cx: &mut LintContext<'_>) {
    for panic in &cx.model.panics {
        if !panic.context.is_tool() {
            continue;
        }
        let tools = panic.context.describe_tools().unwrap_or_default();
        let d = cx
            .diagnostic(
                panic.site.span,
                format!("{} can panic in {tools}", panic.site.what),
            )
            .with_label("a panic aborts the call instead of telling the model what went wrong")
            .with_help("handle the failure and return an isError result that says what failed");
        cx.report(panic.site.file, d);
    }
}
