use crate::model::site::{Channel, Origin};
use crate::context::LintContext;

declare_lint! {
    /// ### What it does
    /// Finds `isError` tool results with no readable content: `CallToolResult::error(vec![])` or
    /// `CallToolResult::error(Vec::new())`, a result with empty `content` marked as an error by a struct
    /// literal (`is_error: Some(true)`) or by `r.is_error = Some(true)`, `Err(())` or `Err(String::new())`
    /// in a `#[tool]` fn, and text blocks that are empty or whitespace only (`ContentBlock::text("")`,
    /// `Content::text(" ")`).
    ///
    /// ### Why is this bad?
    /// The model learns that the call failed but not why, so it guesses or repeats the same call. The
    /// host has nothing to log either. Some clients and model providers reject a tool result with no
    /// content blocks at all (posit-dev/positron#7770), and the official conformance scenario
    /// `tools-call-error` fails a server whose error result has no `content[0].text`.
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::*, tool, tool_router, handler::server::wrapper::Parameters};
    ///
    /// #[tool_router]
    /// impl Orders {
    ///     #[tool(description = "Cancel an order")]
    ///     async fn cancel(&self, Parameters(args): Parameters<Cancel>) -> Result<CallToolResult, McpError> {
    ///         if self.store.is_shipped(&args.order_id) {
    ///             return Ok(CallToolResult::error(vec![]));
    ///         }
    ///         self.store.cancel(&args.order_id);
    ///         Ok(CallToolResult::success(vec![ContentBlock::text("cancelled")]))
    ///     }
    ///
    ///     #[tool(description = "Check that the backend answers")]
    ///     async fn ping(&self) -> Result<String, ()> {
    ///         if self.backend.ping().is_err() {
    ///             return Err(());
    ///         }
    ///         Ok("pong".to_string())
    ///     }
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// if self.store.is_shipped(&args.order_id) {
    ///     let message = format!("order {} has already shipped and can no longer be cancelled", args.order_id);
    ///     return Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
    /// }
    /// ```
    /// and declare `ping` as `-> Result<String, String>`, returning an `Err(format!(..))` that names the
    /// backend and the error. Before rmcp 2.0 the block is `Content::text(..)`.
    ///
    /// ### Fix safety
    /// The suggestion shows where the text goes: a text block with a placeholder in an empty vector
    /// (`vec![ContentBlock::text("<what failed and what to do instead>")]`), the placeholder in blank
    /// text, `String::from(..)` for `String::new()`. It is HasPlaceholders: shown in JSON and SARIF
    /// output, never applied, because only you know what the message should say. `Err(())` and
    /// `r.is_error = Some(true)` get no suggestion: the fix there changes a type or another
    /// statement.
    ///
    /// ### Known problems
    /// - Only content the source shows is checked: a vector filled at run time, or a text block built
    ///   from a variable that happens to be empty, is not reported.
    /// - Macros are not expanded; `vec![..]` and `format!(..)` arguments are read, other macros are not.
    ///
    /// ### Spec
    /// - No spec sentence requires content: every `schema/<v>/schema.json` declares `content` as an array
    ///   without `minItems`, and `TextContent.text` has no `minLength` (python-sdk#3305, "needs
    ///   decision"). The lint follows what the spec shows and what its tools check.
    /// - Every error example in `server/tools.mdx` carries a text block: "Failed to fetch weather data: API
    ///   rate limit exceeded" (2024-11-05 to 2025-06-18) and "Invalid departure date: must be in the
    ///   future. Current date is 08/08/2025." (2025-11-25, 2026-07-28).
    /// - Since 2025-11-25 (SEP-1303) tool execution errors carry "actionable feedback that language models
    ///   can use to self-correct and retry with adjusted parameters".
    /// - The analogous resource rule, `docs/specification/2026-07-28/server/resources.mdx` 402
    ///   (SEP-2164): "Servers **MUST NOT** return an empty `contents` array for a non-existent resource."
    ///
    /// ### SDK notes
    /// - rmcp, every generation: `CallToolResult::error` accepts an empty vector without a check.
    /// - rmcp 0.2–3.x: `Err(())` in a `#[tool]` fn declared `-> Result<T, ()>` becomes an `isError` result
    ///   with empty content (`()` converts to no content blocks). In 0.1 `()` is not an error type.
    /// - `CallToolResult::structured_error(..)` (rmcp >= 0.4) always adds the JSON as a text block: not
    ///   reported. `Err(Json(..))` yields empty content in 0.2–0.3 only when serialization fails at run
    ///   time, which the source does not show.
    /// - Struct literals exist only before rmcp 1.0 (`content: vec![]` in 0.1–0.3 and 0.6–0.17,
    ///   `content: Some(vec![])` in 0.4–0.5); from 1.0 `CallToolResult` is `#[non_exhaustive]` and
    ///   `let mut r = CallToolResult::success(vec![]); r.is_error = Some(true);` is the form to look for.
    /// - rust-mcp-sdk: a `CallToolError` becomes an `isError` result whose only text is `err.to_string()`,
    ///   so `CallToolError::from_message("")` is empty; so are
    ///   `CallToolResult { content: vec![], is_error: Some(true), .. }` and a blank `TextContent`.
    /// - pmcp: `Error::tool_rejected("", ..)` and `CallToolResult::rejected("", ..)` (the message is the
    ///   only text), `CallToolResult::error(vec![])`, and `result.is_error = true` on empty content
    ///   (`is_error` is a plain `bool`).
    /// - turbomcp: in a `#[tool]` fn an `McpError`'s message is the `isError` text, so any constructor
    ///   given an empty message is reported, as is `Err(String::new())`; also `ToolResult::error("")` and a
    ///   `ToolResult` literal with empty `content`.
    /// - mcp-attr and ultrafast-mcp have no `isError` helper: the literals
    ///   `CallToolResult { content: vec![], is_error: Some(true), meta }` and
    ///   `ToolResult { content: vec![], is_error: Some(true) }` are what this lint finds there.
    /// - Hand-rolled JSON-RPC: `"isError": true` with `"content": []` or only blank `"text"` in a `json!`
    ///   body, or a `*ToolResult` struct with empty `content`.
    pub LINT,
    name: "empty_error_content",
    code: "MCP002",
    group: Correctness,
    level: Deny,
    summary: "an isError tool result carries no readable content",
    since: "0.1.0",
    check: Some(check),
}

fn check(cx: &mut LintContext<'_>) {
    for site in &cx.model.sites {
        let Some(dialect) = cx.model.dialect_of(site.file) else {
            continue;
        };
        if site.channel != Channel::ToolError
            || !site.empty_content
            || !site.context.answers_tool_calls()
            || (site.is_delegated() && !site.is_text_argument())
        {
            continue;
        }
        let message = match &site.origin {
            Origin::ToolErr
                if site
                    .texts
                    .iter()
                    .all(|t| matches!(t, crate::text::MessageText::Absent)) =>
            {
                "`Err(())` becomes an isError result with no content at all".to_string()
            }
            Origin::ToolErr => {
                "`Err(..)` with blank text becomes an isError result with nothing to read"
                    .to_string()
            }
            Origin::IsErrorAssignment => {
                "result marked `is_error` has no readable content".to_string()
            }
            _ => format!(
                "{} builds an isError result with no readable content",
                site.built_with()
            ),
        };
        let mut d = cx
            .diagnostic(site.span, message)
            .with_label("the model learns that the call failed, but not why")
            .with_help(format!(
                "say what failed and what to do instead: {}",
                // An error value in scope goes in the text; else a placeholder says what does.
                crate::fix::quoted_answer(
                    dialect,
                    &dialect.tool_error_snippet(
                        &crate::fix::message_in_scope(cx.model, site)
                            .unwrap_or_else(|| crate::fix::PLACEHOLDER_TEXT.to_string()),
                        false
                    )
                )
            ));
        d.fix = cx.fix_in(site.file, || crate::fix::empty_content_text(cx.model, site));
        cx.report(site.file, d);
    }
}
