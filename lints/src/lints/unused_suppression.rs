declare_lint! {
    /// ### What it does
    /// Reports a suppression that suppresses nothing: a `// mcp-lint: allow(..)` comment, a
    /// `// mcp-lint: allow-file(..)` comment or a `#[cfg_attr(mcp_lint, allow(mcp_lint::..))]` attribute
    /// that matches no finding of an enabled lint.
    ///
    /// ### Why is this bad?
    /// A stale suppression documents a problem that is gone, and it silently hides the next real finding
    /// of that lint on the same line or item.
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::*, tool, tool_router, handler::server::wrapper::Parameters};
    ///
    /// #[tool_router]
    /// impl Uploads {
    ///     #[tool(description = "Upload a file to a bucket")]
    ///     async fn upload(&self, Parameters(args): Parameters<Upload>) -> Result<CallToolResult, McpError> {
    ///         if let Err(e) = self.store.put(&args.bucket, &args.name).await {
    ///             // mcp-lint: allow(vague_error_text) shown to operators only
    ///             let message = format!("upload of {} to {} failed: {e}", args.name, args.bucket);
    ///             return Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
    ///         }
    ///         Ok(CallToolResult::success(vec![ContentBlock::text("uploaded")]))
    ///     }
    /// }
    /// ```
    /// The message is specific, so `vague_error_text` never fires here.
    ///
    /// ### Use instead
    /// ```rust
    /// let message = format!("upload of {} to {} failed: {e}", args.name, args.bucket);
    /// ```
    ///
    /// ### Known problems
    /// - Only suppressions of lints that ran are judged: when a lint is off (`-A`, `"allow"` in the
    ///   configuration, or allow-by-default like `panic_in_tool`), its suppressions are not reported,
    ///   so a suppression kept for a stricter CI run is not called unused locally. `expect(..)` in the
    ///   attribute form is always judged. A name that is no lint at all is always reported, with the
    ///   closest known name.
    /// - With explicit file paths (pre-commit), findings in other files are not computed for
    ///   reporting, but each file's own suppressions are judged against its own findings.
    ///
    /// ### Spec
    /// Not an MCP rule: this lint is about mcp-lint itself. Reporting unused suppressions follows ruff's
    /// `unused-noqa` (RUF100) and rustc's `unfulfilled_lint_expectations`.
    pub LINT,
    name: "unused_suppression",
    code: "MCP902",
    group: Meta,
    level: Warn,
    summary: "a suppression that suppresses nothing",
    since: "0.1.0",
    check: None,
}
