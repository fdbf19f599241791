use crate::context::LintContext;
use crate::model::site::{Channel, ErrorSite, Origin};
use crate::text::MessageText;

declare_lint! {
    /// ### What it does
    /// Finds failure paths answered with a success result: `CallToolResult::success(..)` in an `Err(e) =>`
    /// arm, or one built from the error value (`format!("Error: {e}")`, `e.to_string()`) in a
    /// closure such as `.unwrap_or_else(|e| ..)`. In a `#[tool]` fn, an `Ok(..)` value that rmcp
    /// turns into a success result counts too (`String`, `Json<T>`, `Value`). Outside a failure path,
    /// an early `return` of an answer that says it failed is reported too, and so is such an
    /// answer in the branch an outcome test takes on failure (the `else` of
    /// `if output.status.success()`, the `then` of `if r.is_err()`) or as a `#[cfg(not(..))]`
    /// block's value: `{"error": ..}` (not
    /// `null`), `{"success": false, ..}`, `{"ok": false, ..}`, `{"status": "error", ..}` or a text
    /// opening with "Error:", "Failed to", "Cannot", an `<error>` tag or a rejection ("unknown
    /// agent: ..") (or serialised: `to_string(&json!(..))`); and, where the SDK sends a tool's
    /// value as the text of a success result, a value with its own `"isError": true`.
    ///
    /// ### Why is this bad?
    /// The result says the call succeeded: hosts count it as a success, and the model may read the error
    /// text as the tool's output or not notice the failure at all. In
    /// intersystems-community/iris-agentic-dev#95 every error path returned `CallToolResult::success`,
    /// and "38/38 tool failures … came back unflagged".
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::*, tool, tool_router, handler::server::wrapper::Parameters};
    ///
    /// #[tool_router]
    /// impl Database {
    ///     #[tool(description = "Run a read-only SQL query")]
    ///     async fn query(&self, Parameters(args): Parameters<Query>) -> Result<CallToolResult, McpError> {
    ///         match self.pool.query(&args.sql).await {
    ///             Ok(rows) => Ok(CallToolResult::success(vec![ContentBlock::text(rows.to_string())])),
    ///             Err(e) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("Error: {e}"))])),
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// match self.pool.query(&args.sql).await {
    ///     Ok(rows) => Ok(CallToolResult::success(vec![ContentBlock::text(rows.to_string())])),
    ///     Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
    ///         "query failed: {e}"
    ///     ))])),
    /// }
    /// ```
    ///
    /// ### Fix safety
    /// `--fix` turns `CallToolResult::success(..)` into `CallToolResult::error(..)` and
    /// `structured(..)` into `structured_error(..)` (pmcp: `CallToolResult::new` → `error`;
    /// turbomcp: `ToolResult::text` → `error`; tower-mcp: `CallToolResult::text` → `error`), keeping the content, so the result carries
    /// `isError: true`: hosts and the model then see the failure. MachineApplicable in an `Err(e) =>`
    /// arm, an `if let Err(e)` or a closure that receives the error; MaybeIncorrect (applied with
    /// `--unsafe-fixes`) where the result is only built from the error, which may be a deliberate
    /// recovery. Blank content gets a placeholder (HasPlaceholders, never applied). Text returned as
    /// `Ok(String)` from a text tool gets no fix. In a tool whose `Ok` is its output, not the tool
    /// result (a turbomcp 3 `#[tool]` returning `McpResult<Json<T>>` or `McpResult<Value>`,
    /// tower-mcp's `McpTool`), the help and fix return the SDK's isError answer for it,
    /// `Err(McpError::internal(..))` / `Err(Error::tool(..))`: `Ok(json!({"error": msg, ..}))`
    /// becomes that `Err` with `msg` (MaybeIncorrect: the other members go); another output value
    /// gets the help only. A turbomcp 3 `#[tool]` whose output is no `Result` (`-> Json<T>`, `->
    /// Value`) has no failure answer at all: the help says to declare it `-> McpResult<..>` and
    /// return that `Err`; the fix (MaybeIncorrect) declares it `-> Result<T, McpError>`, wraps
    /// every other value it returns in `Ok(..)` and answers the failure with the `Err` (not for a
    /// tool with a `?` in it, whose meaning would change).
    ///
    /// ### Known problems
    /// - The `Err(e) if e.kind() == ErrorKind::NotFound` arm of a removal (`fs::remove_file`,
    ///   `remove_dir`, `remove_dir_all`) answered as success is not reported: the thing is already
    ///   gone, which is what the removal was for. Other deliberate recoveries are.
    /// - The texts read as failures open with "Error:", "Failed to", "Could not", "Unable to",
    ///   "Cannot", "Can't", an `<error>` tag, or a rejection of a value named before a colon
    ///   ("unknown source agent: ..", "invalid date: ..", "unsupported format: .."). "Unknown
    ///   artist" (no colon) is data. Other wordings, and words inside a text, are not read.
    /// - A hand-rolled result struct that derives `Serialize` with its flag field `is_error` not
    ///   renamed (no `#[serde(rename = "isError")]`, no `rename_all = "camelCase"`) sends
    ///   `"is_error": true`, which clients do not read: its failure answers are success results
    ///   here. A hand-written `Serialize` impl or a `json!` mapping of the struct is not read.
    /// - The arm a `match` takes when a guard says the outcome failed is that failure's path:
    ///   the arm after `Ok(o) if o.status.success() =>` for the same variant (or a `_` after
    ///   it), and `Ok(o) if !o.status.success() =>` itself, as the `else` of `if
    ///   output.status.success()` is. A crate's own test, a method `fn success(&self) -> bool`
    ///   (or `is_success`, `succeeded`, `passed`), counts as one (`if out.success()`).
    /// - The `Ok(Err(e))` arm over a joined task or a timeout (`spawn_blocking(move ||
    ///   read(&path)).await`, `tokio::spawn(async move { .. }).await`, `timeout(d, fut).await`) is
    ///   the failure of the task's value or the future; the `Err(e)` arm of the join is its
    ///   `JoinError`, also of a handle kept in a local (`let task = tokio::spawn(..); match
    ///   task.await`). Other nestings (`Some(Err(e))`) are not read.
    /// - A failure value is followed through `let`s, `Ok(value)` / `Some(value)` arms over a value
    ///   the body holds, crate fns that return it, and crate helpers that make a success result of
    ///   a parameter (`fn tool_success(value: Value) -> Value { json!({"content": [..]}) }`); a
    ///   hand-rolled result whose `"isError"` is decided at run time (`"isError": is_error`) is
    ///   neither answer and is not judged. A crate fn handed the error, or an `Err` made of it
    ///   (`return json_result(Err(e))`), answers it its own way: reported at that answer, once
    ///   (`Err(e) => tool_err(e)` at `tool_err`'s success result, each call attached). Handed text
    ///   made of the error (`tool_err(format!("fetch failed: {e}"))`), the call is the answer.
    ///   A helper that matches the `Result` it is handed (`match r { Ok(v) => structured(v),
    ///   Err(e) => error_result(e) }`) answers a literal `Err(..)` with its `Err` arm only, and
    ///   a literal `Ok(..)` with its `Ok` arm (also through the helpers those arms call).
    /// - On a failure path, a crate helper whose value is a `json!` it builds (`fn
    ///   error_response(code, msg) -> String { json!({"error": ..}).to_string() }`, also through one
    ///   more helper), or a crate struct it serialises (`serde_json::to_string(&ToolResponse {
    ///   status: Status::Error, .. })`, read with serde's names: `rename`, `rename_all` of the
    ///   struct's fields and of the enum's unit variants), answers with that JSON, and so does an early `return` of it in a branch taken
    ///   on something the tool tested (`if !client.is_connected() { return not_connected(); }`,
    ///   an argument's value, the `_ =>` arm of a `match` of an argument against the literals
    ///   it knows); an early `return` of it on the server's own setting (`if
    ///   !self.enabled.mail { return disabled("mail"); }`, a configuration switch) is not judged
    ///   at each call.
    /// - An `Ok(false) =>` arm (the call says it did not act) and an `Ok(None) =>` or `None =>`
    ///   arm (a lookup's miss, or any optional value that is not there: a sheet's used range)
    ///   count when the answer there says it failed (`{"error": ..}`, "Failed to .."), also when
    ///   a crate helper builds that JSON: a yes/no query's `{"exists": false}`, a search's
    ///   `{"found": false}` or an empty listing's `{"rows": []}` is data. A miss on a handle, or
    ///   one whose text says the thing is not there, is MCP008's instead.
    /// - A `#[tool]` fn whose body calls a crate `macro_rules!` written in the same file (`tool_fn!(
    ///   self.store, tools::sheet::write, input)`) is read in the expansion: an answer the macro
    ///   writes (`Err(e) => unexpected_error(e)`) is reported once, where the macro writes it, for
    ///   every tool that calls it; the module fns it calls are tool code.
    /// - `.unwrap_or_else(|e| e.into_inner())` takes a poisoned lock's guard back: no answer.
    /// - A success result built in a fn declared to return a number or a flag (`fn
    ///   response_bytes(..) -> usize` serialising one to measure a response against a size cap)
    ///   cannot leave that fn: calling it on a failure path is no answer.
    /// - A `#[tool]` fn that returns one `Content` block is answered as a text tool is: rmcp makes
    ///   the block a success result whole.
    /// - What a body returns is its tail, its `return`s, and a `#[cfg(..)] { .. }` block statement
    ///   before the tail (`#[cfg(target_os = "linux")] { match r { .. } }` then its
    ///   `#[cfg(not(..))]` twin: on one target the first block is the value). A `#[cfg(not(..))]`
    ///   block's value is the tool's answer where its own code is not compiled, judged as a
    ///   fallback branch's (`#[cfg(not(target_os = "linux"))] { error_response("not_available",
    ///   "..") }`): reported when it says it failed, not when
    ///   it is the work done another way (`#[cfg(not(feature = "gpu"))] { render_on_cpu(x) }`).
    ///   Other `#[cfg(..)]` blocks are read as the code they hold.
    /// - A helper that answers its parameter as an isError or a success result by what the value
    ///   holds (`if is_error(&v) { structured_error(v) } else { structured(v) }`) is neither answer,
    ///   and so is one that branches on a flag its callers pass (`fn respond(.., is_error: bool) {
    ///   if is_error { .. } else { .. } }`): a call with `false` on a failure path is not reported.
    ///   A flag that picks between two values that are no answers of their own (`if save_to_file
    ///   { Ok(save(d)) } else { Ok(Content::image(..)) }`) is followed both ways.
    ///   A hand-rolled helper that writes the flag into the result (`json!({"content": [..],
    ///   "isError": is_error})`), or sets it on the result it built when its parameter says so
    ///   (`let mut result = json!({"content": [..]}); if is_error { result["isError"] =
    ///   json!(true); }`), is read at each call that passes a literal: `wrap(&msg, false)` is a
    ///   success result there, `send_tool_result(id, &msg, true)` an isError one.
    /// - A success result's content says it failed when its one block is a `json!` value that
    ///   does (`Content::json(json!({"success": false, ..}))?`, `Content::text(json!(..).to_string())`,
    ///   also through `serde_json::to_string(&json!(..))`), also where a local holds the value or
    ///   the block (`let content = ContentBlock::json(payload)?`, `payload` a `json!` per branch).
    /// - A text says it failed by how it opens, past a marker such as "❌ **": the same words
    ///   further in may be the data's, and an empty outcome ("No pages matched") or a miss told
    ///   in other words ("Page \"{title}\" has no content") is not read as a failure.
    /// - An answer that says it failed counts outside a failure path only when it is returned early
    ///   or answers a failed outcome test: the same JSON as a tool's final answer may be its data
    ///   (a validator's findings, a test run's failures) and is not reported. A value with its own `"isError": true` counts the same way,
    ///   and only as a `json!` written in the tool: one a helper builds and returns is not followed.
    /// - When serialising the tool's own value fails, a fallback literal that says nothing of a
    ///   failure (`.unwrap_or_else(|_| "{}".into())`) is taken for a placeholder and not reported;
    ///   whether it says so is read from its words ("error", "fail", "cannot", ..).
    /// - An `Err` arm that recovers on purpose (serves a cached value, falls back to a default) is
    ///   reported too; suppress it with a reason.
    /// - A batch tool that reports per-item failures inside an overall success result may be right to do
    ///   so; suppress such a finding with a reason.
    /// - Failure paths are the `Err(e)` branch of a `match` or `if let` and closures that receive the
    ///   error (`.unwrap_or_else(|e| ..)`). Failure text that leaves its branch in a variable or as a
    ///   helper's returned value (`let out = match r { Ok(v) => v, Err(e) => format!("Error: {e}") };`,
    ///   one element of a tuple a `let` destructures, `let (content, prefix) = match .. { Err(_) =>
    ///   ("Failed to parse HTML".into(), ..) }`, a `String` helper the tool calls, an `Output::Error { error }` its `to_json()` renders) is
    ///   followed to the success result that wraps it, and reported where it is built, when it is built
    ///   from the error or says it failed; a default put in the failure's place (`Err(_) => "0".into()`)
    ///   is not. Only whole values are followed: text a `format!` embeds in other text, or an item pushed
    ///   into a list, is part of another answer.
    ///
    /// ### Spec
    /// - `schema/2026-07-28/schema.ts` 1824–1837, on `CallToolResult.isError` (every version since
    ///   2024-11-05): "Any errors that originate from the tool SHOULD be reported inside the result
    ///   object, with `isError` set to true, _not_ as an MCP protocol-level error response." And: "If not
    ///   set, this is assumed to be false (the call was successful)."
    /// - `docs/specification/2026-07-28/server/tools.mdx` (Error Handling, line 738): "Clients **SHOULD**
    ///   provide tool execution errors to language models to enable self-correction."
    ///
    /// ### SDK notes
    /// - rmcp, every generation: `CallToolResult::success(..)` never sets `isError` to true.
    /// - In a `#[tool]` fn declared `-> Result<String, String>`, `Ok(format!("Error: {e}"))` is a success;
    ///   `Err(format!(..))` is the `isError` result (rmcp 0.1–3.x).
    /// - rmcp >= 1.4: in a `#[tool]` fn declared `-> Result<T, CallToolResult>`, an `Err(..)` is forced to
    ///   `isError` even when built with `success(..)`; that is not reported.
    /// - `ContentBlock::text` is rmcp 2.x–3.x; before 2.0 write `Content::text`.
    /// - Success results in the other SDKs: pmcp `Ok(Value)` from a tool (`Ok(json!({"error": ..}))` is
    ///   one) and `CallToolResult::success(..)`, turbomcp `Ok(T)` from a `#[tool]` fn and
    ///   `ToolResult::text(..)`, rust-mcp-sdk `CallToolResult::text_content(..)`, mcp-attr `Ok(String)` and
    ///   the `From` conversions (`vec![TextContent::new(..)].into()`, `CallToolResult::from(..)`), ultrafast-mcp `ToolResult { is_error: None | Some(false), .. }`,
    ///   hand-rolled a `"result"` without `"isError": true`, tower-mcp `CallToolResult::text(..)`,
    ///   `json(..)` and `from_serialize(..)`.
    /// - pmcp 1.x and 2.x put a `ToolHandler`'s `Ok(Value)` into the text of a success result (and
    ///   into `structuredContent` for a declared outputSchema), and tower-mcp an `McpTool`'s output
    ///   (`CallToolResult::json`): an `"isError": true` member inside that value is data, the
    ///   result's own `isError` stays unset.
    /// - The `isError` answers: pmcp `Err(Error::tool_rejected(..))`, turbomcp `Err(McpError::..)` in a
    ///   `#[tool]` fn or `Ok(ToolResult::error(..))`, rust-mcp-sdk `Err(CallToolError::..)` from
    ///   `handle_call_tool_request`, mcp-attr and ultrafast-mcp the result literal with
    ///   `is_error: Some(true)`, tower-mcp `Ok(CallToolResult::error(..))` or any `Err` of a tool (but an uncaught
    ///   `.mrtr_handler(..)`'s, a JSON-RPC error: docs/sdks.md).
    pub LINT,
    name: "failure_as_success",
    code: "MCP009",
    group: Suspicious,
    level: Warn,
    summary: "a failure path is answered with a success result",
    since: "0.1.0",
    check: Some(check),
}

fn check(cx: &mut LintContext<'_>) {
    let handed = super::stale_handle_as_success::HandedTexts::of(&cx.model.sites);
    for site in &cx.model.sites {
        let Some(dialect) = cx.model.dialect_of(site.file) else {
            continue;
        };
        // A payload's own `"isError": true` where the SDK sends the payload as success text.
        let own_is_error = dialect.payload_is_result_text() && member(site, "isError") == Some("true");
        // An answer that says it failed, where the path shows a way out: an early `return`, or a
        // fallback branch (`None =>`, `.unwrap_or(..)`).
        let exits_with_failure = (site.path.early_return || site.path.in_fallback)
            && (own_is_error || says_it_failed(site));
        // A value that reaches the answer through a `let` or a helper counts when it is the
        // failure's: built from the error, or saying it failed (not a default put in its place).
        let failure = match site.origin {
            Origin::ReachedAnswer => site.path.uses_error || exits_with_failure,
            _ => site.path.on_failure_path || site.path.uses_error || exits_with_failure,
        };
        if site.is_text_argument()
            || site.channel != Channel::ToolSuccess
            // A lookup's miss is MCP008's when it is a handle's; any other miss is a failure
            // here only when the answer says it failed (not "no results" told as data).
            || (site.path.lookup_miss
                && (!exits_with_failure || super::stale_handle_as_success::claims(site, &handed)))
            || !site.context.is_tool()
            || !failure
            || quiet_server_fault(site)
        {
            continue;
        }
        let label = if own_is_error {
            format!(
                "{} sends this value as the text of a success result: its own `isError` is not the result's",
                dialect.name()
            )
        } else {
            "`isError` is not set, so the model and the host take this as success".to_string()
        };
        // The text the source holds (what failed and the error in scope, the answer's own
        // `"error"` text), else a template with the error the answer uses, else where the text
        // goes; a tool answering with its output (not the tool result) answers a failure its
        // own way.
        let message = crate::fix::message_in_scope(cx.model, site)
            .or_else(|| member(site, "error").filter(|v| v.starts_with('"')).map(str::to_string))
            .or_else(|| {
                let template = "format!(\"<what failed>: {e}\")".to_string();
                // At a helper's call, `e` is the helper's: only where the call has one too.
                match site.origin {
                    _ if !site.path.uses_error => None,
                    Origin::HelperCall { .. } => crate::fix::in_scope_at_site(cx.model, site, template),
                    _ => Some(template),
                }
            })
            .unwrap_or_else(|| crate::fix::PLACEHOLDER_TEXT.to_string());
        let answer = crate::fix::quoted_answer(
            dialect,
            &crate::fix::failure_answer(cx.model, site, dialect, &message),
        );
        // An output that is no `Result` has no failure answer until it is declared one.
        let help = match crate::fix::output_without_result(cx.model, site)
            .zip(dialect.output_tool_error_snippet(&message))
        {
            Some(((output, alias), answer)) => format!(
                "`{output}` has no failure answer: declare the tool `-> {alias}<{output}>` (its other answers in `Ok(..)`) and return `{answer}`"
            ),
            None => format!("return {answer}"),
        };
        let mut d = cx
            .site_diagnostic(site, "a failure is answered with a success result")
            .with_label(label)
            .with_help(help);
        // Certain inside an `Err(e) =>` arm or error closure; built from the error elsewhere, the
        // path may be a deliberate recovery.
        d.fix = cx.fix_in(site.file, || {
            crate::fix::success_to_error(cx.model, site, site.path.on_failure_path)
                .or_else(|| crate::fix::output_error(cx.model, site))
                .or_else(|| crate::fix::output_result_declaration(cx.model, site, &message))
        });
        cx.report(site.file, d);
    }
}

/// An answer that says it failed: a JSON object whose `"error"` member is set (not `null` or
/// `None`), whose `"success"` / `"ok"` member is `false`, or whose `"status"` is `"error"`; a text
/// that opens (past a marker such as "❌ **") with one of [`FAILURE_OPENINGS`]. A tool's data may hold such words (a validator's report,
/// a test run's failures), so this counts only for an early `return`.
fn says_it_failed(site: &ErrorSite) -> bool {
    let member = |key: &str| member(site, key);
    let json_failure = member("error").is_some_and(|v| v != "null" && v != "None")
        || member("success") == Some("false")
        || member("ok") == Some("false")
        || member("status") == Some("\"error\"");
    let text_failure = site.texts.first().is_some_and(|t| {
        let opening = match t {
            MessageText::Literal { value, .. } => value.as_str(),
            MessageText::Format { pieces, .. } => pieces.first().map_or("", String::as_str),
            _ => "",
        };
        // Past a marker the text opens with ("❌ **Error:** ..", "## Failed to ..").
        let opening = opening
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        FAILURE_OPENINGS.iter().any(|o| opening.starts_with(o)) || rejects_value(&opening)
    });
    json_failure || (site.answer_members.is_empty() && text_failure)
}

/// How a text that says the call failed opens ("Error: ..", "Failed to read ..", "Could not
/// find .."). Words inside a text do not count: a tool's data may name errors.
const FAILURE_OPENINGS: &[&str] = &[
    "error:",
    "error -",
    "failed to ",
    "failed:",
    "could not ",
    "couldn't ",
    "unable to ",
    "cannot ",
    "can't ",
    // `<error>..</error>`, past the `<` the marker trim takes.
    "error>",
];

/// A rejection of a value the tool was given, named before a colon: "unknown source agent:
/// ..", "invalid date: ..", "unsupported format: ..". The colon sets the reason apart from the
/// data, so "Unknown" as a value ("Unknown artist") does not count.
fn rejects_value(opening: &str) -> bool {
    let Some((head, _)) = opening.split_once(':') else {
        return false;
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    (2..=4).contains(&words.len())
        && REJECTING.contains(&words[0])
        && words[1..]
            .iter()
            .all(|w| w.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-'))
}

/// Words that open the rejection [`rejects_value`] reads.
const REJECTING: &[&str] = &["unknown", "invalid", "unsupported", "unrecognized", "unrecognised"];

/// Serialising the server's own value failed and the fallback, a literal, says nothing of a
/// failure (`to_string_pretty(&res).unwrap_or_else(|_| "{}".into())`, "Spawned successfully."):
/// a placeholder for a server fault, not a failure told as success. A fallback that says it
/// failed (`{"error": "serialization failed"}`, "Error formatting rates") is still reported.
fn quiet_server_fault(site: &ErrorSite) -> bool {
    site.path.server_fault
        && !site.path.uses_error
        && !says_it_failed(site)
        && !site.texts.is_empty()
        && site.texts.iter().all(|t| match t {
            MessageText::Literal { value, .. } => {
                let text = value.to_lowercase();
                !["error", "fail", "unable", "could not", "cannot"]
                    .iter()
                    .any(|w| text.contains(w))
            }
            _ => false,
        })
}

/// The value of a JSON answer's top-level member, as written.
fn member<'s>(site: &'s ErrorSite, key: &str) -> Option<&'s str> {
    site.answer_members
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}
