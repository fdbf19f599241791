use crate::codes::{self, INVALID_PARAMS};
use crate::model::site::{Channel, SiteContext};
use crate::text::MessageText;
use crate::context::LintContext;

declare_lint! {
    /// ### What it does
    /// Finds the unknown-tool answer of a dispatcher (the fallback arm of the `match` over the tool
    /// name, the miss of a registry lookup by the tool's name, the `Err(e)` arm of a parse of the
    /// request's tool name before a tool is picked, or the SDK's tool-enum conversion failing with
    /// `?`, also in a helper the dispatcher hands the request to) when it is a protocol error with a
    /// code other than -32602, or a -32602 whose message does not name the tool. The spec's example
    /// is -32602 with the message `Unknown tool: <name>`.
    ///
    /// An unknown tool answered with an isError or success result is `unknown_tool_as_tool_error`
    /// (MCP007), not this lint.
    ///
    /// ### Why is this bad?
    /// Clients and hosts tell "the tool list is stale" from "the server is broken" by the code:
    /// -32601 says the *method* (`tools/call`) does not exist, -32603 says the server failed, and a
    /// code from the legacy range means nothing at all under 2026-07-28. A message without the name
    /// leaves the host's log without the one fact needed to fix the call.
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::*, service::RequestContext, RoleServer, ServerHandler};
    ///
    /// impl ServerHandler for Calculator {
    ///     async fn call_tool(
    ///         &self,
    ///         request: CallToolRequestParams,
    ///         _context: RequestContext<RoleServer>,
    ///     ) -> Result<CallToolResult, McpError> {
    ///         match request.name.as_ref() {
    ///             "add" => Ok(CallToolResult::success(vec![ContentBlock::text("3")])),
    ///             _ => Err(McpError::method_not_found::<CallToolRequestMethod>()),
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// match request.name.as_ref() {
    ///     "add" => Ok(CallToolResult::success(vec![ContentBlock::text("3")])),
    ///     other => Err(McpError::invalid_params(format!("Unknown tool: {other}"), None)),
    /// }
    /// ```
    ///
    /// ### Fix safety
    /// `--fix` replaces the answer with `Err(McpError::invalid_params(format!("Unknown tool: {name}"),
    /// None))`, naming the tool by the arm's binding (or the name the dispatcher compares) and writing
    /// the error type as the fn's signature does. Clients see -32602 and the spec's message instead
    /// of the old code and text. MachineApplicable when the name is a binding or a field path,
    /// MaybeIncorrect for other expressions; the SDK's tool-enum conversion (`?`) gets no fix.
    /// Other SDKs write their own -32602: turbomcp 3.x `McpError::tool_not_found(name)`,
    /// ultrafast-mcp `MCPError::invalid_params(..)`, mcp-attr
    /// `Error::new(ErrorCode::INVALID_PARAMS).with_message(.., true)`. pmcp gets no fix (it answers
    /// every handler `Err` with -32603, so no handler code can send -32602), nor does rust-mcp-sdk
    /// (the -32602 belongs in `ServerHandlerCore::handle_request`, a different handler), nor a name
    /// only another `match` arm binds.
    ///
    /// ### Known problems
    /// - An unknown tool a router returns as a variant of its error enum is judged by what its
    ///   caller answers: the one `Err(e)` arm of its `match`, or the arm naming that variant
    ///   (`Err(ToolError::UnknownTool(name)) => ..`); another variant's arm never counts.
    /// - Only hand-written dispatch is checked: the fallback arm of a `match` over the tool name and
    ///   rust-mcp-sdk's `tool_box!` conversion (`MyTools::try_from(params)?`). Unknown tools that an
    ///   SDK answers by itself (rmcp's `ToolRouter`, pmcp's and mcp-attr's generated dispatch) are
    ///   outside your code and not reported. A `call_tool` that hands the router its own tools
    ///   first (`if self.tool_router.has_route(name) { return self.tool_router.call(tcc).await; }`)
    ///   and matches its extra tools after is still checked: that early return routes the known
    ///   names away, so the `match`'s fallback answers every unknown one. An early return under a
    ///   test that the name is *not* known answers them itself, and the fallback is not judged.
    /// - A message built at run time (`format!`, a variable) is assumed to name the tool.
    /// - An unknown tool answered with an `Err` of the crate's error enum
    ///   (`_ => Err(AppError::Internal(format!("Unknown tool: {name}")))`) is judged by the code a
    ///   caller's mapping gives that variant (`let (code, message) = map_error(&e)` after the router
    ///   call, or `let response = match method { "tools/call" => .., .. }`), and reported at the
    ///   `Err`, as is a registry's miss turned into such an error by `?`
    ///   (`self.tools.get(name).ok_or_else(|| Error::Tool(..))?`, reported at `Error::Tool(..)`)
    ///   in a helper the `tools/call` branch hands the requested name to, also once decoded through
    ///   locals (`let params: CallToolParams = serde_json::from_value(params_value)?;
    ///   registry.call_tool(&params.name, ..)`), or the params a rust-mcp-sdk core handler's
    ///   `CallToolRequest(params)` arm binds (`self.dispatch(&params)?`); a variant built by a
    ///   helper fn is not followed there. When that mapping picks the code by tests the source cannot decide (`let (code,
    ///   message) = if text.contains("rate limit") { (-32002, ..) } else { (-32603, ..) }`, a
    ///   `match` over another crate's value), the unknown tool gets one of its codes: reported
    ///   ("one of -32002 or -32603") only when none is -32602.
    /// - A response helper the fallback arm hands its answer to (`success_or_internal_error(id,
    ///   &result)`) answers with that value; the -32603 it builds only when serialising the
    ///   server's own value fails is a server fault, not the unknown tool's code.
    ///
    /// ### Spec
    /// - `docs/specification/2026-07-28/server/tools.mdx` (Error Handling): protocol errors cover
    ///   "Unknown tools", with the example `{"code": -32602, "message": "Unknown tool: invalid_tool_name"}`.
    ///   The same example is in every version since 2024-11-05.
    /// - `schema/2026-07-28/schema.ts`, `MethodNotFoundError` (-32601) covers unknown *methods* and
    ///   methods behind a capability the server did not advertise.
    ///
    /// ### SDK notes
    /// - rmcp: `ToolRouter::call` answers `invalid_params("tool not found")` itself (right code, the
    ///   message does not name the tool, but it is the SDK's, so not reported); rmcp's docs suggest
    ///   `METHOD_NOT_FOUND`, which this lint reports in a hand-written `call_tool`.
    /// - rust-mcp-sdk: in `ServerHandlerCore::handle_request`, `?` on the `tool_box!` conversion
    ///   carries `CallToolError::unknown_tool` through `From<CallToolError> for RpcError`: -32603.
    /// - pmcp answers unknown tools with -32603 itself, inside pmcp; a plugin host's own `match` over the
    ///   tool name is judged (also in `server::traits::ToolHandler::call_tool`, handed the whole
    ///   `CallToolRequest`: a dispatcher, its registry miss or fallback arm the unknown tool), and every `Err` there is -32603 on the wire (`Error::invalid_params(..)`
    ///   and `Error::method_not_found(..)` too): a pmcp handler cannot send the spec's -32602.
    /// - turbomcp: in `McpHandler::call_tool`, `McpError::method_not_found(..)` (-32601) and
    ///   `McpError::internal(..)` (-32603) are reported; `McpError::tool_not_found(name)` is -32602 with
    ///   the name (turbomcp 3.5+; mcp-lint assumes 3.5+ behaviour).
    /// - mcp-attr: `tool_not_found(name)` is -32601 with the fixed text "Tool not found"; the
    ///   `#[mcp_server]` macro's generated answer is the same but not in your crate. ultrafast-mcp:
    ///   `MCPError::method_not_found(..)`, its README's answer, is sent as -32603.
    /// - Hand-rolled JSON-RPC: the catch-all arm's error object with another code than -32602 (a literal or
    ///   a const given to the response helper), or a -32602 whose literal message does not name the tool.
    ///   On jsonrpc-core: `Error::method_not_found()` (-32601, "Method not found").
    pub LINT,
    name: "unknown_tool_wrong_code",
    code: "MCP011",
    group: Suspicious,
    level: Warn,
    summary: "an unknown tool is answered with another code than -32602, or without naming the tool",
    since: "0.1.0",
    check: Some(check),
}

fn check(cx: &mut LintContext<'_>) {
    for site in &cx.model.sites {
        let SiteContext::UnknownToolArm { binding } = &site.context else {
            continue;
        };
        if site.is_text_argument() {
            continue;
        }
        let Some(dialect) = cx.model.dialect_of(site.file) else {
            continue;
        };
        // A helper's -32603 for failing to serialise the server's own answer (`match
        // to_value(result) { .., Err(e) => error(id, -32603, ..) }`) is not how the unknown tool
        // is answered: the value it serialises is.
        if site.channel != Channel::Protocol || site.path.server_fault {
            continue;
        }
        let names_tool = !site
            .texts
            .iter()
            .all(|t| matches!(t, MessageText::Literal { .. } | MessageText::Absent));
        let message = match site.code {
            // A mapping whose branches the source cannot choose between: which code the
            // unknown tool gets is not known, only that it is one of these.
            Some(_) if site.code_one_of.contains(&INVALID_PARAMS) => continue,
            Some(_) if site.code_one_of.len() > 1 => {
                let mut codes: Vec<String> = site.code_one_of.iter().map(i64::to_string).collect();
                let last = codes.pop().unwrap_or_default();
                format!(
                    "unknown tool answered with one of {} or {last} instead of -32602",
                    codes.join(", ")
                )
            }
            Some(code) if code != INVALID_PARAMS => {
                let name = codes::name(code).map_or(String::new(), |n| format!(" ({n})"));
                format!("unknown tool answered with {code}{name} instead of -32602")
            }
            Some(_) if !names_tool => "unknown-tool error does not name the tool".to_string(),
            _ => continue,
        };
        let mut d = cx
            .site_diagnostic(site, message)
            .with_label("the spec answers -32602 \"Unknown tool: <name>\"")
            .with_help(crate::fix::unknown_tool_help(dialect, binding));
        d.fix = cx.fix_in(site.file, || crate::fix::unknown_tool_error(cx.model, site, binding));
        cx.report(site.file, d);
    }
}
