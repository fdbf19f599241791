use std::collections::HashMap;

use crate::model::site::{Channel, ErrorSite, Origin};
use crate::model::FileId;
use crate::source::Span;
use crate::sdk::Dialect;
use crate::text::MessageText;
use crate::context::LintContext;

declare_lint! {
    /// ### What it does
    /// Finds tool code where a lookup on a handle, session or id misses (the `None` or `Err` branch of a
    /// `get(..)` or `remove(..)`, the `Ok(None)` of a service asked for an id) and the tool answers with
    /// a success result, also through a local or a helper's returned text, for example
    /// `CallToolResult::success(..)` saying "session not found", with `isError` unset.
    ///
    /// ### Why is this bad?
    /// With `isError` unset, the host records a successful call and the model may take the text for data.
    /// A model that is not clearly told that its handle expired keeps using it instead of creating a new
    /// one. Since 2026-07-28 removed protocol sessions (SEP-2567), state lives in handles that tools hand
    /// out, and an expired handle is an everyday event, not an edge case.
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::*, tool, tool_router, handler::server::wrapper::Parameters};
    ///
    /// #[tool_router]
    /// impl Shop {
    ///     #[tool(description = "Show the items in a basket")]
    ///     async fn show_basket(&self, Parameters(args): Parameters<BasketId>) -> Result<CallToolResult, McpError> {
    ///         match self.baskets.get(&args.basket_id) {
    ///             Some(basket) => Ok(CallToolResult::success(vec![ContentBlock::text(basket.summary())])),
    ///             None => Ok(CallToolResult::success(vec![ContentBlock::text("basket not found")])),
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// match self.baskets.get(&args.basket_id) {
    ///     Some(basket) => Ok(CallToolResult::success(vec![ContentBlock::text(basket.summary())])),
    ///     None => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
    ///         "basket {} has expired or never existed; call create_basket to start a new one",
    ///         args.basket_id
    ///     ))])),
    /// }
    /// ```
    ///
    /// ### Fix safety
    /// `--fix --unsafe-fixes` turns `CallToolResult::success(..)` into `CallToolResult::error(..)`
    /// with the same content, so the result carries `isError: true`. It is MaybeIncorrect: a miss
    /// can be an answer the tool gives on purpose, and the text may need to say how to get a new
    /// handle. Blank content gets a placeholder (HasPlaceholders, never applied). Text returned as
    /// `Ok(String)` gets no fix.
    ///
    /// ### Known problems
    /// - A crate enum's variant built only on a lookup's miss (`let Some(l) = self.leases.get_mut(id)
    ///   else { return Ok(Renewal::Unknown) }`) is that miss: the tool's arm for it
    ///   (`Renewal::Unknown => ..`) answers it. A variant also built elsewhere is not.
    /// - A lookup is a `get` / `remove`-like call on a map or set; one that resolves to a crate fn
    ///   (an HTTP client's `self.client.get::<Page>(&url)`) is that fn, and a lookup only when the
    ///   fn's value is a lookup of its argument. A search for the item equal to a key
    ///   (`names.iter().position(|n| *n == name)`, `.iter().find(|t| t.id == id)`) is a lookup of
    ///   that key, and so is a crate fn whose value is one (`find_sheet(&wb, &input.sheet_name)`).
    ///   A miss is the `None` of such a lookup, or the `then` block of a condition that tests it
    ///   (`if sessions.get(&id).is_none()`, `if !jobs.contains_key(&job_id)`), also when the
    ///   lookup is first held in a local (`let hit = self.items.get(&id); if let Some(v) = hit`).
    ///   A service's `Result<Option<T>>` unwrapped by `?` (`match client.instrument(id).await?`)
    ///   misses on its `None`, as on `Ok(None)`; those and `find` searches count only when the
    ///   text says the thing is not there ("not found", `"not_found"`, "No instrument found with
    ///   ID 3"; not "No account found with title ..": a search by title that finds nothing can be
    ///   the answer).
    /// - A heuristic: the lint cannot tell a handle lookup from an optional lookup whose miss is a valid
    ///   answer ("no saved settings yet", a search without hits). Suppress those with a reason.
    /// - Only lookups written in the tool (or a helper it calls) are seen; a miss reported by another
    ///   crate's API as a success value is not.
    /// - A miss answered through a crate helper that builds the JSON (`error_response("not_found",
    ///   format!("Snapshot '{name}' not found"))`) is read by the texts the call hands it, or, when
    ///   it hands none, by those the helper hands the one that builds the JSON (`fn sheet_err(name:
    ///   &str) -> String { error(&format!("Sheet '{}' not found", name)) }`). The same for a
    ///   helper that builds a success result from the text it is handed (`fn text(t: String) ->
    ///   CallToolResult { CallToolResult::success(vec![ContentBlock::text(t)]) }` called as
    ///   `None => Ok(text(format!("build {} not found", id)))`). A miss
    ///   this lint does not take (no handle, no "not found" text) is MCP009's when the answer says
    ///   it failed (`{"error": ..}`); one finding per miss.
    ///
    /// ### Spec
    /// - `docs/specification/2026-07-28/server/tools.mdx`, "Stateful Tools" (lines 683–736), which is
    ///   explicitly non-normative ("This section is non-normative guidance for tool design."): "A call
    ///   against an expired or unknown handle should return a tool execution error that says so, so the
    ///   model can recover by creating a new one."
    /// - `seps/2567-sessionless-mcp.md` ~148: "When a tool receives a handle for state that has expired or
    ///   been destroyed, the error should say so — "basket `bsk_a1b2c3` has expired" rather than "invalid
    ///   argument"."
    /// - On `CallToolResult.isError` (`schema/2026-07-28/schema.ts` 1824–1837, every version): "If not
    ///   set, this is assumed to be false (the call was successful)." The lint applies to every target.
    ///
    /// ### SDK notes
    /// - rmcp has no handle or session API for tools in any generation; handles are your own maps, which
    ///   is what the lint looks at.
    /// - `CallToolResult::success(..)` never sets `isError` to true. In a `#[tool]` fn, an `Ok(String)` or
    ///   other `Ok` value is a success result as well; return `Err(String)` (rmcp 0.1–3.x) or
    ///   `Ok(CallToolResult::error(..))` for the miss.
    /// - `ContentBlock::text` is rmcp 2.x–3.x; before 2.0 write `Content::text`.
    /// - No other SDK has a handle API either; what differs is the success form: pmcp `Ok(Value)` from a
    ///   tool, turbomcp `Ok(String)` from a `#[tool]` fn or `ToolResult::text(..)`, rust-mcp-sdk
    ///   `CallToolResult::text_content(..)`, mcp-attr `Ok(String)` and `vec![..].into()`, ultrafast-mcp
    ///   `ToolResult { is_error: None, .. }`, hand-rolled a `"result"` without `"isError": true`.
    /// - The miss belongs in the SDK's `isError` form: pmcp `Err(Error::tool_rejected(..))`, turbomcp
    ///   `Err(McpError::..)` in a `#[tool]` fn, rust-mcp-sdk `Err(CallToolError::from_message(..))`,
    ///   mcp-attr and ultrafast-mcp the result literal with `is_error: Some(true)`.
    pub LINT,
    name: "stale_handle_as_success",
    code: "MCP008",
    group: Suspicious,
    level: Warn,
    summary: "a lookup miss on a handle or id is answered with a success result",
    since: "0.1.0",
    check: Some(check),
}

fn check(cx: &mut LintContext<'_>) {
    let handed = HandedTexts::of(&cx.model.sites);
    for site in &cx.model.sites {
        let Some(dialect) = cx.model.dialect_of(site.file) else {
            continue;
        };
        if site.is_text_argument()
            || site.channel != Channel::ToolSuccess
            || !claims(site, &handed)
            || !site.context.is_tool()
        {
            continue;
        }
        let mut d = cx
            .site_diagnostic(
                site,
                "a lookup miss on a handle or id is answered with a success result",
            )
            .with_label(
                "the model takes this as success and keeps using a handle that does not exist",
            )
            .with_help(format!(
                "return {}",
                crate::fix::quoted_answer(dialect, &miss_answer(cx.model, site, dialect))
            ));
        // A miss can be a normal outcome the tool reports on purpose: never certain.
        d.fix = cx.fix_in(site.file, || crate::fix::success_to_error(cx.model, site, false));
        cx.report(site.file, d);
    }
}

/// The isError answer for the miss: the site's own text when the source holds it, else a
/// template; the SDK's answer for a tool whose `Ok` is its output where that differs.
fn miss_answer(model: &crate::model::Model, site: &ErrorSite, dialect: &dyn Dialect) -> String {
    let message = match crate::fix::message_for_fix(model, site) {
        m if m == crate::fix::PLACEHOLDER_TEXT => {
            "\"<what was looked up> does not exist or has expired; <how to get a current one>\""
                .to_string()
        }
        m => m,
    };
    crate::fix::failure_answer(model, site, dialect, &message)
}

/// A lookup's miss on a handle or id, or one whose text says the thing is not there: this
/// lint's, not MCP009's.
pub(crate) fn claims(site: &ErrorSite, handed: &HandedTexts<'_>) -> bool {
    site.path.lookup_miss
        && (site.path.lookup_names.as_deref().is_some_and(names_a_handle)
            || says_missing(site.texts.iter().chain(handed.at(site))))
}

/// The texts each call hands a helper that builds the answer with them (`text(format!("build
/// {id} not found"))`), kept by the model as text-argument sites at the call: what the helper's
/// answer, copied to that call, says there.
pub(crate) struct HandedTexts<'m>(HashMap<(FileId, Span), Vec<&'m MessageText>>);

impl<'m> HandedTexts<'m> {
    pub(crate) fn of(sites: &'m [ErrorSite]) -> Self {
        let mut by_call: HashMap<(FileId, Span), Vec<&'m MessageText>> = HashMap::new();
        for s in sites.iter().filter(|s| s.is_text_argument()) {
            by_call.entry((s.file, s.span)).or_default().extend(&s.texts);
        }
        HandedTexts(by_call)
    }

    /// For a helper's answer copied to a call, the texts that call hands it.
    fn at(&self, site: &ErrorSite) -> impl Iterator<Item = &'m MessageText> + '_ {
        let call = matches!(site.origin, Origin::HelperCall { .. })
            .then(|| self.0.get(&(site.file, site.span)))
            .flatten();
        call.into_iter().flatten().copied()
    }
}

/// Words in a key or a store's name that make a lookup a handle lookup (`sessions.get(&id)`,
/// `uploads.remove(upload_id)`), not a search by name.
const HANDLE_WORDS: &[&str] = &[
    "id",
    "handle",
    "session",
    "token",
    "ticket",
    "job",
    "task",
    "upload",
    "cursor",
    "lease",
    "basket",
    "cart",
    "conn",
    "connection",
    "draft",
    "stream",
    "subscription",
    "run",
    "tx",
    "transaction",
    "browser",
    "page",
    "tab",
    "process",
    "pid",
];

/// Whether a lookup's store and key (as token text) name a handle (`sessions.get(&id)`), not
/// a search by name.
fn names_a_handle(tokens: &str) -> bool {
    tokens
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .flat_map(|w| w.split('_'))
        .any(|w| {
            HANDLE_WORDS
                .iter()
                .any(|h| w == *h || w.strip_suffix('s') == Some(h))
        })
}

/// Phrases by which an error's text says the thing looked up is not there.
const MISSING: &[&str] = &[
    "not found",
    "expired",
    "unknown",
    "no such",
    "does not exist",
    "doesn't exist",
    "invalid",
    "missing",
    "no longer",
    "not exist",
    "closed",
];

/// Whether a site's text says the thing looked up is not there ("not found", "expired",
/// `"status": "not_found"`, "No instrument found with ID 3").
fn says_missing<'t>(mut texts: impl Iterator<Item = &'t MessageText>) -> bool {
    texts.any(|t| {
        let known = t.known_lowercase().replace('_', " ");
        MISSING.iter().any(|m| known.contains(m)) || says_none_found_for_id(&known)
    })
}

/// "No instrument found with ID 3", "no node found for id=n1", "No hold with id h7 found":
/// nothing found for an id. Not "No account found with title 'x'": a search by title or name
/// that finds nothing can be the answer.
fn says_none_found_for_id(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let is_id = |w: &&str| matches!(*w, "id" | "ids" | "uuid");
    words.iter().enumerate().any(|(i, w)| {
        *w == "no"
            && words[i + 1..].iter().take(6).position(|w| *w == "found").is_some_and(|f| {
                let found = i + 1 + f;
                words[i + 1..found].iter().any(is_id)
                    || words[found + 1..].iter().take(3).any(is_id)
            })
    })
}
