declare_lint! {
    /// ### What it does
    /// Reports a suppression that does not say why: a `// mcp-lint: allow(..)` or `allow-file(..)` comment
    /// with no text after the closing parenthesis, or a `#[cfg_attr(mcp_lint, allow(mcp_lint::..))]`
    /// attribute without `reason = ".."`.
    ///
    /// ### Why is this bad?
    /// Every suppression is a deliberate deviation from the spec or from mcp-lint's reading of it, for
    /// example answering unknown tools with `isError` because a project follows SEP-2145. Without the
    /// reason, a reviewer cannot tell a considered decision from a silenced warning, and nobody knows when
    /// it can be removed.
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
    ///                 // mcp-lint: allow(unknown_tool_as_tool_error)
    ///                 Ok(CallToolResult::error(vec![ContentBlock::text(message)]).into())
    ///             }
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// // mcp-lint: allow(unknown_tool_as_tool_error) we follow SEP-2145: unknown tools are tool errors
    /// Ok(CallToolResult::error(vec![ContentBlock::text(message)]).into())
    /// ```
    /// On an item: `#[cfg_attr(mcp_lint, allow(mcp_lint::panic_in_tool, reason = "regex is a literal"))]`.
    ///
    /// ### Known problems
    /// Any text counts as a reason; mcp-lint cannot judge whether it is a good one.
    ///
    /// ### Spec
    /// Not an MCP rule: this lint is about mcp-lint itself. Requiring reasons follows biome ("A reason is
    /// mandatory") and rustc's `reason = ".."` on lint attributes.
    pub LINT,
    name: "suppression_without_reason",
    code: "MCP903",
    group: Meta,
    level: Warn,
    summary: "a suppression that does not say why",
    since: "0.1.0",
    check: None,
}
