use crate::model::site::{Channel, SiteContext};
use crate::context::LintContext;

declare_lint! {
    /// ### What it does
    /// Finds the unknown-tool branch of a hand-written dispatcher (the fallback arm of the `match` over the
    /// tool name in `ServerHandler::call_tool`, or the miss of a registry lookup by the tool's name:
    /// `let Some(tool) = self.tools.get(&request.name) else { .. }`, a `None =>` arm, an
    /// `.ok_or_else(..)`; the last `else` of an `if name == "a"` / `if params.name.eq(&Tool::tool_name())`
    /// chain; the same in a helper the dispatcher hands the request or the tool's name to, as in
    /// `let tool_name = params.name.clone(); registry.execute_tool(&tool_name, args)`, also a
    /// miss passed back up by `?`, `self.index.get(name).ok_or_else(|| ToolError::not_found(..))?`,
    /// to the dispatcher's `Err` arm) when it answers with a tool result, `isError` or success,
    /// instead of a protocol error. The spec's answer is a JSON-RPC error such as -32602 with the
    /// message `Unknown tool: <name>`. An unknown tool answered with any protocol error is not this lint.
    ///
    /// ### Why is this bad?
    /// An unknown tool is a failure to *find* the tool: the client's tool list is stale or the model made
    /// up a name. The host can react (refresh the list, tell the user) only when it gets a protocol error.
    /// An `isError` result looks to the host like a tool that ran and failed, and a success result like a
    /// tool that worked.
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
    ///     ) -> Result<CallToolResponse, McpError> {
    ///         match request.name.as_ref() {
    ///             "add" => self.add(request.arguments).await,
    ///             other => {
    ///                 let message = format!("no tool named {other}");
    ///                 Ok(CallToolResult::error(vec![ContentBlock::text(message)]).into())
    ///             }
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// match request.name.as_ref() {
    ///     "add" => self.add(request.arguments).await,
    ///     other => Err(McpError::invalid_params(format!("Unknown tool: {other}"), None)),
    /// }
    /// ```
    ///
    /// ### Fix safety
    /// `--fix` replaces the branch's `Ok(<tool result>)` with
    /// `Err(McpError::invalid_params(format!("Unknown tool: {name}"), None))`, naming the tool by the
    /// arm's binding (or the name the dispatcher compares) and writing the error type as the fn's
    /// signature does. The client gets a JSON-RPC error instead of a result, which is the point;
    /// the branch's own text is replaced by the spec's message, and statements before the answer stay
    /// (a variable that only built the old text becomes unused). MachineApplicable when the name is a
    /// binding or a field path (`request.name`), MaybeIncorrect for other expressions. Other SDKs get
    /// their own -32602 as `unknown_tool_wrong_code` describes (none for pmcp and rust-mcp-sdk). If
    /// you follow SEP-2145, allow the lint instead of fixing.
    ///
    /// ### Known problems
    /// - In a hand-rolled loop that parses each line and routes on its method (`match
    ///   req.method.as_str() { "tools/call" => .. }`), what the method was read from is the
    ///   request: the fn its `"tools/call"` arm hands the name read out of it is the dispatcher
    ///   (also called inside the response's `json!`).
    /// - An unknown tool's `Err` that the caller's one `Err(e)` arm answers is judged by that
    ///   answer: an isError result, or a success result (`Err(e) => Ok(json!({"content": [{"type":
    ///   "text", "text": json!({"success": false, "error": e}).to_string()}]}))`), which is
    ///   reported as "answered with a success tool result".
    /// - A hand-rolled result type's own constructor that sets the flag in its `Self { .. }`
    ///   literal (`fn tool_error(msg: String) -> Self { Self { content: .., is_error: true } }`)
    ///   builds that tool result at each call, as the literal written there would.
    /// - A fallback arm that looks the name up again (`other => if let Some(p) =
    ///   self.promoted.iter().find(|p| p.name == other) { .. } else { .. }`) answers an unknown
    ///   tool only in its `else`; what the lookup finds is a tool. The same for a `match` on that
    ///   lookup (`other => match self.presets.get(other) { Some(p) => run(p), None => .. }`): only
    ///   its `None` (or `_`) arm.
    /// - The unknown-tool branch is recognised as the fallback arm of a `match` on the tool name, the
    ///   final `else` of an `if name == ".."` chain, the body of an `if name != ".."` guard (the
    ///   known names written as string literals or as constants named in SCREAMING_CASE, `Some(
    ///   TOOL_NAME) =>`, `tools::ECHO =>`, `name != TOOL_NAME`, named by the constant), the body
    ///   of a membership guard (`if !KNOWN.contains(&name)`, `!NAMES.iter().any(|t| *t == name)`,
    ///   with a `return Err(..)` or a `bail!`, or `anyhow::ensure!(NAMES.iter().any(..), "..")`;
    ///   a predicate fn such as `is_allowed(name)` is not read; the dispatch's catch-all after
    ///   such a guard is unreachable and not reported), a helper
    ///   routing on a `tool` argument (the requested name, also copied into a local by `.clone()`,
    ///   `.to_string()` or `.to_owned()`), and SDK constructors that name it (`tool_not_found`,
    ///   `CallToolError::unknown_tool`), and the miss of a lookup keyed by the tool name: a map lookup
    ///   (`tools.get(name)`), a `find` over the entries, or a crate method whose value is such a
    ///   lookup of its argument (`index.dispatch_for(name)` returning `self.dispatch.get(name)`). A
    ///   lookup buried deeper in a helper (a loop, a lookup after other work) is not seen.
    /// - A catch-all that gives an `Err` value the dispatch's `let` keeps (`let result = match name
    ///   { .., other => Err(format!("unknown tool: {other}")) }; match result { Ok(t) => ..,
    ///   Err(e) => tool_error(id, &e) }`) is judged by what the one unguarded `Err(e)` arm builds,
    ///   and reported at the catch-all's value, without a fix. With several `Err` arms, or after a
    ///   guard that already answered names outside the tool list (`if !is_known(name) { return
    ///   .. }`, which leaves the catch-all unreachable as far as the source tells), nothing is
    ///   reported.
    /// - A catch-all `Err` the dispatcher returns (`_ => Err(format!("Unknown tool: {name}"))` in
    ///   `fn call_tool(..) -> Result<Value, String>`, also through `?` on the `match`: `let result =
    ///   match name { .. }?;`, or `_ => anyhow::bail!("Unknown tool: {name}")`) is judged by what its caller builds in the one
    ///   `Err(e)` arm of its `match` over the call (`Err(e) => tool_error(id, &e)`), or by a router's
    ///   mapping of that error; reported at the `Err`, without a fix.
    /// - A helper continues the dispatch when the dispatcher hands it the requested name: a field
    ///   of the request, a local holding it (`let tool_name = params.name.clone()`, `let name =
    ///   params.get("name").and_then(Value::as_str)..`) or holding a part of the request (`let
    ///   args = &params["arguments"]`), or the `name` field of the request decoded
    ///   into a local (`let call: CallToolRequest = serde_json::from_value(params)?`), and no other
    ///   code calls it.
    /// - A hand-rolled server's own result type is a tool result by its shape (a `content` field and
    ///   an `is_error` / `isError` one) or, when the crate does not define it, its name
    ///   (`*ToolResult*`, `*ToolResponse*`); a crate type so named but shaped as an outcome
    ///   (`ToolResponse { success, data, error }`) is not one: its caller decides the answer.
    /// - SEP-2145 (pending) would make an unknown tool a tool execution error. Projects that follow it
    ///   turn the lint off with `unknown_tool_as_tool_error = "allow"` under `[lints]` (or `-A MCP007`),
    ///   or suppress the one arm with a reason.
    ///
    /// ### Spec
    /// - `server/tools.mdx`, every version (2026-07-28: line 738): protocol errors cover "Unknown tools",
    ///   with the example `{"code": -32602, "message": "Unknown tool: invalid_tool_name"}`.
    /// - `schema/2026-07-28/schema.ts` 1824–1837, on `CallToolResult.isError`: "However, any errors in
    ///   _finding_ the tool, an error indicating that the server does not support tool calls, or any other
    ///   exceptional conditions, should be reported as an MCP error response."
    /// - SEP-2145, "Standardize `tools/call` failure reporting" (PR #2145, open), would move unknown tools
    ///   to tool execution errors. It is not in 2026-07-28.
    ///
    /// ### SDK notes
    /// - rmcp, every generation: `ToolRouter::call` (behind `#[tool_handler]` and
    ///   `self.tool_router.call(..)`) answers an unknown tool with `invalid_params("tool not found")`,
    ///   -32602. That is spec-conformant and not in your crate; in rmcp 0.1 `#[tool(tool_box)]` generates
    ///   the dispatch.
    /// - rmcp's `call_tool` rustdoc suggests `METHOD_NOT_FOUND`
    ///   (`McpError::method_not_found::<CallToolRequestMethod>()`, -32601): a protocol error, so not
    ///   reported here, although the spec's example uses -32602.
    /// - In rmcp 3.x `call_tool` returns `CallToolResponse`, so results appear as `Ok(result.into())` or
    ///   `Ok(CallToolResponse::Complete(..))`; both are recognised. Before 3.0 it is `Ok(result)`.
    /// - rust-mcp-sdk: `handle_call_tool_request` turns every `CallToolError` into an `isError` result, so
    ///   `Err(CallToolError::unknown_tool(..))` (the SDK's README answer) and `?` on `tool_box!`'s
    ///   `try_from` are reported. A protocol error needs an `RpcError`: answer from
    ///   `handle_call_tool_request_mrtr` or `ServerHandlerCore::handle_request` with
    ///   `RpcError::invalid_params()`.
    /// - pmcp routes `tools/call` by registered name and answers unknown tools itself; only a router of
    ///   your own (a plugin host's `match` over the tool name) is judged.
    /// - turbomcp: the `#[server]` macro answers `tool_not_found` (-32602) in generated code; in a
    ///   hand-written `McpHandler::call_tool`, `Ok(ToolResult::error(..))` or a success in the catch-all
    ///   arm is reported.
    /// - mcp-attr (`McpServer::tools_call`) and ultrafast-mcp (`handle_tool_call`): a `CallToolResult` or
    ///   `ToolResult` in the catch-all arm. Hand-rolled JSON-RPC: a `"result"` there, with or without
    ///   `"isError": true`.
    pub LINT,
    name: "unknown_tool_as_tool_error",
    code: "MCP007",
    group: Correctness,
    level: Deny,
    summary: "an unknown tool is answered with a tool result instead of a protocol error",
    since: "0.1.0",
    check: Some(check),
}

fn check(cx: &mut LintContext<'_>) {
    for site in &cx.model.sites {
        let Some(dialect) = cx.model.dialect_of(site.file) else {
            continue;
        };
        let SiteContext::UnknownToolArm { binding } = &site.context else {
            continue;
        };
        if site.is_text_argument() {
            continue;
        }
        let kind = match site.channel {
            Channel::ToolError => "an isError tool result",
            Channel::ToolSuccess => "a success tool result",
            Channel::Protocol => continue,
        };
        let mut d = cx
            .site_diagnostic(site, format!("unknown tool answered with {kind}"))
            .with_label("the spec answers an unknown tool with a protocol error")
            .with_help(crate::fix::unknown_tool_help(dialect, binding))
            .with_note("SEP-2145 (pending) may change this; turn the lint off with `unknown_tool_as_tool_error = \"allow\"` if you follow it");
        d.fix = cx.fix_in(site.file, || crate::fix::unknown_tool_error(cx.model, site, binding));
        cx.report(site.file, d);
    }
}
