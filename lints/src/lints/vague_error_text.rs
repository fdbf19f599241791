use crate::model::site::Channel;
use crate::text::{is_vague, MessageText};
use crate::context::LintContext;

declare_lint! {
    /// ### What it does
    /// Finds error text that says neither what failed nor what valid input looks like, in the text of an
    /// `isError` result or the message of a protocol error: "error", "failed", "something went wrong",
    /// "an error occurred", "internal error", "invalid input", "operation failed" and similar phrases,
    /// alone or followed by filler such as "Please try again." or "Check the server logs for details.".
    /// Beyond the phrase list, where a tool's failure is told: a rejection that names neither the value
    /// given nor what would be valid ("Invalid upsert mode", "Unknown operation", "Format not
    /// supported": a rejection word and at most three plain words; "Command not allowed", a refusal
    /// of a one-word name), and a snake_case code as a protocol
    /// error's whole message ("invalid_path", with the details only in `data`).
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
    /// - Text the source does not show (a variable, a helper's return value) is not reported, and a
    ///   `format!` with any placeholder counts as specific, with one exception: an answer whose whole
    ///   text is the Display of the error a crate fn returned (`Err(e) =>
    ///   ContentBlock::text(e.to_string())`, `format!("tool error: {e}")`, `{e:#}`) shows that fn's
    ///   literal messages whole (`bail!("Invalid documentId")`, `ensure!(.., "..")`, `anyhow!("..")`,
    ///   `Err("..".to_string())`, `.context("..")`, also through fns that pass the error on with `?`,
    ///   and when the answer is the crate's own isError helper handed that text:
    ///   `Err(e) => Ok(tool_error(format!("create failed: {e}")))`; the rejection shape counts
    ///   there only in a fn that takes inputs besides `self`: one that takes none rejects what the
    ///   server read, "unexpected response to GetInfo", not a value the model gave);
    ///   a vague one is reported at the literal, with the answers attached. Under `{e:#}` a
    ///   `.context` on a `Result` is followed by its cause and is not whole. Such a Display as the
    ///   whole value of a `json!` text member (`json!({"error": format!("{e:#}")})`) counts too, and
    ///   so does the error of a helper's Fn-typed parameter (`match op(storage) { Err(e) => .. }` in
    ///   `fn run(&self, op: impl FnOnce(Storage) -> Result<Value>)`): it is the error of the crate fn
    ///   the closure each tool hands it calls (`self.run(move |storage| storage.get(&id))`, the
    ///   untyped `storage` having the type the bound names). Not followed yet: a closure's error
    ///   handed back through `spawn_blocking` (`Ok(Err(e))` over the task's handle), because the
    ///   rejection shape cannot yet tell a rejected argument ("Invalid documentId") from a check of
    ///   the server's stored data ("Invalid surface children"), which a task's closure often makes
    ///   too. A crate `const` of a
    ///   string literal given as a protocol error's message is read as that literal (reported where
    ///   it is named); one given to a tool result's content is not read yet.
    /// - The rejection shape is English and short on purpose: "Invalid email format" is reported, "Invalid
    ///   email format (must contain @)" and "Division by zero not allowed" (a rule) are not. So is
    ///   the miss "Book not found" in a tool's answer, but not where the branch tests only the
    ///   server's own state ("Client not found" when `self.client` is unset), nor in a crate fn's
    ///   message a tool shows whole. A rejected
    ///   credential ("Invalid API key", "invalid token") is not reported: naming its value would leak it.
    ///   A snake_case code inside a tool result's JSON is not reported, since its siblings may carry the
    ///   details.
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
    ///   message, and its `bail!()` and `bail_public!(code)` given none (the code's "Internal error",
    ///   "Invalid params").
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
    let mut reported = std::collections::HashSet::new();
    for site in &cx.model.sites {
        if site.channel == Channel::ToolSuccess || (site.is_delegated() && !site.is_text_argument())
        {
            continue;
        }
        for text in &site.texts {
            let MessageText::Literal { value, span } = text else {
                continue;
            };
            // The shape rules are about what the model reads of a tool's failure: a bare code
            // only as a protocol error's whole message (in a tool result's JSON it may sit beside
            // the details).
            // "Book not found" names neither the book asked for nor how to find one; the miss
            // of the server's own state ("Client not found") is no rejection of an argument.
            let names_nothing = site.context.is_tool()
                && (bare_rejection(value)
                    || (bare_miss(value) && !site.path.server_state)
                    || (site.channel == Channel::Protocol && bare_code(value)));
            if !(is_vague(value, extra) || names_nothing) {
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
            d.fix = cx.fix_in(site.file, || Some(crate::fix::specific_text(cx.model, site, *span)));
            cx.report(site.file, d);
            reported.insert((site.file, *span));
        }
    }
    // A crate fn's literal message that a tool's answer shows whole (`Err(e) =>
    // ContentBlock::text(e.to_string())` over `bail!("Invalid documentId")`): reported at the
    // literal, where the words are chosen, with the answers attached.
    for shown in &cx.model.shown_texts {
        if reported.contains(&(shown.file, shown.span)) || names_unknown_tool(&shown.value) {
            continue;
        }
        // A rejection in a fn that takes no inputs rejects nothing the model gave: the
        // server's own state, or what it read ("unexpected response to GetInfo").
        let names_nothing = (shown.takes_inputs && bare_rejection(&shown.value))
            || (shown.channel == Channel::Protocol && bare_code(&shown.value));
        if !(is_vague(&shown.value, extra) || names_nothing) {
            continue;
        }
        let audience = match shown.channel {
            Channel::Protocol => "a protocol error",
            _ => "a tool result",
        };
        let mut d = cx
            .related_diagnostic(
                shown.span,
                format!("vague error text {:?}", shown.value),
                &shown.related,
            )
            .with_label(format!(
                "{audience} shows this message whole: it says neither what failed nor what to change"
            ))
            .with_help(
                "name the value and the rule here, e.g. `bail!(\"documentId {id:?} must be 1..128 ASCII letters or digits\")`",
            );
        d.fix = Some(crate::fix::placeholder_text(shown.span));
        cx.report(shown.file, d);
    }
}

/// "Unknown tool", "Tool not found": the answer to a name no tool has, which MCP007 and MCP011
/// judge (a message a crate fn returns does not say where it was reached from).
fn names_unknown_tool(text: &str) -> bool {
    let words = plain_words(text).unwrap_or_default();
    words.iter().any(|w| w == "tool")
        && (words.first().is_some_and(|w| w == "unknown") || text.to_lowercase().contains("not found"))
}

/// Words that open a rejection ("Invalid upsert mode", "Unknown operation").
const REJECTING: &[&str] = &[
    "invalid",
    "unknown",
    "unsupported",
    "unrecognized",
    "unrecognised",
    "unexpected",
    "illegal",
    "malformed",
    "bad",
    "wrong",
];

/// Endings of the same rejection told the other way round ("Mode not supported").
const REJECTED: &[&[&str]] = &[
    &["not", "supported"],
    &["not", "recognized"],
    &["not", "recognised"],
    &["not", "valid"],
    &["is", "invalid"],
    &["is", "not", "valid"],
    &["is", "not", "supported"],
    &["is", "unsupported"],
];

/// Endings of a refusal ("Command not allowed"): vague only after a one-word name ("Path
/// traversal not allowed", "Division by zero not allowed" name the rule).
const REFUSED: &[&[&str]] = &[
    &["not", "allowed"],
    &["is", "not", "allowed"],
    &["not", "permitted"],
    &["is", "not", "permitted"],
];

/// What is rejected when a credential is: naming its value would leak it, and no argument the
/// model can change is at stake.
const SECRETS: &[&str] = &[
    "key",
    "token",
    "password",
    "credential",
    "credentials",
    "secret",
    "signature",
    "auth",
    "authorization",
];

/// The words of a text with nothing in it but letters, `_` and `-` (no value, list or detail),
/// lowercased; `None` for any other text.
fn plain_words(text: &str) -> Option<Vec<String>> {
    let text = text.trim().trim_end_matches(['.', '!']);
    let plain = |w: &str| w.chars().all(|c| c.is_alphabetic() || c == '_' || c == '-');
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    (!words.is_empty() && text.split_whitespace().all(plain)).then_some(words)
}

/// A rejection word and a short name of what was rejected, with neither the value given nor
/// what would be valid: "Invalid upsert mode", "Unknown operation", "Format not supported". Any
/// quote, colon, digit or comma (a value, the valid ones, a detail) makes it specific.
fn bare_rejection(text: &str) -> bool {
    let Some(words) = plain_words(text) else {
        return false;
    };
    if REJECTING.contains(&words[0].as_str()) && short_name(&words[1..]) {
        return true;
    }
    REJECTED
        .iter()
        .any(|ending| name_before(&words, ending).is_some_and(short_name))
        || REFUSED.iter().any(|ending| {
            name_before(&words, ending).is_some_and(|name| name.len() == 1 && short_name(name))
        })
}

/// A short name and "not found", with nothing of what was looked for: "Book not found".
fn bare_miss(text: &str) -> bool {
    plain_words(text).is_some_and(|words| {
        name_before(&words, &["not", "found"]).is_some_and(short_name)
    })
}

/// The words before `ending` when the text ends with it and has words before it.
fn name_before<'w>(words: &'w [String], ending: &[&str]) -> Option<&'w [String]> {
    let at = words.len().checked_sub(ending.len()).filter(|at| *at > 0)?;
    words[at..]
        .iter()
        .zip(ending)
        .all(|(w, e)| w == e)
        .then(|| &words[..at])
}

/// One to three words naming what was rejected, none of them a credential.
fn short_name(name: &[String]) -> bool {
    (1..=3).contains(&name.len()) && !name.iter().any(|w| SECRETS.contains(&w.as_str()))
}

/// A snake_case code as the whole text: "invalid_path", "serialization_error".
fn bare_code(text: &str) -> bool {
    let text = text.trim();
    matches!(plain_words(text).as_deref(), Some([_]))
        && text.contains('_')
        && !text.starts_with('_')
        && !text.ends_with('_')
        && !text.chars().any(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::{bare_code, bare_rejection};

    fn names_nothing(text: &str) -> bool {
        bare_rejection(text) || bare_code(text)
    }

    #[test]
    fn a_bare_rejection_names_nothing() {
        for text in [
            "Invalid upsert mode",
            "Unknown operation",
            "unsupported format.",
            "invalid event_type",
            "Mode not supported",
            "output format is not supported",
            "Command not allowed",
            "operation is not permitted",
            "invalid_path",
            "serialization_error",
        ] {
            assert!(names_nothing(text), "{text:?}");
        }
    }

    #[test]
    fn a_bare_miss_names_nothing() {
        for text in ["Book not found", "Resource not found.", "user id not found"] {
            assert!(super::bare_miss(text), "{text:?}");
        }
        for text in ["not found", "Book 'dune' not found", "API key not found", "no such book"] {
            assert!(!super::bare_miss(text), "{text:?}");
        }
    }

    #[test]
    fn a_value_a_rule_or_a_credential_is_specific() {
        for text in [
            "Unknown tool: search",
            "Invalid mode 'fast': expected append or replace",
            "invalid date format, expected YYYY-MM-DD",
            "Invalid API key",
            "invalid token",
            "unknown operation requested by the client for this account",
            "Invalid port 99999",
            "Division by zero not allowed",
            "Path traversal not allowed",
            "InvalidMode",
            "Invalid",
            "not supported",
            "The_Thing",
            "timeout",
        ] {
            assert!(!names_nothing(text), "{text:?}");
        }
    }
}
