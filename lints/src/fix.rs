//! Fixes: the text edits that rewrite a finding, built from the syntax around its site.
//!
//! Lints call the builders below; each returns `None` when the site is not in a shape it can
//! rewrite. The SDK's own words come from the dialect ([`Dialect::tool_error_snippet`],
//! [`Dialect::unknown_tool_snippet`], [`Dialect::fix_vocabulary`]); this module decides where
//! the text goes, which names the file already has for the SDK's types (adding a `use` when one
//! is missing), and how sure the rewrite is (rustc's [`Applicability`]).
//!
//! Edits are byte ranges of the file as it is: the text around them is kept as written.

use std::collections::{BTreeMap, HashSet};

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, ImplItem, Item, TraitItem};

use crate::diagnostic::{Applicability, Edit, Fix};
use crate::index::{collect_use, FileImports};
use crate::layout;
use crate::model::site::{ErrorSite, Origin, SiteContext, VariantTag};
use crate::model::{Model, CONVERSION_CALLS};
use crate::sdk::{Dialect, FixVocabulary, SdkName, ToolErrorForm};
use crate::source::Span;
use crate::syntax::{last_segment, tail_expr, type_arguments, BlockExtents};
use crate::text::MessageText;
use crate::unused_imports;

/// Where the text of an error goes in a suggestion that cannot know it.
pub const PLACEHOLDER_TEXT: &str = "\"<what failed and what to do instead>\"";
/// The replacement a vague message is shown with.
pub const VAGUE_PLACEHOLDER: &str = "\"<what failed and what valid input looks like>\"";
/// Stands for the message while a snippet's names are rewritten (an identifier no snippet uses).
const MESSAGE_MARK: &str = "__mcp_lint_message__";

/// A site's message as it should appear in a suggested fix: the user's own expression, else
/// its literal text, else [`PLACEHOLDER_TEXT`]. At a call of a helper that builds the error
/// (reported at the tool's call, [`Origin::HelperCall`]) the helper's text is kept only when
/// every local it names is in scope at the call; else the text the call's own scope holds (the
/// error value there), else the placeholder.
pub fn message_for_fix(model: &Model, site: &ErrorSite) -> String {
    let message = match (&site.message_source, site.texts.first()) {
        (Some(src), _) => src.clone(),
        (None, Some(MessageText::Literal { value, .. })) if !value.trim().is_empty() => {
            format!("{value:?}")
        }
        // `.map_err(Error::invalid_params)`: what failed and the error, as the fix writes it.
        _ if matches!(site.origin, Origin::Constructor(_)) => {
            return FixCx::new(model, site.span, site.file)
                .filter(|cx| cx.find(&[]).target.is_some_and(|t| cx.is_point_free(t)))
                .and_then(|cx| cx.error_in_scope())
                .map_or_else(|| PLACEHOLDER_TEXT.to_string(), |scope| scope.message());
        }
        _ => return PLACEHOLDER_TEXT.to_string(),
    };
    if !matches!(site.origin, Origin::HelperCall { .. }) {
        return message;
    }
    in_scope_at_site(model, site, message).unwrap_or_else(|| PLACEHOLDER_TEXT.to_string())
}

/// `Ok(result)` as `Ok(wrapper(result))` where the body's success wraps the tool result.
fn wrap_ok(snippet: String, wrapper: Option<&str>) -> String {
    match (wrapper, snippet.strip_prefix("Ok(")) {
        (Some(w), Some(rest)) => format!("Ok({w}({rest})"),
        _ => snippet,
    }
}

/// The help of a protocol error that should be an isError result: return the dialect's tool
/// error built with the site's message, `why`. In a conversion into the protocol error (see
/// [`Model::in_conversion`]) that no `fix` rewrites whole, no tool result can stand: it goes
/// where the tool meets the failure.
pub fn tool_error_help(
    model: &Model,
    site: &ErrorSite,
    dialect: &dyn Dialect,
    fix: Option<&Fix>,
    why: &str,
) -> String {
    let snippet = dialect.tool_error_snippet(&message_for_fix(model, site), false);
    let snippet = wrap_ok(snippet, model.ok_wrapper(site.body));
    let snippet = quoted_answer(dialect, &snippet);
    if fix.is_some() || !model.in_conversion(site) {
        return format!("return {snippet} {why}");
    }
    let quoted = |vs: &[String]| format!("`{}`", vs.join("`, `"));
    let failure = match &site.variant {
        Some(VariantTag::Is(_, vs)) if !vs.is_empty() => quoted(vs),
        Some(VariantTag::Otherwise(_, vs)) if !vs.is_empty() => {
            format!("a variant other than {}", quoted(vs))
        }
        _ => "this error".to_string(),
    };
    format!(
        "this conversion can only build the protocol error, so answer {failure} before it is converted: where the tool meets it, return {snippet} {why}"
    )
}

/// `answer` in a code span, followed by the version it needs when the version in use cannot
/// write it ([`Dialect::tool_error_caveat`]).
pub fn quoted_answer(dialect: &dyn Dialect, answer: &str) -> String {
    match dialect.tool_error_caveat() {
        Some(caveat) => format!("`{answer}` ({caveat})"),
        None => format!("`{answer}`"),
    }
}

/// The help for an unknown-tool answer: return the SDK's unknown-tool protocol error for the
/// name in `binding`, followed by where it goes when the SDK says
/// ([`Dialect::unknown_tool_caveat`]); only that when there is no code to write.
pub fn unknown_tool_help(dialect: &dyn Dialect, binding: &str) -> String {
    let snippet = dialect.unknown_tool_snippet(binding);
    match dialect.unknown_tool_caveat() {
        Some(caveat) if snippet.is_empty() => caveat.to_string(),
        Some(caveat) => format!("return `{snippet}` {caveat}"),
        None => format!("return `{snippet}`"),
    }
}

/// The isError answer carrying `message` for a tool's failure or miss answered as success: the
/// SDK's answer for a tool whose `Ok` is its output where that differs, else its tool result.
pub fn failure_answer(
    model: &Model,
    site: &ErrorSite,
    dialect: &dyn Dialect,
    message: &str,
) -> String {
    answers_with_output(model, site)
        .then(|| dialect.output_tool_error_snippet(message))
        .flatten()
        .unwrap_or_else(|| dialect.tool_error_snippet(message, false))
}

/// `message` (text read elsewhere, such as a helper's) when every local it names is in scope
/// at the site; else the message the site's own scope holds ([`message_in_scope`]); `None`
/// when neither.
pub fn in_scope_at_site(model: &Model, site: &ErrorSite, message: String) -> Option<String> {
    let cx = FixCx::new(model, site.span, site.file)?;
    let locals = locals_at(cx.located.sig, cx.located.body, &cx.extents, cx.target);
    let names = message_names(&message);
    if names.is_some_and(|names| names.iter().all(|n| locals.contains(n))) {
        return Some(message);
    }
    cx.error_in_scope().map(|s| s.message())
}

/// The name a point-free constructor's error gets in the closure a fix writes for it.
const POINT_FREE_BINDING: &str = "e";

/// MCP001/MCP006: `Err(<protocol error>)` returned by a tool, or `.map_err(|e| <protocol
/// error>)?` / `.ok_or_else(|| ..)?` / `.ok_or(..)?` in it, rewritten to return the SDK's isError
/// result with the same message.
pub fn tool_error_result(model: &Model, site: &ErrorSite) -> Option<Fix> {
    let SiteContext::Tool { helper, .. } = &site.context else {
        return None;
    };
    // The same answer serves the unknown tool, which must stay a protocol error.
    if site.answers_unknown_tool {
        return None;
    }
    if !matches!(site.origin, Origin::Constructor(_)) {
        return None;
    }
    let cx = FixCx::new(model, site.span, site.file)?;
    if cx.vocab.tool_error == ToolErrorForm::JsonMember {
        return json_member_fix(&cx);
    }
    // A helper only tools reach: rewritten with its uses, unless the SDK's isError value is the
    // error type itself (then the constructor is replaced where it stands, as in a tool).
    if helper.is_some() && cx.vocab.tool_error == ToolErrorForm::OkResult {
        return helper_error_result(model, site);
    }
    let found = cx.find(&[]);
    // `.map_err(Error::invalid_params)`: only an error value can stand in its place (as a
    // closure); a rewrite into a `match` would need a binding the source does not have.
    let point_free = found.target.is_some_and(|t| cx.is_point_free(t));
    if point_free && cx.vocab.tool_error != ToolErrorForm::ErrorValue {
        return None;
    }
    let scope = cx.error_in_scope();
    let (message, mut applicability) = match (&site.message_source, &scope) {
        // `e.to_string()`: say what failed, with the error.
        (Some(m), Some(scope)) if scope.is_only_the_error(m) => {
            (scope.message(), Applicability::MaybeIncorrect)
        }
        (Some(m), _) if cx.vocab.message_drops_into => {
            (without_into(m), Applicability::MachineApplicable)
        }
        (Some(m), _) => (m.clone(), Applicability::MachineApplicable),
        (None, Some(scope)) => (scope.message(), Applicability::MaybeIncorrect),
        (None, None) => (PLACEHOLDER_TEXT.to_string(), Applicability::HasPlaceholders),
    };
    // `Some(data)` is dropped: the isError result has no place for it.
    if found.target.is_some_and(carries_data) {
        applicability = applicability.max_risk(Applicability::MaybeIncorrect);
    }
    if cx.vocab.tool_error == ToolErrorForm::ErrorValue {
        return error_value_fix(&cx, found.target?, &message, applicability);
    }
    let returns = cx.returns()?;
    let wrapped = match returns.ok_kind? {
        OkKind::Result => false,
        OkKind::Wrapped => true,
    };
    let mut names = cx.names(&returns);
    let mut wanted = vec![&cx.vocab.result, &cx.vocab.content];
    wanted.extend(&cx.vocab.others);
    let snippet = code_snippet(cx.dialect.tool_error_snippet(MESSAGE_MARK, wrapped))?;
    let snippet = cx.snippet(&snippet, &mut names, &wanted);
    let snippet = snippet.replace(MESSAGE_MARK, &message);
    let mut edits = Vec::new();
    let returned = returned_ranges(cx.located.body, &cx.extents, cx.target);
    if let Some((call, false)) = found.err_call {
        if !returned.contains(&range(call)) {
            return None;
        }
        edits.push(cx.replace_laid_out(range(call), &snippet));
    } else if let Some((form, false)) = found.try_form {
        if !form.evident(&cx) {
            applicability = applicability.max_risk(Applicability::MaybeIncorrect);
        }
        edits.extend(cx.match_edits(&form, &snippet));
    } else {
        return None;
    }
    edits.extend(names.use_edit(&cx));
    Some(cx.finish(Fix {
        message: "return the failure as an isError tool result the model can read".to_string(),
        applicability,
        edits,
    }))
}

/// An SDK whose isError result is an error value of the protocol error's own type
/// ([`ToolErrorForm::ErrorValue`]): the constructor at the site is replaced where it stands
/// (`Error::internal(msg)` → `Error::tool_rejected(msg, None)`), so `Err(..)`, `map_err` and
/// `ok_or_else` around it stay as written.
fn error_value_fix(
    cx: &FixCx<'_>,
    target: &Expr,
    message: &str,
    applicability: Applicability,
) -> Option<Fix> {
    let snippet = code_snippet(cx.dialect.tool_error_snippet(MESSAGE_MARK, false))?;
    let Ok(Expr::Call(err)) = syn::parse_str::<Expr>(&snippet) else {
        return None;
    };
    let value = match (&*err.func, err.args.first()) {
        (Expr::Path(p), Some(value)) if p.path.is_ident("Err") && err.args.len() == 1 => {
            let (start, end) = range(value);
            snippet.get(start..end)?.to_string()
        }
        _ => return None,
    };
    let (value, names) = cx.error_snippet(&value, message);
    let mut applicability = applicability;
    let edit = if cx.is_point_free(target) {
        // Point-free: the constructor took the error itself; the closure names it.
        applicability = applicability.max_risk(Applicability::MaybeIncorrect);
        cx.point_free_closure(range(target), &value)
    } else {
        cx.replace_in_closure_laid_out(range(target), &value)
    };
    let mut edits = vec![edit];
    edits.extend(names.use_edit(cx));
    Some(cx.finish(Fix {
        message: "return the failure as an isError tool result the model can read".to_string(),
        applicability,
        edits,
    }))
}

/// A hand-rolled server's response with an `"error"` member ([`ToolErrorForm::JsonMember`]):
/// the member replaced by `"result": { "content": [{ "type": "text", "text": <message> }],
/// "isError": true }`, the rest of the response (`"jsonrpc"`, `"id"`) kept. Only when the crate's
/// own tool results are written that way (a `json!` with a `"result"` member holding
/// `"content"`): else the server's result shape cannot be told. A bare error object (`json!({
/// "code": .., "message": .. })`, wrapped in a response elsewhere) gets no fix.
fn json_member_fix(cx: &FixCx<'_>) -> Option<Fix> {
    let Expr::Macro(m) = cx.find(&[]).target? else {
        return None;
    };
    if !crate::syntax::is_json_macro(&m.mac) {
        return None;
    }
    let response = json_entries(&single_group(m.mac.tokens.clone())?)?;
    let error = response.iter().find(|e| e.key == "error")?;
    let [proc_macro2::TokenTree::Group(object)] = error.value.as_slice() else {
        return None;
    };
    let fields = json_entries(object)?;
    let message = fields.iter().find(|e| e.key == "message")?;
    let (message_start, message_end) = tokens_range(&message.value)?;
    let message = cx.text.get(message_start..message_end)?;
    let dropped = fields.iter().any(|e| {
        e.key == "data"
            && !matches!(e.value.as_slice(), [proc_macro2::TokenTree::Ident(i)] if i == "null")
    });
    if !crate_writes_tool_results(cx.model) {
        return None;
    }
    let (start, end) = (error.start, object.span().byte_range().end);
    let written = cx.text.get(object.span().byte_range())?;
    // A comment in the object would be lost (a `//` in a string is taken for one too).
    if written.contains("//") || written.contains("/*") {
        return None;
    }
    // Braces spaced as the error object's are.
    let spaced = written.contains('\n') || written.starts_with("{ ");
    let content = if spaced {
        format!("[{{ \"type\": \"text\", \"text\": {message} }}]")
    } else {
        format!("[{{\"type\": \"text\", \"text\": {message}}}]")
    };
    let one_line = if spaced {
        format!("\"result\": {{ \"content\": {content}, \"isError\": true }}")
    } else {
        format!("\"result\": {{\"content\": {content}, \"isError\": true}}")
    };
    // Broken over lines when it would make a line that fit too long (a line already longer is
    // the author's style).
    let width = |member: usize| cx.column_at(start) + member + cx.rest_of_line(end);
    let fits = width(one_line.len()) <= layout::MAX_WIDTH || width(end - start) > layout::MAX_WIDTH;
    let replacement = if written.contains('\n') || !fits {
        // One member a line, as the object was written, or under the key when it was not.
        let (inner, close) = if written.contains('\n') {
            let inner = cx.indent_at(tokens_range(&fields[0].value)?.0);
            (inner, cx.indent_at(end.saturating_sub(1)))
        } else {
            let close = cx.indent_at(start);
            (format!("{close}    "), close)
        };
        format!(
            "\"result\": {{\n{inner}\"content\": {content},\n{inner}\"isError\": true\n{close}}}"
        )
    } else {
        one_line
    };
    let applicability = if dropped {
        Applicability::MaybeIncorrect
    } else {
        Applicability::MachineApplicable
    };
    Some(cx.finish(Fix {
        message: "answer with an isError tool result the model can read".to_string(),
        applicability,
        edits: vec![cx.replace((start, end), replacement)],
    }))
}

/// One `"key": value` entry of a `json!` object.
struct JsonEntry {
    key: String,
    /// Where the key starts in the file.
    start: usize,
    value: Vec<proc_macro2::TokenTree>,
}

/// The one brace group `tokens` are (a `json!` object).
fn single_group(tokens: proc_macro2::TokenStream) -> Option<proc_macro2::Group> {
    let mut iter = tokens.into_iter();
    match (iter.next(), iter.next()) {
        (Some(proc_macro2::TokenTree::Group(g)), None)
            if g.delimiter() == proc_macro2::Delimiter::Brace =>
        {
            Some(g)
        }
        _ => None,
    }
}

/// The entries of a `json!` object with string-literal keys (`None` when it is not an object).
fn json_entries(object: &proc_macro2::Group) -> Option<Vec<JsonEntry>> {
    if object.delimiter() != proc_macro2::Delimiter::Brace {
        return None;
    }
    let mut entries = Vec::new();
    let mut current: Vec<proc_macro2::TokenTree> = Vec::new();
    let mut finish = |tokens: &mut Vec<proc_macro2::TokenTree>| {
        let taken = std::mem::take(tokens);
        if let [proc_macro2::TokenTree::Literal(key), proc_macro2::TokenTree::Punct(colon), value @ ..] =
            taken.as_slice()
        {
            let key_text = syn::parse_str::<syn::LitStr>(&key.to_string()).ok();
            if let (Some(k), ':', false) = (key_text, colon.as_char(), value.is_empty()) {
                entries.push(JsonEntry {
                    key: k.value(),
                    start: key.span().byte_range().start,
                    value: value.to_vec(),
                });
            }
        }
    };
    for t in object.stream() {
        match &t {
            proc_macro2::TokenTree::Punct(p) if p.as_char() == ',' => finish(&mut current),
            _ => current.push(t),
        }
    }
    finish(&mut current);
    Some(entries)
}

/// The file bytes a run of tokens covers.
fn tokens_range(tokens: &[proc_macro2::TokenTree]) -> Option<(usize, usize)> {
    let start = tokens.first()?.span().byte_range().start;
    let end = tokens.last()?.span().byte_range().end;
    (start <= end).then_some((start, end))
}

/// Whether some `json!` of the crate writes a response whose `"result"` holds `"content"`: the
/// shape the server's own tool results have.
fn crate_writes_tool_results(model: &Model) -> bool {
    struct Results(bool);
    impl<'v> Visit<'v> for Results {
        fn visit_macro(&mut self, m: &'v syn::Macro) {
            if self.0 || !crate::syntax::is_json_macro(m) {
                return;
            }
            let holds_content = |e: &JsonEntry| match e.value.as_slice() {
                [proc_macro2::TokenTree::Group(g)] => {
                    json_entries(g).is_some_and(|inner| inner.iter().any(|i| i.key == "content"))
                }
                _ => false,
            };
            self.0 = single_group(m.tokens.clone())
                .and_then(|g| json_entries(&g))
                .is_some_and(|entries| {
                    entries
                        .iter()
                        .any(|e| e.key == "result" && holds_content(e))
                });
        }
    }
    let mut results = Results(false);
    for syntax in model.files.iter().filter_map(|f| f.syntax.as_ref()) {
        results.visit_file(syntax);
        if results.0 {
            return true;
        }
    }
    false
}

/// A dialect snippet that is code (a help text may carry words around it): `None` otherwise.
fn code_snippet(snippet: String) -> Option<String> {
    syn::parse_str::<Expr>(&snippet).is_ok().then_some(snippet)
}

/// MCP007/MCP011: the unknown-tool branch's answer (`Ok(<tool result>)`, or `Err(<protocol
/// error>)` with another code or without the name) replaced by the SDK's -32602 protocol error
/// naming the tool.
pub fn unknown_tool_error(model: &Model, site: &ErrorSite, binding: &str) -> Option<Fix> {
    if !matches!(site.origin, Origin::Constructor(_)) {
        return None;
    }
    let cx = FixCx::new(model, site.span, site.file)?;
    if !cx.vocab.unknown_tool {
        return None;
    }
    let returns = cx.returns()?;
    let found = cx.find(&cx.vocab.wrapped_results);
    let call = match (found.ok_call, found.err_call) {
        (Some((call, false)), _) | (None, Some((call, false))) => call,
        _ => return None,
    };
    if !returned_ranges(cx.located.body, &cx.extents, cx.target).contains(&range(call)) {
        return None;
    }
    // `Some(name) => .., None => <site>`: a name the other arm binds is not in scope here.
    let root = binding.split('.').next().unwrap_or(binding);
    if bound_by_other_arm(cx.located.body, cx.target, root) {
        return None;
    }
    let mut names = cx.names(&returns);
    let mut wanted = vec![&cx.vocab.error];
    wanted.extend(&cx.vocab.others);
    let snippet = code_snippet(cx.dialect.unknown_tool_snippet(binding))?;
    let snippet = cx.snippet(&snippet, &mut names, &wanted);
    // A binding the match introduced is certainly in scope; an expression read from the
    // scrutinee (`request.name`) usually is.
    let applicability = if is_place_expression(binding) {
        Applicability::MachineApplicable
    } else {
        Applicability::MaybeIncorrect
    };
    let mut edits = vec![cx.replace_laid_out(range(call), &snippet)];
    edits.extend(names.use_edit(&cx));
    Some(
        cx.finish(Fix {
            message: "answer an unknown tool with the protocol error -32602 `Unknown tool: <name>`"
                .to_string(),
            applicability,
            edits,
        }),
    )
}

/// MCP009: a success result built on a failure path made an isError one
/// (`CallToolResult::success(x)` → `CallToolResult::error(x)`), keeping its content.
/// `certain`: the path is a failure beyond doubt (MachineApplicable); else MaybeIncorrect.
pub fn success_to_error(model: &Model, site: &ErrorSite, certain: bool) -> Option<Fix> {
    if !matches!(site.origin, Origin::Constructor(_)) {
        return None;
    }
    let cx = FixCx::new(model, site.span, site.file)?;
    let target = cx.find(&[]).target?;
    let Expr::Call(call) = target else {
        return None;
    };
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let method = p.path.segments.last()?;
    let (_, error) = cx
        .vocab
        .error_constructors
        .iter()
        .find(|(success, _)| method.ident == success)?;
    let mut applicability = if certain {
        Applicability::MachineApplicable
    } else {
        Applicability::MaybeIncorrect
    };
    let mut edits = vec![cx.replace(range(&method.ident), error.clone())];
    // An error result needs text to read: where the content is blank, show where it goes.
    if site.empty_content {
        let mut names = cx.names(&Returns::default());
        let blanks = cx.blank_edits(target, &mut names, PLACEHOLDER_TEXT)?;
        edits.extend(blanks);
        edits.extend(names.use_edit(&cx));
        applicability = Applicability::HasPlaceholders;
    }
    Some(cx.finish(Fix {
        message: format!("mark the result as an error with `{error}`"),
        applicability,
        edits,
    }))
}

/// Whether the fn around a site returns its tool's output as `Ok`: a `Result` whose `Ok` is
/// not the SDK's tool result (tower-mcp's `McpTool::call -> Result<Self::Output>`), the site's
/// `Ok(..)` outside any closure or async block of it (a handler closure's `Ok` is not the fn's).
pub fn answers_with_output(model: &Model, site: &ErrorSite) -> bool {
    let Some(cx) = FixCx::new(model, site.span, site.file) else {
        return false;
    };
    let found = cx.find(&[]);
    let Some((_, false)) = found.ok_call.or(found.ok_wrapping) else {
        return false;
    };
    let syn::ReturnType::Type(_, ty) = &cx.located.sig.output else {
        return false;
    };
    let syn::Type::Path(p) = crate::syntax::unwrap_future(ty) else {
        return false;
    };
    let Some(last) = p.path.segments.last() else {
        return false;
    };
    let ok = match type_arguments(&last.arguments).next() {
        Some(ok) if last.ident == "Result" || cx.is_sdk_result_alias(&p.path) => ok,
        _ => return false,
    };
    let ok_name = crate::syntax::type_name(ok).unwrap_or_default();
    // The tool's own fn: a helper's `Err` goes wherever its callers send it.
    let in_tool = matches!(site.context, SiteContext::Tool { helper: None, .. });
    in_tool && ok_name != cx.vocab.result.name && !cx.vocab.wrapped_results.contains(&ok_name)
}

/// A tool fn whose declared output is neither a `Result` nor the SDK's tool result (turbomcp's
/// `-> Json<T>`, `-> Value`): the output type as written, and the SDK's `Result` alias to
/// declare it in (`McpResult`), where only such a declaration gives the tool a failure answer.
pub fn output_without_result(model: &Model, site: &ErrorSite) -> Option<(String, String)> {
    if !matches!(site.context, SiteContext::Tool { helper: None, .. }) {
        return None;
    }
    let cx = FixCx::new(model, site.span, site.file)?;
    let syn::ReturnType::Type(_, ty) = &cx.located.sig.output else {
        return None;
    };
    let ty = crate::syntax::unwrap_future(ty);
    if let syn::Type::Path(p) = ty {
        let last = p.path.segments.last()?;
        if last.ident == "Result" || cx.is_sdk_result_alias(&p.path) {
            return None;
        }
    }
    let name = crate::syntax::type_name(ty).unwrap_or_default();
    if name == cx.vocab.result.name || cx.vocab.wrapped_results.contains(&name) {
        return None;
    }
    let alias = cx.vocab.result_aliases.first()?.clone();
    Some((cx.source_of(ty)?, alias))
}

/// MCP009 in a tool whose output is no `Result` ([`output_without_result`]): the tool declared
/// `-> Result<T, McpError>`, every value it returns wrapped in `Ok(..)`, and the site's answer
/// the SDK's isError one for such a tool (`Err(McpError::internal(message))`,
/// [`Dialect::output_tool_error_snippet`]). MaybeIncorrect: the failure's other data goes, and
/// the signature changes. Only when every returned value is in the fn's own code (none in a
/// macro's) and the body has no `?` (whose meaning the new type would change).
pub fn output_result_declaration(model: &Model, site: &ErrorSite, message: &str) -> Option<Fix> {
    output_without_result(model, site)?;
    let cx = FixCx::new(model, site.span, site.file)?;
    let syn::ReturnType::Type(_, ty) = &cx.located.sig.output else {
        return None;
    };
    let body = cx.located.body;
    let returned = all_returned(body);
    // The returned value the site is, or is the one argument of (`Json(Stat { .. })`): only
    // calls of a path open before it, only their parentheses close after it.
    let (site_start, site_end) = cx.target;
    let site_range = *returned.iter().find(|(start, end)| {
        let (Some(before), Some(after)) = (
            cx.text.get(*start..site_start.max(*start)),
            cx.text.get(site_end.min(*end)..*end),
        ) else {
            return false;
        };
        let callers = before.matches('(').count();
        *start <= site_start
            && site_end <= *end
            && before
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '(' | ' ' | '\n'))
            && after.chars().all(|c| matches!(c, ')' | ',' | ' ' | '\n'))
            && after.matches(')').count() == callers
    })?;
    if has_try(body) {
        return None;
    }
    let snippet = code_snippet(cx.dialect.output_tool_error_snippet(MESSAGE_MARK)?)?;
    let (answer, mut names) = cx.error_snippet(&snippet, message);
    let error = names.spell(&cx, &cx.vocab.error);
    let output = cx.source_of(&**ty)?;
    let mut edits = vec![cx.replace(range(&**ty), format!("Result<{output}, {error}>"))];
    for r in &returned {
        let text = cx.text.get(r.0..r.1)?;
        if *r == site_range {
            edits.push(cx.replace_laid_out(*r, &answer));
        } else {
            edits.push(cx.replace_laid_out(*r, &format!("Ok({text})")));
        }
    }
    edits.extend(names.use_edit(&cx));
    edits.sort_by_key(|e| (e.start, e.end));
    if edits.windows(2).any(|w| w[0].end > w[1].start) {
        return None;
    }
    Some(cx.finish(Fix {
        message: "declare the tool's output a Result and return the failure as its error, which the SDK sends as an isError result".to_string(),
        applicability: Applicability::MaybeIncorrect,
        edits,
    }))
}

/// Every value a fn body returns: its tail and every `return`'s operand (not a closure's or an
/// async block's), through blocks, `if`s and `match`es.
fn all_returned(body: &syn::Block) -> Vec<(usize, usize)> {
    fn expand(e: &Expr, out: &mut Vec<(usize, usize)>) {
        match e {
            Expr::Block(b) => tail(&b.block, out),
            Expr::If(i) => {
                tail(&i.then_branch, out);
                if let Some((_, e)) = &i.else_branch {
                    expand(e, out);
                }
            }
            Expr::Match(m) => m.arms.iter().for_each(|a| expand(&a.body, out)),
            Expr::Paren(p) => expand(&p.expr, out),
            // Diverges: no value to wrap.
            Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => {}
            _ => out.push(range(e)),
        }
    }
    fn tail(b: &syn::Block, out: &mut Vec<(usize, usize)>) {
        if let Some(e) = crate::syntax::tail_of(b) {
            expand(e, out);
        }
    }
    struct Returns(Vec<(usize, usize)>);
    impl<'a> Visit<'a> for Returns {
        fn visit_expr_return(&mut self, r: &'a syn::ExprReturn) {
            if let Some(e) = &r.expr {
                expand(e, &mut self.0);
            }
            visit::visit_expr_return(self, r);
        }
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_async(&mut self, _: &'a syn::ExprAsync) {}
        fn visit_item(&mut self, _: &'a Item) {}
    }
    let mut out = Vec::new();
    tail(body, &mut out);
    let mut returns = Returns(Vec::new());
    returns.visit_block(body);
    out.extend(returns.0);
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether a body uses `?` (not in a closure or async block).
fn has_try(body: &syn::Block) -> bool {
    own_code_has(body, true)
}

/// MCP009 in a tool that answers with its output ([`answers_with_output`]): `Ok(json!({
/// "error": msg, .. }))` → the SDK's isError answer for such a tool with that text
/// (`Err(Error::tool(msg))`, [`Dialect::output_tool_error_snippet`]). Only for a text the error
/// type takes (a string literal, a `format!`, a `.to_string()`); MaybeIncorrect: the other
/// members are dropped.
pub fn output_error(model: &Model, site: &ErrorSite) -> Option<Fix> {
    if !answers_with_output(model, site) {
        return None;
    }
    let cx = FixCx::new(model, site.span, site.file)?;
    let found = cx.find(&[]);
    let (call, false) = found.ok_call? else {
        return None;
    };
    let Expr::Macro(m) = found.target? else {
        return None;
    };
    if !crate::syntax::is_json_macro(&m.mac) {
        return None;
    }
    let entries = json_entries(&single_group(m.mac.tokens.clone())?)?;
    let error = entries.iter().find(|e| e.key == "error")?;
    let (start, end) = tokens_range(&error.value)?;
    let message = cx.text.get(start..end)?;
    let is_text = match syn::parse_str::<Expr>(message).ok()? {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(_),
            ..
        }) => true,
        Expr::Macro(f) => f.mac.path.is_ident("format"),
        Expr::MethodCall(c) => c.method == "to_string" && c.args.is_empty(),
        _ => false,
    };
    if !is_text || !returned_ranges(cx.located.body, &cx.extents, cx.target).contains(&range(call))
    {
        return None;
    }
    let snippet = code_snippet(cx.dialect.output_tool_error_snippet(MESSAGE_MARK)?)?;
    let (snippet, names) = cx.error_snippet(&snippet, message);
    let mut edits = vec![cx.replace_laid_out(range(call), &snippet)];
    edits.extend(names.use_edit(&cx));
    Some(
        cx.finish(Fix {
            message:
                "return the failure as the tool's error, which the SDK sends as an isError result"
                    .to_string(),
            applicability: Applicability::MaybeIncorrect,
            edits,
        }),
    )
}

/// MCP002: where the text goes in an isError result without readable content (never applied:
/// the text is a placeholder).
pub fn empty_content_text(model: &Model, site: &ErrorSite) -> Option<Fix> {
    let cx = FixCx::new(model, site.span, site.file)?;
    let target = cx.find(&[]).target?;
    let mut names = cx.names(&Returns::default());
    // With an error value in scope the source holds the text: what failed, and the error.
    let (text, applicability) = match cx.error_in_scope() {
        Some(scope) => (scope.message(), Applicability::MaybeIncorrect),
        None => (PLACEHOLDER_TEXT.to_string(), Applicability::HasPlaceholders),
    };
    let blanks = cx.blank_edits(target, &mut names, &text)?;
    let mut edits = vec![cx.relaid(target, blanks)];
    edits.extend(names.use_edit(&cx));
    Some(cx.finish(Fix {
        message: "say what failed and what to do instead".to_string(),
        applicability,
        edits,
    }))
}

/// The text an error message can say at a site: what failed (the callee, with the tool
/// argument it got) and the error value in scope, as `format!("read_to_string({:?}) failed: {e}",
/// args.path)`. `None` when no error value is in scope.
pub fn message_in_scope(model: &Model, site: &ErrorSite) -> Option<String> {
    FixCx::new(model, site.span, site.file)?
        .error_in_scope()
        .map(|s| s.message())
}

/// A fix with its edits sorted by position, as JSON and editors show them.
fn in_file_order(mut fix: Fix) -> Fix {
    fix.edits.sort_by_key(|e| (e.start, e.end));
    fix
}

/// MCP003: the vague text replaced by a placeholder that says what belongs there (never applied).
/// With an error value in scope, the text says what failed and the error instead
/// (MaybeIncorrect: the wording is a guess).
pub fn specific_text(model: &Model, site: &ErrorSite, literal: Span) -> Fix {
    let message = "replace the text with what failed and what valid input looks like".to_string();
    let edit = |replacement: String| Edit {
        start: literal.start,
        end: literal.end,
        replacement,
    };
    let cx = FixCx::new(model, site.span, site.file);
    match cx.as_ref().and_then(|cx| Some((cx, cx.error_in_scope()?))) {
        Some((cx, scope)) => {
            let edits = match cx.find(&[]).target {
                Some(target) => vec![cx.relaid(target, vec![edit(scope.message())])],
                None => vec![edit(scope.message())],
            };
            cx.finish(Fix {
                message,
                applicability: Applicability::MaybeIncorrect,
                edits,
            })
        }
        None => placeholder_text(literal),
    }
}

/// A vague literal replaced by a placeholder for the specific words only the author knows.
pub fn placeholder_text(literal: Span) -> Fix {
    Fix {
        message: "replace the text with what failed and what valid input looks like".to_string(),
        applicability: Applicability::HasPlaceholders,
        edits: vec![Edit {
            start: literal.start,
            end: literal.end,
            replacement: VAGUE_PLACEHOLDER.to_string(),
        }],
    }
}

impl Applicability {
    /// The less certain of two applicabilities.
    fn max_risk(self, other: Applicability) -> Applicability {
        let rank = |a: Applicability| match a {
            Applicability::MachineApplicable => 0,
            Applicability::MaybeIncorrect => 1,
            Applicability::HasPlaceholders => 2,
            Applicability::Unspecified => 3,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

fn range(node: &impl Spanned) -> (usize, usize) {
    let r = node.span().byte_range();
    (r.start, r.end)
}

/// Whether `ident` is bound by the pattern of another arm of a `match` around `target` and not
/// by the arm that holds it.
fn bound_by_other_arm(body: &syn::Block, target: (usize, usize), ident: &str) -> bool {
    struct Arms<'i> {
        target: (usize, usize),
        ident: &'i str,
        found: bool,
    }
    impl<'v> Visit<'v> for Arms<'_> {
        fn visit_expr_match(&mut self, m: &'v syn::ExprMatch) {
            let holds = |arm: &syn::Arm| {
                let (start, end) = range(&arm.body);
                start <= self.target.0 && self.target.1 <= end
            };
            let binds = |arm: &syn::Arm| {
                let pat = quote::ToTokens::to_token_stream(&arm.pat).to_string();
                crate::syntax::mentions_ident(&pat, self.ident)
            };
            if let Some(here) = m.arms.iter().find(|a| holds(a)) {
                if !binds(here) && m.arms.iter().any(|a| !holds(a) && binds(a)) {
                    self.found = true;
                }
            }
            visit::visit_expr_match(self, m);
        }
        fn visit_item(&mut self, _: &'v Item) {}
    }
    let mut arms = Arms {
        target,
        ident,
        found: false,
    };
    arms.visit_block(body);
    arms.found
}

/// `x`, `self.name`, `request.name`: a name or field path, in scope wherever the branch is.
fn is_place_expression(text: &str) -> bool {
    let ident = |s: &str| {
        let mut chars = s.chars();
        chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && chars.all(|c| c.is_alphanumeric() || c == '_')
    };
    !text.is_empty() && text.split('.').all(ident)
}

/// `msg.into()` → `msg`: the text block's `impl Into<String>` cannot infer what `.into()` makes.
fn without_into(message: &str) -> String {
    match syn::parse_str::<Expr>(message) {
        Ok(Expr::MethodCall(m)) if m.method == "into" && m.args.is_empty() => {
            let (start, end) = range(&m.receiver);
            message.get(start..end).unwrap_or(message).to_string()
        }
        _ => message.to_string(),
    }
}

/// A call or struct literal passing `Some(..)` (rmcp's `data`): information the rewrite drops.
fn carries_data(expr: &Expr) -> bool {
    let is_some = |e: &Expr| matches!(e, Expr::Call(c) if matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some")));
    match expr {
        Expr::Call(c) => c.args.iter().any(is_some),
        Expr::Struct(s) => s.fields.iter().any(|f| is_some(&f.expr)),
        _ => false,
    }
}

/// The content argument of the dialect's isError snippet (`vec![ContentBlock::text(MARK)]`).
fn content_snippet(dialect: &dyn Dialect) -> Option<String> {
    let snippet = dialect.tool_error_snippet(MESSAGE_MARK, false);
    let expr: Expr = syn::parse_str(&snippet).ok()?;
    struct FindVec(Option<(usize, usize)>);
    impl<'v> Visit<'v> for FindVec {
        fn visit_expr_macro(&mut self, m: &'v syn::ExprMacro) {
            if self.0.is_none()
                && m.mac.path.is_ident("vec")
                && m.mac.tokens.to_string().contains(MESSAGE_MARK)
            {
                self.0 = Some(range(m));
            }
        }
    }
    let mut find = FindVec(None);
    find.visit_expr(&expr);
    let (start, end) = find.0?;
    snippet.get(start..end).map(str::to_string)
}

// ---------------------------------------------------------------------------------------------
// Where the site sits

/// The fn whose body holds a site, with the module scopes around it.
struct Located<'f> {
    sig: &'f syn::Signature,
    /// The block `return` and `?` leave: the fn's body, or the async block it returns.
    body: &'f syn::Block,
    /// Item lists from the file root to the fn's module (innermost last).
    scopes: Vec<&'f [Item]>,
}

fn locate(file: &syn::File, start: usize, end: usize) -> Option<Located<'_>> {
    fn walk<'f>(
        items: &'f [Item],
        start: usize,
        end: usize,
        scopes: &mut Vec<&'f [Item]>,
    ) -> Option<(&'f syn::Signature, &'f syn::Block)> {
        scopes.push(items);
        // From the delimiters' spans: `Spanned::span()` would print every item back to tokens.
        let holds = |delim: &proc_macro2::extra::DelimSpan| {
            let r = delim.join().byte_range();
            r.start <= start && end <= r.end
        };
        for item in items {
            let found = match item {
                Item::Fn(f) if holds(&f.block.brace_token.span) => Some((&f.sig, &*f.block)),
                Item::Impl(imp) if holds(&imp.brace_token.span) => {
                    imp.items.iter().find_map(|ii| match ii {
                        ImplItem::Fn(f) if holds(&f.block.brace_token.span) => {
                            Some((&f.sig, &f.block))
                        }
                        _ => None,
                    })
                }
                Item::Trait(t) if holds(&t.brace_token.span) => {
                    t.items.iter().find_map(|ti| match ti {
                        TraitItem::Fn(f) => f
                            .default
                            .as_ref()
                            .filter(|b| holds(&b.brace_token.span))
                            .map(|b| (&f.sig, b)),
                        _ => None,
                    })
                }
                Item::Mod(m) => match &m.content {
                    Some((brace, inner)) if holds(&brace.span) => {
                        return walk(inner, start, end, scopes)
                    }
                    _ => None,
                },
                _ => None,
            };
            if found.is_some() {
                return found;
            }
        }
        scopes.pop();
        None
    }
    let mut scopes = Vec::new();
    let (sig, block) = walk(&file.items, start, end, &mut scopes)?;
    Some(Located {
        sig,
        body: handler_block(sig, block),
        scopes,
    })
}

/// `fn f() -> impl Future<..> { async move { .. } }` (and `Box::pin(async move { .. })`): the
/// async block is what `return` and `?` leave.
fn handler_block<'f>(sig: &syn::Signature, block: &'f syn::Block) -> &'f syn::Block {
    if sig.asyncness.is_some() {
        return block;
    }
    // `let name = name.to_string(); async move { .. }`: the block the fn returns is its tail.
    let Some(tail) = block.stmts.last() else {
        return block;
    };
    let inner = match tail {
        syn::Stmt::Expr(Expr::Async(a), None) => Some(&a.block),
        syn::Stmt::Expr(Expr::Call(c), None) if c.args.len() == 1 => match &c.args[0] {
            Expr::Async(a) => Some(&a.block),
            _ => None,
        },
        _ => None,
    };
    inner.unwrap_or(block)
}

/// The `visit_block` and `visit_expr_if` of a visitor with `target` and `extents` fields that
/// searches only what can hold `target`: blocks whose braces do not enclose it are skipped.
macro_rules! searches_around_target {
    ($a:lifetime) => {
        fn visit_block(&mut self, b: &$a syn::Block) {
            if self.extents.holds(b, self.target) {
                visit::visit_block(self, b);
            }
        }
        fn visit_expr_if(&mut self, i: &$a syn::ExprIf) {
            let (extents, target) = (self.extents, self.target);
            visit_if_around(self, i, extents, target);
        }
    };
}
/// The `visit_expr_closure` and `visit_expr_async` of a visitor with a `nested` count: how many
/// closures and async blocks (which `return` and `?` do not leave the fn from) are around.
macro_rules! counts_nesting {
    ($a:lifetime) => {
        fn visit_expr_closure(&mut self, c: &$a syn::ExprClosure) {
            self.nested += 1;
            visit::visit_expr_closure(self, c);
            self.nested -= 1;
        }
        fn visit_expr_async(&mut self, a: &$a syn::ExprAsync) {
            self.nested += 1;
            visit::visit_expr_async(self, a);
            self.nested -= 1;
        }
    };
}

/// Byte ranges of the calls and other leaf expressions a body returns that hold `target`: its
/// tail and every `return` operand, followed through blocks, `if`, `match` and parentheses (the
/// containers themselves are not listed). Closures and async blocks return elsewhere.
///
/// Only the blocks around `target` are searched: a span costs a walk over the node's tokens,
/// and one search per site over a whole fn of n sites would make n fixes cost O(n²) spans.
fn returned_ranges(
    body: &syn::Block,
    extents: &BlockExtents,
    target: (usize, usize),
) -> HashSet<(usize, usize)> {
    struct Returns<'a, 'x> {
        target: (usize, usize),
        extents: &'x BlockExtents,
        found: Vec<&'a Expr>,
    }
    impl<'a> Visit<'a> for Returns<'a, '_> {
        fn visit_expr_return(&mut self, r: &'a syn::ExprReturn) {
            if let Some(e) = &r.expr {
                self.found.push(e);
            }
            visit::visit_expr_return(self, r);
        }
        searches_around_target!('a);
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_async(&mut self, _: &'a syn::ExprAsync) {}
        fn visit_item(&mut self, _: &'a Item) {}
    }
    fn expand(e: &Expr, cx: (&BlockExtents, (usize, usize)), out: &mut HashSet<(usize, usize)>) {
        match e {
            Expr::Block(b) => block_tail(&b.block, cx, out),
            Expr::Unsafe(u) => block_tail(&u.block, cx, out),
            Expr::If(i) => {
                block_tail(&i.then_branch, cx, out);
                if let Some((_, e)) = &i.else_branch {
                    expand(e, cx, out);
                }
            }
            Expr::Match(m) => m.arms.iter().for_each(|a| expand(&a.body, cx, out)),
            Expr::Paren(p) => expand(&p.expr, cx, out),
            Expr::Return(r) => {
                if let Some(e) = &r.expr {
                    expand(e, cx, out);
                }
            }
            _ => {
                out.insert(range(e));
            }
        }
    }
    fn block_tail(
        b: &syn::Block,
        cx: (&BlockExtents, (usize, usize)),
        out: &mut HashSet<(usize, usize)>,
    ) {
        if !cx.0.holds(b, cx.1) {
            return;
        }
        if let Some(e) = crate::syntax::tail_of(b) {
            expand(e, cx, out);
        }
    }
    let mut out = HashSet::new();
    block_tail(body, (extents, target), &mut out);
    let mut returns = Returns {
        target,
        extents,
        found: Vec::new(),
    };
    returns.visit_block(body);
    for e in returns.found {
        expand(e, (extents, target), &mut out);
    }
    out
}

/// Visit an `if` for what holds `target`: its condition only when `target` starts before the
/// `then` block (the condition ends there), its `else` only when `target` starts after that
/// block, so the k-th site of an `else if` chain is found without a span of any condition, the
/// branches before it passed in one step ([`BlockExtents::else_towards`]) and the branches after
/// it not entered.
fn visit_if_around<'a, V: Visit<'a>>(
    v: &mut V,
    i: &'a syn::ExprIf,
    extents: &BlockExtents,
    target: (usize, usize),
) {
    let (then_start, then_end) = extents.get(&i.then_branch);
    if target.0 < then_start {
        v.visit_expr(&i.cond);
    }
    v.visit_block(&i.then_branch);
    if let Some((_, e)) = &i.else_branch {
        if target.0 >= then_end {
            v.visit_expr(extents.else_towards(i, e, target.0));
        }
    }
}

/// `value.map_err(|e| site)?`, `value.ok_or_else(|| site)?` or `value.ok_or(site)?`.
struct TryForm<'a> {
    try_expr: &'a syn::ExprTry,
    receiver: &'a Expr,
    /// `Err(<pattern>)` for `map_err`; `None` for an `Option`.
    err_pattern: Option<String>,
    /// The closure body (`None` for `ok_or`), and the site inside it.
    handler: Option<&'a Expr>,
    site: &'a Expr,
}

impl TryForm<'_> {
    /// `ok_or*` works on an `Option`; `map_err` on a value whose type the source shows only when
    /// it is a call to a fn of the crate declared to return a `Result`.
    fn evident(&self, cx: &FixCx<'_>) -> bool {
        if self.err_pattern.is_none() {
            return true;
        }
        cx.model
            .returns_result(crate::syntax::strip_await(self.receiver))
    }
}

/// The kinds of expression a site can be: the only ones whose span a search around it takes
/// (never the `if`/`match`/block around it: an `else if` chain would be quadratic).
fn may_be_site(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Call(_)
            | Expr::MethodCall(_)
            | Expr::Struct(_)
            | Expr::Macro(_)
            | Expr::Path(_)
            | Expr::Try(_)
            | Expr::Assign(_)
            | Expr::Paren(_)
            | Expr::Lit(_)
    )
}

/// What the finder saw around the site.
#[derive(Default)]
struct Found<'a> {
    /// The site's own expression.
    target: Option<&'a Expr>,
    /// `Err(site)`, and whether it sits in a closure or async block.
    err_call: Option<(&'a syn::ExprCall, bool)>,
    /// `Ok(site)` (through `.into()` and wrapper variants), and whether nested.
    ok_call: Option<(&'a syn::ExprCall, bool)>,
    /// `Ok(Json(site))`: the site in tuple-struct wrappers (`Json`, `Structured`) of `Ok`, and
    /// whether nested.
    ok_wrapping: Option<(&'a syn::ExprCall, bool)>,
    try_form: Option<(TryForm<'a>, bool)>,
}

struct Finder<'a, 'w> {
    target: (usize, usize),
    extents: &'w BlockExtents,
    wrappers: &'w [String],
    nested: usize,
    found: Found<'a>,
}

impl<'a> Finder<'a, '_> {
    /// `site`, `site.into()`, `Wrapper::Variant(site)`: whether `e` is the site.
    fn answers_with_site(&self, e: &Expr) -> bool {
        match e {
            Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() => {
                self.answers_with_site(&m.receiver)
            }
            Expr::Call(c) if c.args.len() == 1 => {
                let wrapper = matches!(&*c.func, Expr::Path(p) if p.path.segments.len() >= 2
                    && self.wrappers.iter().any(|w| p.path.segments[p.path.segments.len() - 2].ident == w));
                range(e) == self.target || (wrapper && self.answers_with_site(&c.args[0]))
            }
            other => range(other) == self.target,
        }
    }

    /// `W(site)`, `W1(W2(site))`: whether `e` is a call of one argument that holds the site
    /// through such calls only.
    fn wraps_site(&self, e: &Expr) -> bool {
        match e {
            Expr::Call(c) if c.args.len() == 1 => {
                range(&c.args[0]) == self.target || self.wraps_site(&c.args[0])
            }
            _ => false,
        }
    }
}

impl<'a> Visit<'a> for Finder<'a, '_> {
    fn visit_expr(&mut self, e: &'a Expr) {
        // Past the site nothing holds it (what does was seen on the way down).
        if self.found.target.is_some() {
            return;
        }
        // A span costs a walk over the expression's tokens: only for the kinds a site can be,
        // never for the `if`/`match`/block around it (an `else if` chain would be quadratic).
        if may_be_site(e) && range(e) == self.target {
            self.found.target = Some(e);
        }
        visit::visit_expr(self, e);
    }

    searches_around_target!('a);

    fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
        if let (Expr::Path(p), 1) = (&*c.func, c.args.len()) {
            let nested = self.nested > 0;
            if p.path.is_ident("Err") && range(&c.args[0]) == self.target {
                self.found.err_call = Some((c, nested));
            }
            if p.path.is_ident("Ok") && self.answers_with_site(&c.args[0]) {
                self.found.ok_call = Some((c, nested));
            }
            if p.path.is_ident("Ok") && self.wraps_site(&c.args[0]) {
                self.found.ok_wrapping = Some((c, nested));
            }
        }
        visit::visit_expr_call(self, c);
    }

    fn visit_expr_try(&mut self, t: &'a syn::ExprTry) {
        if let Expr::MethodCall(mc) = &*t.expr {
            let method = mc.method.to_string();
            let form = match (method.as_str(), mc.args.first(), mc.args.len()) {
                ("map_err" | "ok_or_else", Some(Expr::Closure(c)), 1) => {
                    let site = tail_expr(&c.body);
                    let err_pattern = (method == "map_err").then(|| {
                        c.inputs
                            .first()
                            .map(|p| match p {
                                syn::Pat::Type(t) => quote::ToTokens::to_token_stream(&t.pat),
                                p => quote::ToTokens::to_token_stream(p),
                            })
                            .map_or_else(|| "_".to_string(), |t| t.to_string())
                    });
                    Some(TryForm {
                        try_expr: t,
                        receiver: &mc.receiver,
                        err_pattern,
                        handler: Some(&c.body),
                        site,
                    })
                }
                // `.map_err(helper)`: the error passed on, bound as `e` in a rewrite.
                ("map_err", Some(arg @ Expr::Path(_)), 1) => Some(TryForm {
                    try_expr: t,
                    receiver: &mc.receiver,
                    err_pattern: Some("e".to_string()),
                    handler: None,
                    site: arg,
                }),
                ("ok_or", Some(arg), 1) => Some(TryForm {
                    try_expr: t,
                    receiver: &mc.receiver,
                    err_pattern: None,
                    handler: None,
                    site: arg,
                }),
                _ => None,
            };
            if let Some(form) = form.filter(|f| range(f.site) == self.target) {
                self.found.try_form = Some((form, self.nested > 0));
            }
        }
        visit::visit_expr_try(self, t);
    }

    counts_nesting!('a);

    fn visit_item(&mut self, _: &'a Item) {}
}

/// Empty content or blank text inside an isError result.
#[derive(Clone, Copy)]
enum Blank {
    /// `vec![]`, `Vec::new()`, `Vec::default()`.
    Vec,
    /// `""`, `"  "`.
    Literal,
    /// `String::new()`.
    NewString,
}

#[derive(Default)]
struct Blanks {
    found: Vec<(usize, usize, Blank)>,
}

impl<'v> Visit<'v> for Blanks {
    fn visit_expr(&mut self, e: &'v Expr) {
        let blank = match e {
            Expr::Macro(m) if m.mac.path.is_ident("vec") && m.mac.tokens.is_empty() => {
                Some(Blank::Vec)
            }
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) if s.value().trim().is_empty() => Some(Blank::Literal),
            Expr::Call(c) if c.args.is_empty() => match &*c.func {
                Expr::Path(p) if p.path.segments.len() >= 2 => {
                    let n = p.path.segments.len();
                    let (ty, method) =
                        (&p.path.segments[n - 2].ident, &p.path.segments[n - 1].ident);
                    if ty == "Vec" && (method == "new" || method == "default") {
                        Some(Blank::Vec)
                    } else if ty == "String" && method == "new" {
                        Some(Blank::NewString)
                    } else {
                        None
                    }
                }
                _ => None,
            },
            _ => None,
        };
        match (blank, e) {
            (Some(b), _) => {
                let (s, end) = range(e);
                self.found.push((s, end, b));
            }
            // `vec![ContentBlock::text("")]`: the blocks are macro tokens; parsed, they keep
            // their places in the file.
            (None, Expr::Macro(m)) if m.mac.path.is_ident("vec") => {
                let items = m.mac.parse_body_with(
                    syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated,
                );
                for item in items.iter().flatten() {
                    self.visit_expr(item);
                }
            }
            (None, _) => visit::visit_expr(self, e),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The fn's declared result, and the names the file has

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OkKind {
    /// `Ok` is the tool result type itself.
    Result,
    /// `Ok` takes the tool result through `.into()` (rmcp 3's `CallToolResponse`).
    Wrapped,
}

/// What the enclosing fn declares it returns.
#[derive(Default)]
struct Returns {
    ok_kind: Option<OkKind>,
    /// The `Ok` type as written, when it is the tool result type.
    ok_written: Option<String>,
    /// The `Err` type as written, when it is the SDK's protocol error type.
    err_written: Option<String>,
}

/// Everything one fix looks at: the file, the fn around the site, the dialect.
struct FixCx<'m> {
    model: &'m Model,
    file: crate::model::FileId,
    text: &'m str,
    dialect: &'m dyn Dialect,
    vocab: FixVocabulary,
    syntax: &'m syn::File,
    located: Located<'m>,
    /// The extents of the blocks of the fn's body.
    extents: std::rc::Rc<BlockExtents>,
    target: (usize, usize),
}

impl<'m> FixCx<'m> {
    fn new(model: &'m Model, span: Span, file: crate::model::FileId) -> Option<FixCx<'m>> {
        // A finding in a file that is not reported (the language server's unopened files, the
        // rest of the crate of `check some/file.rs`) is dropped, and its fix with it.
        if !model.files.get(file.0)?.is_reported() {
            return None;
        }
        FixCx::at(model, file, (span.start, span.end))
    }

    /// The context of the expression at bytes `target` of `file`.
    fn at(
        model: &'m Model,
        file: crate::model::FileId,
        target: (usize, usize),
    ) -> Option<FixCx<'m>> {
        let dialect = model.dialect_of(file)?;
        let mut vocab = dialect.fix_vocabulary()?;
        // A new `use` spells the SDK by the crate's name for it (`mcp::model::Content`).
        for name in [&mut vocab.result, &mut vocab.content, &mut vocab.error] {
            if let Some(first) = name.path.first_mut() {
                *first = model.crates_of(file).code_name(first);
            }
        }
        let f = model.files.get(file.0)?;
        let (source, syntax) = (f.source.as_deref()?, f.syntax.as_ref()?);
        let located = locate(syntax, target.0, target.1)?;
        Some(FixCx {
            model,
            file,
            text: &source.text,
            dialect,
            vocab,
            extents: model.block_extents(located.body),
            syntax,
            located,
            target,
        })
    }

    fn find(&self, wrappers: &[String]) -> Found<'m> {
        let mut finder = Finder {
            target: self.target,
            extents: &self.extents,
            wrappers,
            nested: 0,
            found: Found::default(),
        };
        finder.visit_block(self.located.body);
        finder.found
    }

    fn source_of(&self, node: &impl Spanned) -> Option<String> {
        let (s, e) = range(node);
        self.text.get(s..e).map(str::to_string)
    }

    /// `Result<Ok, Err>` of the fn (through `impl Future<Output = ..>`): whether `Ok` is the
    /// tool result and `Err` the protocol error. `None` when `Err` is not the protocol error.
    fn returns(&self) -> Option<Returns> {
        let syn::ReturnType::Type(_, ty) = &self.located.sig.output else {
            return None;
        };
        let syn::Type::Path(p) = crate::syntax::unwrap_future(ty) else {
            return None;
        };
        let last = p.path.segments.last()?;
        let types: Vec<&syn::Type> = type_arguments(&last.arguments).collect();
        let (ok, err) = match types.as_slice() {
            [ok, err] if last.ident == "Result" && self.dialect.is_protocol_error_type(err) => {
                (*ok, Some(*err))
            }
            [ok] if self.is_sdk_result_alias(&p.path) => (*ok, None),
            _ => return None,
        };
        let ok_name = crate::syntax::type_name(ok).unwrap_or_default();
        let ok_kind = if ok_name == self.vocab.result.name {
            Some(OkKind::Result)
        } else if self.vocab.wrapped_results.contains(&ok_name) {
            Some(OkKind::Wrapped)
        } else {
            None
        };
        Some(Returns {
            ok_kind,
            ok_written: (ok_kind == Some(OkKind::Result))
                .then(|| self.source_of(ok))
                .flatten(),
            err_written: err.and_then(|e| self.source_of(e)),
        })
    }

    /// `MCPResult<T>`, `pmcp::Result<T>`, or `Result<T>` imported from the SDK: a result whose
    /// error is the SDK's protocol error.
    fn is_sdk_result_alias(&self, path: &syn::Path) -> bool {
        let Some(last) = path.segments.last() else {
            return false;
        };
        let root = self.vocab.error.path.first();
        let qualified =
            path.segments.len() > 1 && root.is_some_and(|r| path.segments[0].ident == r.as_str());
        let name = last.ident.to_string();
        let imported = || {
            Scope::of(&self.located.scopes)
                .imports
                .iter()
                .any(|imports| {
                    imports
                        .names
                        .get(&name)
                        .is_some_and(|p| p.first() == root && p.len() > 1)
                })
        };
        self.vocab.result_aliases.contains(&name) || (name == "Result" && (qualified || imported()))
    }

    /// Whether every fn of the crate named `name` is declared to return a `Result`.
    fn names(&self, returns: &Returns) -> Names {
        Names {
            ok_written: returns.ok_written.clone(),
            err_written: returns.err_written.clone(),
            uses: BTreeMap::new(),
        }
    }

    /// A dialect snippet with the SDK names in `wanted` spelled as this file spells them.
    fn snippet(&self, snippet: &str, names: &mut Names, wanted: &[&SdkName]) -> String {
        let mut renames = Vec::new();
        // Only the names the snippet writes (a `use` of another would be unused).
        for name in wanted
            .iter()
            .filter(|n| crate::syntax::mentions_ident(snippet, &n.name))
        {
            let spelled = names.spell(self, name);
            if spelled != name.name {
                renames.push((name.name.clone(), spelled));
            }
        }
        rename_idents(snippet, &renames)
    }

    /// A snippet of the SDK's error value with its names spelled as this file spells them and
    /// `message` in place of the mark, with the `use`s it needs.
    fn error_snippet(&self, snippet: &str, message: &str) -> (String, Names) {
        let mut names = self.names(&Returns::default());
        let mut wanted = vec![&self.vocab.error];
        wanted.extend(&self.vocab.others);
        let text = self
            .snippet(snippet, &mut names, &wanted)
            .replace(MESSAGE_MARK, message);
        (text, names)
    }

    /// Placeholder text for every empty vector and blank string in `target`; `None` when there
    /// is none.
    fn blank_edits(&self, target: &Expr, names: &mut Names, text: &str) -> Option<Vec<Edit>> {
        let mut blanks = Blanks::default();
        blanks.visit_expr(target);
        let mut edits = Vec::new();
        for (start, end, blank) in blanks.found {
            let replacement = match blank {
                Blank::Vec => {
                    let content = content_snippet(self.dialect)?;
                    self.snippet(&content, names, &[&self.vocab.content])
                        .replace(MESSAGE_MARK, text)
                }
                Blank::Literal => text.to_string(),
                Blank::NewString if text.starts_with('"') => format!("String::from({text})"),
                Blank::NewString => text.to_string(),
            };
            edits.push(self.replace((start, end), replacement));
        }
        (!edits.is_empty()).then_some(edits)
    }

    /// The error value in scope at the site, from the innermost `.map_err(|e| ..)` (or
    /// `or_else`, `unwrap_or_else`) closure or `Err(e) =>` arm around it, with the call that
    /// failed.
    /// Whether `target` is a fn given to `.map_err(..)` (`.map_err(Error::invalid_params)`).
    fn is_point_free(&self, target: &Expr) -> bool {
        struct MapErrArg<'x> {
            target: (usize, usize),
            extents: &'x BlockExtents,
            found: bool,
        }
        impl<'a> Visit<'a> for MapErrArg<'_> {
            fn visit_expr(&mut self, e: &'a Expr) {
                if !self.found {
                    visit::visit_expr(self, e);
                }
            }
            searches_around_target!('a);
            fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
                if m.method == "map_err"
                    && m.args.len() == 1
                    && matches!(&m.args[0], Expr::Path(_))
                    && range(&m.args[0]) == self.target
                {
                    self.found = true;
                }
                visit::visit_expr_method_call(self, m);
            }
            fn visit_item(&mut self, _: &'a Item) {}
        }
        if !matches!(target, Expr::Path(_)) {
            return false;
        }
        let mut search = MapErrArg {
            target: range(target),
            extents: &self.extents,
            found: false,
        };
        search.visit_block(self.located.body);
        search.found
    }

    fn error_in_scope(&self) -> Option<ErrorScope> {
        struct Scopes<'a, 'x> {
            target: (usize, usize),
            extents: &'x BlockExtents,
            stack: Vec<(String, &'a Expr)>,
            /// The scope around the site, once the search reached it.
            found: Option<Option<(String, &'a Expr)>>,
        }
        impl<'a> Visit<'a> for Scopes<'a, '_> {
            fn visit_expr(&mut self, e: &'a Expr) {
                if self.found.is_some() {
                    return;
                }
                // A span costs a walk over the expression's tokens: only for the kinds a site
                // can be, as in the finder.
                if may_be_site(e) && range(e) == self.target {
                    self.found = Some(self.stack.last().cloned());
                }
                visit::visit_expr(self, e);
            }
            searches_around_target!('a);
            fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
                let handler = matches!(
                    m.method.to_string().as_str(),
                    "map_err" | "or_else" | "unwrap_or_else"
                );
                let binding = match (handler, m.args.first()) {
                    (true, Some(Expr::Closure(c))) if c.inputs.len() == 1 => {
                        crate::syntax::pat_ident(&c.inputs[0])
                    }
                    // `.map_err(Error::invalid_params)` at the site: the fix makes it `|e| ..`.
                    (true, Some(arg @ Expr::Path(_)))
                        if m.method == "map_err" && range(arg) == self.target =>
                    {
                        Some(POINT_FREE_BINDING.to_string())
                    }
                    _ => None,
                };
                let Some(binding) = binding else {
                    return visit::visit_expr_method_call(self, m);
                };
                self.visit_expr(&m.receiver);
                self.stack.push((binding, &m.receiver));
                for a in &m.args {
                    self.visit_expr(a);
                }
                self.stack.pop();
            }
            fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
                self.visit_expr(&m.expr);
                for arm in &m.arms {
                    let binding = crate::syntax::variant_binding(&arm.pat, "Err").flatten();
                    if let Some(b) = &binding {
                        self.stack.push((b.clone(), &m.expr));
                    }
                    self.visit_arm(arm);
                    if binding.is_some() {
                        self.stack.pop();
                    }
                }
            }
            fn visit_item(&mut self, _: &'a Item) {}
        }
        let mut scopes = Scopes {
            target: self.target,
            extents: &self.extents,
            stack: Vec::new(),
            found: None,
        };
        scopes.visit_block(self.located.body);
        let (binding, failed) = scopes.found.flatten()?;
        if binding.starts_with('_') {
            return None;
        }
        Some(ErrorScope::new(binding, failed, self))
    }

    /// `edits` inside `target` as one edit of the whole expression, laid out as rustfmt would
    /// lay out the result (the edits as they are when a comment sits inside).
    fn relaid(&self, target: &Expr, edits: Vec<Edit>) -> Edit {
        let (start, end) = self.one_line_caller(range(target));
        let written = &self.text[start..end];
        if written.contains("//") || written.contains("/*") {
            return Edit {
                start,
                end,
                replacement: apply_inside(written, start, &edits),
            };
        }
        self.replace_in_closure_laid_out((start, end), &apply_inside(written, start, &edits))
    }

    /// The one-line call (`Ok(target)`) whose only argument is `target`, and so on outwards:
    /// rustfmt lays out an argument by its caller's rules (a nested call within the list width).
    fn one_line_caller(&self, target: (usize, usize)) -> (usize, usize) {
        struct Callers<'x> {
            target: (usize, usize),
            extents: &'x BlockExtents,
            found: Option<(usize, usize)>,
        }
        impl<'a> Visit<'a> for Callers<'_> {
            fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
                if let ([arg], Expr::Path(_)) =
                    (c.args.iter().collect::<Vec<_>>().as_slice(), &*c.func)
                {
                    if range(*arg) == self.target {
                        self.found = Some(range(c));
                    }
                }
                visit::visit_expr_call(self, c);
            }
            searches_around_target!('a);
            fn visit_item(&mut self, _: &'a Item) {}
        }
        let mut at = target;
        for _ in 0..3 {
            let mut callers = Callers {
                target: at,
                extents: &self.extents,
                found: None,
            };
            callers.visit_block(self.located.body);
            match callers.found {
                Some((s, e)) if !self.text[s..e].contains('\n') => at = (s, e),
                _ => break,
            }
        }
        at
    }

    /// The fix with the locals and imports it leaves unused dropped, its edits in file order.
    fn finish(&self, mut fix: Fix) -> Fix {
        let locals = self.unused_local_edits(&fix.edits);
        fix.edits.extend(locals);
        let prunes = unused_imports::prune_edits(
            self.text,
            self.syntax,
            self.model.files[self.file.0].word_counts(),
            &fix.edits,
        );
        // A `use` the fix also writes next to is left for `--fix`'s own pass over the result.
        let touches = |p: &Edit| {
            fix.edits.iter().any(|e| {
                (e.start < p.end && p.start < e.end) || e.start == p.start || e.start == p.end
            })
        };
        if !prunes.iter().any(touches) {
            fix.edits.extend(prunes);
        }
        in_file_order(fix)
    }

    /// Edits for the `let` bindings of the fn whose every use `edits` take away: `let code =
    /// match &e { .. };` before a `McpError::new(code, ..)` the fix rewrote. A binding whose value
    /// is a constant (a path, a literal, a `match` over a place choosing one per arm) is deleted
    /// with its lines; an element of a tuple pattern becomes `_`; another binding keeps its value
    /// under `_name` (its drop stays where it was).
    fn unused_local_edits(&self, edits: &[Edit]) -> Vec<Edit> {
        /// The `let` at `target` (none in nested items), found through the blocks around it.
        struct Let<'a, 'x> {
            target: (usize, usize),
            extents: &'x BlockExtents,
            found: Option<&'a syn::Local>,
        }
        impl<'a> Visit<'a> for Let<'a, '_> {
            fn visit_local(&mut self, l: &'a syn::Local) {
                if self.found.is_none() && range(l) == self.target {
                    self.found = Some(l);
                }
                visit::visit_local(self, l);
            }
            searches_around_target!('a);
            fn visit_item(&mut self, _: &'a Item) {}
        }
        let removed: HashSet<&str> = edits
            .iter()
            .flat_map(|e| unused_imports::words(self.text.get(e.start..e.end).unwrap_or_default()))
            .collect();
        // Only the `let`s that bind a removed word are looked at (this runs for every fix; a
        // walk of the whole body per fix would make a fn of n sites cost O(n²)).
        let candidates = self
            .extents
            .lets()
            .filter(|(names, _)| names.iter().any(|n| removed.contains(n.as_str())))
            .filter_map(|(_, at)| {
                let mut find = Let {
                    target: at,
                    extents: &self.extents,
                    found: None,
                };
                find.visit_block(self.located.body);
                find.found
            });
        let mut out = Vec::new();
        for local in candidates {
            for (ident, in_tuple) in let_bindings(&local.pat) {
                let name = ident.to_string();
                // Names checked cheaply first: this runs for every fix.
                if name.starts_with('_') || !removed.contains(name.as_str()) {
                    continue;
                }
                let count = |text: &str| unused_imports::count(text, &name);
                let taken: usize = edits
                    .iter()
                    .map(|e| count(self.text.get(e.start..e.end).unwrap_or_default()))
                    .sum();
                let added: usize = edits.iter().map(|e| count(&e.replacement)).sum();
                let (let_start, let_end) = range(local);
                let (body_start, body_end) = self.extents.get(self.located.body);
                let in_edit = edits
                    .iter()
                    .any(|e| e.start <= let_start && let_end <= e.end);
                // The binding itself is one mention; every other one is a use.
                let uses = count(self.text.get(body_start..body_end).unwrap_or_default())
                    .saturating_sub(1);
                if in_edit || added > 0 || uses != taken {
                    continue;
                }
                let at = range(ident);
                let constant = local
                    .init
                    .as_ref()
                    .is_some_and(|i| i.diverge.is_none() && is_constant(&i.expr));
                let edit = if in_tuple {
                    Some(self.replace(at, "_".to_string()))
                } else if constant {
                    self.statement_lines(let_start, let_end)
                } else {
                    Some(self.replace(at, format!("_{name}")))
                };
                out.extend(edit);
            }
        }
        out
    }

    /// The deletion of the statement at `start..end` with its lines, when nothing else shares them.
    fn statement_lines(&self, start: usize, end: usize) -> Option<Edit> {
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let rest = &self.text[end..];
        let line_end = end + rest.find('\n').map_or(rest.len(), |i| i + 1);
        let alone = self.text[line_start..start].trim().is_empty()
            && self.text[end..line_end].trim().is_empty();
        alone.then(|| self.replace((line_start, line_end), String::new()))
    }

    fn replace(&self, (start, end): (usize, usize), replacement: String) -> Edit {
        Edit {
            start,
            end,
            replacement,
        }
    }

    /// The leading whitespace of the line holding byte `at`.
    fn indent_at(&self, at: usize) -> String {
        let line_start = self.text[..at.min(self.text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        self.text[line_start..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect()
    }

    /// The column of byte `at` on its line.
    fn column_at(&self, at: usize) -> usize {
        let line_start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        self.text[line_start..at].chars().count()
    }

    /// The columns of code after byte `at` up to the end of its line (a trailing comment does
    /// not count: rustfmt lays code out without it).
    fn rest_of_line(&self, at: usize) -> usize {
        let rest = &self.text[at..];
        let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
        let code = line.find("//").map_or(line, |i| &line[..i]);
        code.trim_end().chars().count()
    }

    /// The method calls (`.len()`, `.await?`) written after byte `at`, each on one line, and
    /// where they end; `None` when one spans lines.
    fn postfix_calls(&self, at: usize) -> Option<(Vec<&'m str>, usize)> {
        let text = self.text;
        let mut calls = Vec::new();
        let mut pos = at;
        loop {
            let rest = &text[pos..];
            let start = pos + (rest.len() - rest.trim_start().len());
            if !text[start..].starts_with('.') {
                break;
            }
            let bytes = text.as_bytes();
            let mut end = start + 1;
            let mut depth = 0usize;
            while end < text.len() {
                match bytes[end] {
                    b'(' | b'[' => depth += 1,
                    b')' | b']' if depth > 0 => depth -= 1,
                    b'\n' if depth > 0 => return None,
                    b'"' => {
                        // Past the string literal.
                        end += 1;
                        while end < text.len() && bytes[end] != b'"' {
                            end += if bytes[end] == b'\\' { 2 } else { 1 };
                        }
                    }
                    b'.' | b';' | b',' | b')' | b']' | b'}' | b' ' | b'\n' if depth == 0 => break,
                    _ => {}
                }
                end += 1;
            }
            let end = end.min(text.len());
            calls.push(&text[start..end]);
            pos = end;
        }
        Some((calls, pos))
    }

    /// [`FixCx::replace_laid_out`], where `start..end` may be the whole body of a closure
    /// (`.map_err(|e| <here>)`) that `code` makes too long for its line: laid out as rustfmt
    /// lays out such a closure and the method chain it is an argument of.
    fn replace_in_closure_laid_out(&self, (start, end): (usize, usize), code: &str) -> Edit {
        self.closure_body_block((start, end), code)
            .or_else(|| self.chain_closure_block((start, end), code))
            .unwrap_or_else(|| self.replace_laid_out((start, end), code))
    }

    /// Replace `start..end` with `code` laid out as rustfmt would there.
    fn replace_laid_out(&self, (start, end): (usize, usize), code: &str) -> Edit {
        if let Some(edit) = self.arm_laid_out((start, end), code) {
            return edit;
        }
        let indent = self.indent_at(start).len();
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let before = self.text[line_start..start].trim_end();
        let after_return = before
            .strip_suffix("return")
            .is_some_and(|b| !b.ends_with(|c: char| c.is_alphanumeric() || c == '_'));
        let (col, trail) = (self.column_at(start), self.rest_of_line(end));
        let laid = if after_return {
            layout::return_operand_at(code, indent, col, trail)
        } else {
            layout::expr_at(code, indent, col, trail)
        };
        self.replace((start, end), laid)
    }

    /// `start..end` replaced by `code` inside the one-line body of a match arm, the body laid out
    /// as rustfmt lays out an arm ([`layout::arm_body_at`]; a block drops the arm's comma).
    /// `None` when the range is in no such arm.
    fn arm_laid_out(&self, (start, end): (usize, usize), code: &str) -> Option<Edit> {
        // An arm whose body holds the range is in the blocks that hold it.
        let arm = self.innermost_arm((start, end), |arm, (start, end)| {
            let (s, e) = range(&*arm.body);
            s <= start && end <= e
        })?;
        let (body_start, body_end) = range(&*arm.body);
        let written = self.text.get(body_start..body_end)?;
        let before = self.text[..body_start].trim_end_matches([' ', '\t']);
        // A `return` body is laid out where the target is (a block would need its `;`).
        if written.contains('\n')
            || !before.ends_with("=>")
            || matches!(&*arm.body, Expr::Block(_) | Expr::Return(_))
        {
            return None;
        }
        let body = format!(
            "{}{code}{}",
            &written[..start - body_start],
            &written[end - body_start..]
        );
        let comma = arm.comma.as_ref().map(range);
        let indent = self.indent_at(body_start).len();
        let col = self.column_at(body_start);
        let trail =
            usize::from(comma.is_some()) + self.rest_of_line(comma.map_or(body_end, |c| c.1));
        Some(match layout::arm_body_at(&body, indent, col, trail) {
            layout::ArmBody::SameLine(laid) => self.replace((body_start, body_end), laid),
            layout::ArmBody::Block(block) => {
                self.replace((body_start, comma.map_or(body_end, |c| c.1)), block)
            }
        })
    }

    /// `let x = receiver.map_err(|e| target)?;` with `target`, the closure's whole body, replaced
    /// by `value` that no longer fits where it was, laid out as rustfmt would: the chain laid
    /// out after the `=` and on the next line ([`Chain::laid_out`]), and rustfmt's `choose_rhs`
    /// between the two. Only for a receiver that is not itself a method chain (one whose
    /// arguments rustfmt broke is laid out again); `None` otherwise (the value is laid out
    /// where it stands).
    fn closure_body_block(&self, (start, end): (usize, usize), value: &str) -> Option<Edit> {
        let (form, false) = self.find(&[]).try_form? else {
            return None;
        };
        let Expr::MethodCall(call) = &*form.try_expr.expr else {
            return None;
        };
        // A receiver that is no chain itself (`.await`, a field or a method call would be one
        // more link, laid out by other rules).
        if form.handler.is_none_or(|h| range(h) != (start, end))
            || !matches!(
                &*call.receiver,
                Expr::Call(_) | Expr::Path(_) | Expr::Macro(_)
            )
        {
            return None;
        }
        let (receiver_start, receiver_end) = range(&*call.receiver);
        let (_, try_end) = range(form.try_expr);
        let written = self.text.get(receiver_start..receiver_end)?;
        let dot = receiver_end + self.text[receiver_end..].find('.')?;
        let (head, tail) = (self.text.get(dot..start)?, self.text.get(end..try_end)?);
        // A closure rustfmt had put on a line of its own inside the call (`.map_err(\n |e| ..,\n)`)
        // is laid out again from one line.
        let (head, tail) = match head.split_once('\n') {
            Some((open, params)) if open.ends_with('(') && !spans_or_comments(params.trim()) => {
                let close = tail.trim_start().trim_start_matches(',').trim_start();
                (format!("{open}{}", params.trim_start()), close.to_string())
            }
            _ => (head.to_string(), tail.to_string()),
        };
        let (head, tail) = (head.as_str(), tail.as_str());
        // A call whose arguments rustfmt had broken is laid out again from one line; the call
        // after it must stand on the receiver's last line.
        let receiver = match written.contains('\n') {
            true if !spans_or_comments(&written.replace('\n', " ")) => {
                layout::flat(written).unwrap_or_else(|| written.to_string())
            }
            true => return None,
            false => written.to_string(),
        };
        let receiver = receiver.as_str();
        if [head, tail].iter().any(|t| t.contains('\n'))
            || !self.text[receiver_end..dot].trim().is_empty()
        {
            return None;
        }
        let (eq_end, indent) = self.let_of(range(form.try_expr))?;
        let trail = self.rest_of_line(try_end);
        let tries = tail.len() - tail.trim_end_matches('?').len();
        let (open, params) = head.split_at(head.find('(')? + 1);
        let chain = Chain {
            root: receiver,
            links: &[],
            head: open,
            params,
            value,
            close: &tail[..tail.len() - tries],
            tries,
        };
        let replacement = self.let_value(&chain, eq_end, indent, trail)?;
        let replacement = format!("{replacement}{}", "?".repeat(tries));
        Some(self.replace((eq_end, try_end), replacement))
    }

    /// The `let` whose value is `init`: where its `=` ends, and its indentation.
    fn let_of(&self, init: (usize, usize)) -> Option<(usize, usize)> {
        struct Lets<'a>(Option<&'a syn::Local>, (usize, usize));
        impl<'a> Visit<'a> for Lets<'a> {
            fn visit_local(&mut self, l: &'a syn::Local) {
                if l.init.as_ref().is_some_and(|i| range(&*i.expr) == self.1) {
                    self.0 = Some(l);
                }
                visit::visit_local(self, l);
            }
            fn visit_item(&mut self, _: &'a Item) {}
        }
        let mut lets = Lets(None, init);
        lets.visit_block(self.located.body);
        let local = lets.0?;
        let (_, eq_end) = range(&local.init.as_ref()?.eq_token);
        Some((eq_end, self.indent_at(range(local).0).len()))
    }

    /// A `let`'s value `chain` (its `?`s left out), with what follows the `=` on its line, as
    /// rustfmt's `choose_rhs` puts it: after the `=`, unless on the next line (indented) it fits
    /// and is better there ([`prefer_next_line`]).
    fn let_value(
        &self,
        chain: &Chain,
        eq_end: usize,
        indent: usize,
        trail: usize,
    ) -> Option<String> {
        let inner = indent + 4;
        let orig = chain.laid_out(self.column_at(eq_end) + 1, indent, trail);
        let next = chain.laid_out(inner, inner, trail);
        Some(match (orig, next) {
            (Some(orig), _) if !orig.contains('\n') => format!(" {orig}"),
            (Some(orig), Some(next)) if !prefer_next_line(&orig, &next) => format!(" {orig}"),
            (_, Some(next)) => format!("\n{}{next}", pad(inner)),
            (Some(orig), None) => format!(" {orig}"),
            (None, None) => return None,
        })
    }

    /// `receiver.method(|e| target)?` in a method chain, `target` (the closure's whole body)
    /// replaced by `value`, which no longer fits on its line: laid out as rustfmt does. A
    /// closure whose body is a call takes a block when the call does not fit on one line
    /// (`closures.rs`, `rewrite_closure_expr`), so the closure becomes `|e| {\n value\n}`. A
    /// call in the middle of a chain, or after a root rustfmt broke over lines, keeps its line
    /// and takes its block under it; the chain's last call after a root on one line is laid out
    /// with the chain by rustfmt's rules ([`Chain::laid_out`]), and a match arm's body goes into
    /// a block on the next line when rustfmt prefers it there. `None` for other shapes (a link
    /// or the root over several lines, a comment).
    fn chain_closure_block(&self, (start, end): (usize, usize), value: &str) -> Option<Edit> {
        self.chain_closure_laid_out((start, end), value, false)
    }

    /// `.map_err(Error::invalid_params)` made `.map_err(|e| <value>)`, laid out as a closure
    /// the fix lengthened ([`Self::chain_closure_block`]), or in place when it fits.
    fn point_free_closure(&self, (start, end): (usize, usize), value: &str) -> Edit {
        self.chain_closure_laid_out((start, end), value, true)
            .unwrap_or_else(|| {
                let closure = format!("|{POINT_FREE_BINDING}| {value}");
                self.replace_laid_out((start, end), &closure)
            })
    }

    /// [`Self::chain_closure_block`]; with `point_free`, `start..end` is the fn path given to the
    /// call, to become a closure of `value`.
    fn chain_closure_laid_out(
        &self,
        (start, end): (usize, usize),
        value: &str,
        point_free: bool,
    ) -> Option<Edit> {
        struct Calls<'a>(
            Option<(&'a syn::ExprMethodCall, usize)>,
            (usize, usize),
            bool,
        );
        impl<'a> Visit<'a> for Calls<'a> {
            fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
                match (m.args.first(), m.args.len(), self.2) {
                    (Some(Expr::Closure(c)), 1, false) if range(&*c.body) == self.1 => {
                        self.0 = Some((m, range(c).0));
                    }
                    (Some(arg @ Expr::Path(_)), 1, true) if range(arg) == self.1 => {
                        self.0 = Some((m, self.1 .0));
                    }
                    _ => {}
                }
                visit::visit_expr_method_call(self, m);
            }
            fn visit_item(&mut self, _: &'a Item) {}
        }
        let mut calls = Calls(None, (start, end), point_free);
        calls.visit_block(self.located.body);
        let (call, closure_start) = calls.0?;
        let new_params = format!("|{POINT_FREE_BINDING}| ");
        // What the edit puts before the body: the closure's parameters, when the fix writes them.
        let lead_in = if point_free { new_params.as_str() } else { "" };
        // A value rustfmt cannot keep on one line takes a block wherever it stands.
        let flat = layout::flat(value);
        // The `?`s after the call.
        let tries_after = self.text[end..]
            .trim_start_matches(')')
            .chars()
            .take_while(|c| *c == '?')
            .count();
        // The value stays where it is when it fits there: on its root's line the call's `?`s
        // count three times (see `Chain::laid_out`), and a chain of more than one call stays
        // within `chain_width` (60).
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let on_root_line = !self.text[line_start..start].trim_start().starts_with('.');
        let chain_start = chain_links(&call.receiver, self.text)
            .filter(|(_, links)| on_root_line && !links.is_empty())
            .map(|(root, _)| self.column_at(range(root).0));
        if flat.as_ref().is_some_and(|flat| {
            let end_col =
                self.column_at(start) + lead_in.len() + flat.len() + self.rest_of_line(end);
            end_col + tries_after * if on_root_line { 2 } else { 1 } <= layout::MAX_WIDTH
                && chain_start.is_none_or(|c| {
                    end_col - self.rest_of_line(range(call).1) - c + 2 * tries_after
                        <= layout::CHAIN_WIDTH
                })
        }) {
            return None;
        }
        let text = self.text;
        let (_, receiver_end) = range(&*call.receiver);
        let (_, call_end) = range(call);
        let dot = receiver_end + text[receiver_end..].find('.')?;
        // A closure rustfmt had put on a line of its own inside the call (`.map_err(\n |e| ..,\n)`)
        // is laid out again from one line.
        let head = text.get(dot..closure_start)?;
        let params = if point_free {
            new_params.as_str()
        } else {
            text.get(closure_start..start)?
        };
        let close = text.get(end..call_end)?;
        let own_line_closure = head.trim_end().ends_with('(') && head.trim_end().len() < head.len();
        let (head, close) = if own_line_closure && !spans_or_comments(head.trim_end()) {
            let close = close.trim_start().trim_start_matches(',').trim_start();
            (head.trim_end(), close)
        } else {
            (head, close)
        };
        if [head, params, close].iter().any(|t| spans_or_comments(t)) {
            return None;
        }
        let after = &text[call_end..];
        let tries = after.len() - after.trim_start_matches('?').len();
        let block = |indent: usize| {
            let laid = layout::expr_at(value, indent + 4, indent + 4, 0);
            format!(
                "{{\n{}{laid}\n{}}}",
                " ".repeat(indent + 4),
                " ".repeat(indent)
            )
        };
        let line_start = text[..dot].rfind('\n').map_or(0, |i| i + 1);
        let own_line = text[line_start..dot].trim().is_empty();
        // A call in the middle of the chain: its block under it.
        if after[tries..].trim_start().starts_with('.') {
            return own_line.then(|| {
                self.replace(
                    (start, end),
                    format!("{lead_in}{}", block(self.indent_at(dot).len())),
                )
            });
        }
        let (root, links) = chain_links(&call.receiver, text)?;
        let (root_start, _) = range(root);
        let root_text = text.get(range(root).0..range(root).1)?;
        // A root whose arguments rustfmt broke ends with a block: the calls after it stand one
        // per line (`chains.rs`: not all in one line), the last too; its closure's block goes
        // under it.
        if own_line && root_text.contains('\n') && !root_text.contains("//") {
            return Some(self.replace(
                (start, end),
                format!("{lead_in}{}", block(self.indent_at(dot).len())),
            ));
        }
        if spans_or_comments(root_text)
            || !text[root_start..dot]
                .lines()
                .skip(1)
                .all(|l| l.trim().is_empty() || l.trim_start().starts_with('.'))
        {
            return None;
        }
        let chain = Chain {
            root: root_text,
            links: &links,
            head,
            params,
            value,
            close,
            tries,
        };
        // rustfmt gives a `return`'s operand one column less (see `layout::return_operand_at`).
        let after_return = self.text[..root_start]
            .trim_end_matches([' ', '\t'])
            .strip_suffix("return")
            .is_some_and(|b| !b.ends_with(|c: char| c.is_alphanumeric() || c == '_'));
        let trail = self.rest_of_line(call_end + tries) + usize::from(after_return);
        // A match arm's block that holds only the chain: rustfmt flattens it (`matches.rs`,
        // `flatten_arm_body`) and puts the chain on the arm's line when it is no better in
        // the block.
        if let Some((arm_start, (block_start, block_end))) =
            self.arm_block_of((root_start, call_end + tries))
        {
            let (arm_indent, inner) = (
                self.indent_at(arm_start).len(),
                self.indent_at(root_start).len(),
            );
            let orig = chain.laid_out(self.column_at(block_start), arm_indent, ",".len());
            let next = chain.laid_out(inner, inner, 0)?;
            return Some(match orig {
                Some(orig) if !orig.contains('\n') || !prefer_next_line(&orig, &next) => {
                    let comma = if self.text[block_end..].trim_start().starts_with(',') {
                        ""
                    } else {
                        ","
                    };
                    let tries = "?".repeat(tries);
                    self.replace((block_start, block_end), format!("{orig}{tries}{comma}"))
                }
                _ => self.replace((root_start, call_end), next),
            });
        }
        // A `let`'s value goes after the `=` or on the next line.
        if let Some((eq_end, indent)) = self.let_of((root_start, call_end + tries)) {
            let replacement = self.let_value(&chain, eq_end, indent, trail)?;
            return Some(self.replace((eq_end, call_end), replacement));
        }
        let (indent, lead) = (self.indent_at(root_start).len(), self.column_at(root_start));
        // The chain's width: the line's, less what follows the chain there (`;`, `,`).
        let replacement = chain.laid_out(lead, indent, trail)?;
        // The body of a match arm goes into a block on the next line when it is better there
        // (`matches.rs`, `rewrite_match_body`: rustfmt's `prefer_next_line`).
        if let Some(arm) = self.arm_with_body((root_start, call_end + tries)) {
            let on_arm_line = self.text[..root_start]
                .trim_end_matches([' ', '\t'])
                .ends_with("=>");
            let inner = indent + 4;
            let next = chain.laid_out(inner, inner, 0)?;
            if on_arm_line && replacement.contains('\n') && prefer_next_line(&replacement, &next) {
                let end = arm.comma.as_ref().map_or(call_end + tries, |c| range(c).1);
                let tries = "?".repeat(tries);
                return Some(self.replace(
                    (root_start, end),
                    format!("{{\n{}{next}{tries}\n{}}}", pad(inner), pad(indent)),
                ));
            }
        }
        Some(self.replace((root_start, call_end), replacement))
    }

    /// The match arm whose body is a block holding only `expr` (no statement, no comment): where
    /// the arm starts, and the block.
    fn arm_block_of(&self, expr: (usize, usize)) -> Option<(usize, (usize, usize))> {
        let arm = self.innermost_arm(expr, |arm, target| {
            matches!(&*arm.body, Expr::Block(b)
                if b.label.is_none()
                    && b.attrs.is_empty()
                    && matches!(b.block.stmts.as_slice(), [syn::Stmt::Expr(e, None)] if range(e) == target))
        })?;
        let block = range(&*arm.body);
        let inside = |r: std::ops::Range<usize>| {
            self.text
                .get(r)
                .is_some_and(|t| !t.contains("//") && !t.contains("/*"))
        };
        let on_arm_line = self.text[..block.0]
            .trim_end_matches([' ', '\t'])
            .ends_with("=>");
        (on_arm_line && inside(block.0..expr.0) && inside(expr.1..block.1))
            .then(|| (range(arm).0, block))
    }

    /// The match arm whose body is `body`.
    fn arm_with_body(&self, body: (usize, usize)) -> Option<&'m syn::Arm> {
        self.innermost_arm(body, |arm, target| range(&*arm.body) == target)
    }

    /// The innermost match arm around `target` (searched in the blocks that hold it) for which
    /// `is(arm, target)` holds.
    fn innermost_arm(
        &self,
        target: (usize, usize),
        is: fn(&syn::Arm, (usize, usize)) -> bool,
    ) -> Option<&'m syn::Arm> {
        struct Arms<'a, 'x> {
            target: (usize, usize),
            extents: &'x BlockExtents,
            is: fn(&syn::Arm, (usize, usize)) -> bool,
            found: Option<&'a syn::Arm>,
        }
        impl<'a> Visit<'a> for Arms<'a, '_> {
            fn visit_arm(&mut self, arm: &'a syn::Arm) {
                if (self.is)(arm, self.target) {
                    self.found = Some(arm);
                }
                visit::visit_arm(self, arm);
            }
            searches_around_target!('a);
            fn visit_item(&mut self, _: &'a Item) {}
        }
        let mut arms = Arms {
            target,
            extents: &self.extents,
            is,
            found: None,
        };
        arms.visit_block(self.located.body);
        arms.found
    }

    /// `receiver.map_err(|e| site)?` → `match receiver { Ok(value) => value, Err(e) => <arm> }`,
    /// laid out as rustfmt does. The receiver keeps its text; only the line breaks of a method
    /// chain change when the chain now fits on the `match` line (or, broken, goes under it).
    fn match_edits(&self, form: &TryForm<'_>, arm: &str) -> Vec<Edit> {
        let (receiver_start, receiver_end) = range(form.receiver);
        let (try_start, try_end) = range(form.try_expr);
        // `let x =\n    value.map_err(..)?;`, broken after `=` because the call did not fit: the
        // `match` goes up to the `let` line, as rustfmt puts it.
        let before = self.text[..receiver_start].trim_end_matches([' ', '\t']);
        let hang = (before.ends_with('\n') && before.trim_end().ends_with('='))
            .then(|| before.trim_end().len());
        let receiver = &self.text[receiver_start..receiver_end];
        // `let x = value.map_err(..)?;` on one line: the `=` the `match` may go after.
        let let_line = before[before.rfind('\n').map_or(0, |i| i + 1)..].trim_start();
        let assign = hang.or_else(|| {
            (let_line.starts_with("let ") && before.ends_with(" =")).then_some(before.len())
        });
        let (ok_arm, err_arm) = match &form.err_pattern {
            Some(p) => ("Ok(value) => value".to_string(), format!("Err({p})")),
            None => ("Some(value) => value".to_string(), "None".to_string()),
        };
        // Where the `match` goes, as rustfmt's `choose_rhs` puts a `let`'s right-hand side:
        // after the `=`, unless on the next line (indented) its first line fits within the
        // width less what follows the statement (`;`) and it is better there: two lines fewer,
        // or a first line that no longer ends with `(`, `{` or `[`.
        let (head_start, space, indent, (scrutinee, brace)) = match assign {
            Some(eq_end) => {
                let indent = self.indent_at(eq_end);
                let on_let = self.scrutinee(receiver, self.column_at(eq_end) + 1, &indent);
                let next_indent = format!("{indent}    ");
                let on_next = self.scrutinee(receiver, next_indent.len(), &next_indent);
                let head = |(cond, brace): &(String, String)| format!("match {cond}{brace}");
                let (orig, next) = (head(&on_let), head(&on_next));
                let first = |s: &str| s.lines().next().unwrap_or_default().to_string();
                let fits_next =
                    next_indent.len() + first(&next).chars().count() + self.rest_of_line(try_end)
                        <= layout::MAX_WIDTH;
                let lines = |head: &str, indent: usize| {
                    head.matches('\n').count()
                        + self
                            .arm_body(form, arm, &err_arm, indent + 4)
                            .matches('\n')
                            .count()
                };
                let ends = |s: &str, c: char| first(s).trim_end().ends_with(c);
                let better = lines(&orig, indent.len()) > lines(&next, next_indent.len()) + 1
                    || ['(', '{', '[']
                        .iter()
                        .any(|c| ends(&orig, *c) && !ends(&next, *c));
                if fits_next && better {
                    (eq_end, format!("\n{next_indent}"), next_indent, on_next)
                } else if &self.text[eq_end..receiver_start] == " " {
                    (receiver_start, String::new(), indent, on_let)
                } else {
                    (eq_end, " ".to_string(), indent, on_let)
                }
            }
            None => {
                let indent = self.indent_at(try_start);
                let at = self.scrutinee(receiver, self.column_at(receiver_start), &indent);
                (receiver_start, String::new(), indent, at)
            }
        };
        let arm_body = self.arm_body(form, arm, &err_arm, indent.len() + 4);
        let comma = if arm_body.ends_with('}') { "" } else { "," };
        // `x.map_err(..)?.len()`: a chain goes on after the `match`, under it; at the start of
        // a statement the `match` needs parentheses to be an expression.
        let rest = &self.text[try_end..];
        let postfix = rest.trim_start().starts_with(['.', '?', '[']);
        let starts_statement = self.text[..receiver_start]
            .trim_end()
            .chars()
            .last()
            .is_none_or(|c| matches!(c, ';' | '{' | '}'));
        let (open, close) = if postfix && (starts_statement || !rest.trim_start().starts_with('.'))
        {
            ("(", ")")
        } else {
            ("", "")
        };
        // After a `match`, rustfmt puts each call of the chain on a line of its own.
        let (after_end, after) = match self.postfix_calls(try_end) {
            Some((calls, end)) if postfix && open.is_empty() && !calls.is_empty() => {
                let lines: String = calls.iter().map(|c| format!("\n{indent}{c}")).collect();
                (end, lines)
            }
            _ => (try_end, String::new()),
        };
        let tail = format!(
            "{brace}\n{indent}    {ok_arm},\n{indent}    {err_arm} => {arm_body}{comma}\n{indent}}}{close}{after}"
        );
        if scrutinee == receiver {
            vec![
                self.replace((head_start, receiver_start), format!("{space}{open}match ")),
                self.replace((receiver_end, after_end), tail),
            ]
        } else {
            vec![self.replace(
                (head_start, after_end),
                format!("{space}{open}match {scrutinee}{tail}"),
            )]
        }
    }

    /// The body of the `match`'s error arm (`err_arm`, at `arm_indent`): the closure's block with
    /// the site replaced by `return <arm>`, so statements and comments in it stay; or just the
    /// return, in a block when it does not fit on the arm's line.
    fn arm_body(&self, form: &TryForm<'_>, arm: &str, err_arm: &str, arm_indent: usize) -> String {
        // The arm: the closure's block with the site replaced, so statements and comments in it
        // stay; or just the return.
        // A block with more than the site in it (statements, comments) is kept around it.
        let keeps_block = |b: &syn::ExprBlock| {
            let (block_start, block_end) = range(b);
            let (site_start, site_end) = range(form.site);
            let around = |r: std::ops::Range<usize>| {
                self.text.get(r).is_none_or(|t| {
                    t.trim_matches(|c: char| c.is_whitespace() || c == '{' || c == '}')
                        .is_empty()
                })
            };
            !(around(block_start..site_start) && around(site_end..block_end))
        };
        match form.handler {
            Some(Expr::Block(b)) if keeps_block(b) => {
                let (block_start, block_end) = range(b);
                let (site_start, site_end) = range(form.site);
                // Lines after the first move with the arm: shift them from where they were
                // written to the arm's indentation (unless a string literal spans lines there:
                // its text would change).
                let was = self.indent_at(block_start);
                let delta = arm_indent as isize - was.len() as isize;
                let shifts = self
                    .text
                    .get(block_start..block_end)
                    .is_some_and(|w| !spans_lines_in_literal(w) && !was.contains('\t'));
                let delta = if shifts { delta } else { 0 };
                let site_indent = (self.indent_at(site_start).len() as isize + delta).max(0);
                let site_col = (self.column_at(site_start) as isize + delta).max(0) as usize;
                let laid = layout::expr_at(
                    arm,
                    site_indent as usize,
                    site_col + "return ".len(),
                    self.rest_of_line(site_end),
                );
                // The site's text is laid out at its new place; the text around it shifts. As
                // the block's last statement, the `return` takes a semicolon (rustfmt adds it).
                let after = &self.text[site_end..block_end];
                let semi = if after.trim_start().starts_with('}') {
                    ";"
                } else {
                    ""
                };
                format!(
                    "{}return {laid}{semi}{}",
                    reindent(&self.text[block_start..site_start], delta),
                    reindent(after, delta)
                )
            }
            _ => {
                let lead = arm_indent + err_arm.len() + " => return ".len();
                match layout::flat(arm) {
                    Some(flat) if lead + flat.len() < layout::MAX_WIDTH => {
                        format!("return {flat}")
                    }
                    _ => {
                        let inner = arm_indent + 4;
                        let laid = layout::expr_at(arm, inner, inner + "return ".len(), 0);
                        format!(
                            "{{\n{}return {laid}\n{}}}",
                            " ".repeat(inner),
                            " ".repeat(arm_indent)
                        )
                    }
                }
            }
        }
    }

    /// The receiver as the scrutinee of a `match` at column `col`, and what opens the arms, as
    /// rustfmt's `rewrite_match`: the scrutinee gets the line's width after `match ` (whatever
    /// follows the `match`), laid out as rustfmt lays out a chain ([`chain_at`]); the brace
    /// stays on its last line when that line only closes delimiters, or when the scrutinee is one
    /// line and ` {` fits after it; else it goes under `match`. A receiver with a comment, or a
    /// link over several lines, keeps its text: a chain rustfmt had broken joins the `match`
    /// line when it fits there, else keeps one call per line with the brace under `match`.
    fn scrutinee(&self, receiver: &str, col: usize, indent: &str) -> (String, String) {
        let width = layout::MAX_WIDTH.saturating_sub(col + "match ".len());
        if let Some(cond) = chain_at(receiver, indent.len(), col + "match ".len()) {
            let brace = if last_line_extendable(&cond) {
                " {".to_string()
            } else if cond.contains('\n') || cond.chars().count() + " {".len() > width {
                format!("\n{indent}{{")
            } else {
                " {".to_string()
            };
            return (cond, brace);
        }
        let lines: Vec<&str> = receiver.split('\n').collect();
        let chain = lines.len() > 1
            && !receiver.contains("//")
            && lines[1..].iter().all(|l| l.trim_start().starts_with('.'));
        // A call whose arguments rustfmt had broken goes back on one line when it fits there.
        let flat = if chain {
            lines.iter().map(|l| l.trim()).collect::<String>()
        } else if lines.len() > 1 && !receiver.contains("//") {
            layout::flat(receiver).unwrap_or_else(|| receiver.to_string())
        } else {
            receiver.to_string()
        };
        let col = col + "match ".len();
        if !flat.contains('\n') && col + flat.len() <= layout::MAX_WIDTH {
            let brace = if col + flat.len() + " {".len() <= layout::MAX_WIDTH {
                " {".to_string()
            } else {
                format!("\n{indent}{{")
            };
            return (flat, brace);
        }
        if chain {
            let mut text = lines[0].trim_end().to_string();
            for l in &lines[1..] {
                text.push_str(&format!("\n{indent}    {}", l.trim()));
            }
            return (text, format!("\n{indent}{{"));
        }
        // `match f(\n ..\n) {`: after closing delimiters the brace stays on the line.
        let last = lines.last().copied().unwrap_or_default().trim();
        if last.chars().all(|c| matches!(c, ')' | ']' | '}' | '?')) {
            (receiver.to_string(), " {".to_string())
        } else {
            (receiver.to_string(), format!("\n{indent}{{"))
        }
    }
}

/// The names a `let` pattern binds: a plain name, or the names of a tuple pattern (`true`).
fn let_bindings(pat: &syn::Pat) -> Vec<(&syn::Ident, bool)> {
    fn plain(p: &syn::Pat) -> Option<&syn::Ident> {
        match p {
            syn::Pat::Ident(i) if i.by_ref.is_none() && i.subpat.is_none() => Some(&i.ident),
            _ => None,
        }
    }
    match pat {
        syn::Pat::Type(t) => let_bindings(&t.pat),
        syn::Pat::Tuple(t) => t
            .elems
            .iter()
            .filter_map(plain)
            .map(|i| (i, true))
            .collect(),
        p => plain(p).map(|i| (i, false)).into_iter().collect(),
    }
}

/// A value computed without effects: a path, a literal, a reference to one, or a `match` over
/// a place whose arms (without guards) are such values.
fn is_constant(expr: &Expr) -> bool {
    match expr {
        Expr::Path(_) | Expr::Lit(_) => true,
        Expr::Reference(r) => is_constant(&r.expr),
        Expr::Paren(p) => is_constant(&p.expr),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => is_constant(&u.expr),
        Expr::Match(m) => {
            is_constant(&m.expr)
                && m.arms
                    .iter()
                    .all(|a| a.guard.is_none() && is_constant(&a.body))
        }
        _ => false,
    }
}

/// `text` (which starts at byte `offset` of the file) with `edits` applied.
fn apply_inside(text: &str, offset: usize, edits: &[Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| std::cmp::Reverse(e.start));
    let mut out = text.to_string();
    for e in sorted {
        if let (Some(s), Some(t)) = (e.start.checked_sub(offset), e.end.checked_sub(offset)) {
            if s <= t && t <= out.len() {
                out.replace_range(s..t, &e.replacement);
            }
        }
    }
    out
}

/// An error value in scope and the call that produced it.
struct ErrorScope {
    binding: String,
    /// The callee's name (`read_to_string`).
    callee: Option<String>,
    /// Its first argument when it is a name or field (`args.path` of `&args.path`).
    argument: Option<String>,
    /// The error is one an adapter made (`.map_err(..)`, `.ok_or_else(..)`): its own text.
    adapted: bool,
}

/// Methods that replace a call's error with one they make.
const ERROR_ADAPTERS: &[&str] = &[
    "map_err",
    "ok_or",
    "ok_or_else",
    "context",
    "with_context",
    "wrap_err",
    "wrap_err_with",
];

impl ErrorScope {
    fn new(binding: String, failed: &Expr, cx: &FixCx<'_>) -> ErrorScope {
        let mut call = crate::syntax::strip_await(failed);
        // `x.lock().map_err(..)`, `fetch(url).await`: the last call made.
        if let Expr::Try(t) = call {
            call = crate::syntax::strip_await(&t.expr);
        }
        // `read_to_string(path).map(Value::from)`: the error is the call's the adapter is on.
        while let Expr::MethodCall(m) = call {
            let keeps_error = matches!(
                m.method.to_string().as_str(),
                "map"
                    | "map_ok"
                    | "as_ref"
                    | "as_deref"
                    | "as_mut"
                    | "cloned"
                    | "copied"
                    | "inspect"
            );
            if !keeps_error {
                break;
            }
            call = crate::syntax::strip_await(&m.receiver);
        }
        // `.map_err(|e| format!("failed to open camera {n}: {e}"))?.map_err(|e| ..)`: the
        // error is the text an adapter made, which already says what failed.
        let adapted = matches!(call, Expr::MethodCall(m) if ERROR_ADAPTERS.contains(&m.method.to_string().as_str()));
        let (callee, first) = match call {
            _ if adapted => (None, None),
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => (last_segment(&p.path), c.args.first()),
                _ => (None, None),
            },
            Expr::MethodCall(m) => (Some(m.method.to_string()), m.args.first()),
            _ => (None, None),
        };
        let argument = first
            .map(crate::syntax::strip_refs)
            .and_then(|a| cx.source_of(a))
            .filter(|a| is_place_expression(a) && a != "self");
        ErrorScope {
            binding,
            callee,
            argument,
            adapted,
        }
    }

    /// Whether `message` is just the error value (`e.to_string()`, `e`, `format!("{e}")`).
    fn is_only_the_error(&self, message: &str) -> bool {
        let e = &self.binding;
        let compact: String = message.chars().filter(|c| !c.is_whitespace()).collect();
        [
            format!("{e}.to_string()"),
            e.clone(),
            format!("format!(\"{{{e}}}\")"),
            format!("format!(\"{{}}\",{e})"),
            format!("{e}.to_string().into()"),
        ]
        .contains(&compact)
    }

    /// `format!("read_to_string({:?}) failed: {e}", args.path)`.
    fn message(&self) -> String {
        let e = &self.binding;
        match (&self.callee, &self.argument) {
            (Some(callee), Some(arg)) => {
                format!("format!(\"{callee}({{:?}}) failed: {{{e}}}\", {arg})")
            }
            (Some(callee), None) => format!("format!(\"{callee} failed: {{{e}}}\")"),
            _ if self.adapted => format!("{e}.to_string()"),
            _ => format!("format!(\"failed: {{{e}}}\")"),
        }
    }
}

/// Names one fix writes, and the `use` lines it needs.
struct Names {
    ok_written: Option<String>,
    err_written: Option<String>,
    /// Module path → names to import from it (`name` or `name as alias`).
    uses: BTreeMap<Vec<String>, Vec<String>>,
}

impl Names {
    /// How the fn's module names `name`: the fn's own signature's spelling, an import, a glob,
    /// a type alias; else the name with a new `use`, or the full path when the name is taken.
    fn spell(&mut self, cx: &FixCx<'_>, name: &SdkName) -> String {
        let is_error = *name == cx.vocab.error;
        let written = if is_error {
            &self.err_written
        } else if *name == cx.vocab.result {
            &self.ok_written
        } else {
            &None
        };
        if let Some(w) = written {
            return w.clone();
        }
        let scope = Scope::of(&cx.located.scopes);
        if let Some(local) = scope.find(cx, name, is_error) {
            return local;
        }
        let (module, last) = match name.path.split_last() {
            Some((last, module)) => (module.to_vec(), last.clone()),
            None => return name.name.clone(),
        };
        if scope.defines(&name.name) {
            return name.path.join("::");
        }
        let entry = if last == name.name {
            last
        } else {
            format!("{last} as {}", name.name)
        };
        let list = self.uses.entry(module).or_default();
        if !list.contains(&entry) {
            list.push(entry);
        }
        name.name.clone()
    }

    /// One insertion with every missing `use`, after the last `use` of the fn's module (or
    /// before its first item).
    fn use_edit(&self, cx: &FixCx<'_>) -> Option<Edit> {
        if self.uses.is_empty() {
            return None;
        }
        let lines: Vec<String> = self
            .uses
            .iter()
            .map(|(module, names)| match names.as_slice() {
                [one] => format!("use {}::{one};", module.join("::")),
                many => format!("use {}::{{{}}};", module.join("::"), many.join(", ")),
            })
            .collect();
        let items = cx.located.scopes.last()?;
        if let Some(last_use) = items.iter().rev().find(|i| matches!(i, Item::Use(_))) {
            let (_, end) = range(last_use);
            let indent = cx.indent_at(end);
            // rustfmt sorts the `use`s of a group (no blank line between them): the new lines go
            // before the first one that sorts after them, when all do.
            let group: Vec<&Item> = {
                let at = items
                    .iter()
                    .rposition(|i| std::ptr::eq(i, last_use))
                    .unwrap_or(0);
                let mut start = at;
                while start > 0
                    && matches!(items[start - 1], Item::Use(_))
                    && !cx.text[range(&items[start - 1]).1..range(&items[start]).0].contains("\n\n")
                {
                    start -= 1;
                }
                items[start..=at].iter().collect()
            };
            let first_line = lines.first().cloned().unwrap_or_default();
            let after = group.iter().find(|u| {
                cx.source_of(**u)
                    .is_some_and(|t| t.starts_with("use ") && t.as_str() > first_line.as_str())
            });
            if let (Some(after), true) = (after, lines.len() == 1) {
                let (start, _) = range(*after);
                let line_start = cx.text[..start].rfind('\n').map_or(0, |i| i + 1);
                if cx.text[line_start..start].trim().is_empty() {
                    return Some(Edit {
                        start: line_start,
                        end: line_start,
                        replacement: format!("{indent}{first_line}\n"),
                    });
                }
            }
            let text: String = lines.iter().map(|l| format!("\n{indent}{l}")).collect();
            return Some(Edit {
                start: end,
                end,
                replacement: text,
            });
        }
        let first = items.first()?;
        let (start, _) = range(first);
        let line_start = cx.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let before = &cx.text[line_start..start];
        if before.trim().is_empty() {
            let text: String = lines.iter().map(|l| format!("{before}{l}\n")).collect();
            Some(Edit {
                start: line_start,
                end: line_start,
                replacement: text,
            })
        } else {
            Some(Edit {
                start,
                end: start,
                replacement: format!("{} ", lines.join(" ")),
            })
        }
    }
}

/// The imports and names visible in the fn's module: its own `use`s and items, and through
/// `use super::*` those of the modules around it.
struct Scope<'f> {
    imports: Vec<FileImports>,
    items: Vec<&'f [Item]>,
}

impl<'f> Scope<'f> {
    fn of(scopes: &[&'f [Item]]) -> Scope<'f> {
        let mut imports = Vec::new();
        let mut items = Vec::new();
        for module in scopes.iter().rev() {
            let mut found = FileImports::default();
            for item in module.iter() {
                if let Item::Use(u) = item {
                    collect_use(&u.tree, Vec::new(), &mut found);
                }
            }
            let glob_super = found.globs.iter().any(|g| g == &["super".to_string()]);
            imports.push(found);
            items.push(*module);
            if !glob_super {
                break;
            }
        }
        Scope { imports, items }
    }

    fn find(&self, cx: &FixCx<'_>, name: &SdkName, is_error: bool) -> Option<String> {
        let (module, last) = match name.path.split_last() {
            Some((last, module)) => (module, last),
            None => return None,
        };
        for imports in &self.imports {
            let mut sorted: Vec<(&String, &Vec<String>)> = imports.names.iter().collect();
            sorted.sort();
            for (local, path) in &sorted {
                let is_same = if is_error {
                    syn::parse_str::<syn::Type>(&path.join("::"))
                        .is_ok_and(|t| cx.dialect.is_protocol_error_type(&t))
                } else {
                    **path == name.path
                };
                if is_same {
                    return Some((*local).clone());
                }
                if path.len() < name.path.len() && name.path.starts_with(path) {
                    let rest = name.path[path.len()..].join("::");
                    return Some(format!("{local}::{rest}"));
                }
            }
            if imports
                .globs
                .iter()
                .any(|g| g.as_slice() == module || cx.vocab.preludes.contains(g))
            {
                return Some(last.clone());
            }
        }
        if is_error {
            // `type McpError = rmcp::ErrorData;` in the module.
            for items in &self.items {
                for item in items.iter() {
                    if let Item::Type(t) = item {
                        if cx.dialect.is_protocol_error_type(&t.ty) {
                            return Some(t.ident.to_string());
                        }
                    }
                }
            }
        }
        None
    }

    /// Whether the module already has an item or import called `name`.
    fn defines(&self, name: &str) -> bool {
        let item_named = |item: &Item| {
            let ident = match item {
                Item::Struct(i) => Some(&i.ident),
                Item::Enum(i) => Some(&i.ident),
                Item::Type(i) => Some(&i.ident),
                Item::Trait(i) => Some(&i.ident),
                Item::Union(i) => Some(&i.ident),
                Item::Fn(i) => Some(&i.sig.ident),
                Item::Const(i) => Some(&i.ident),
                Item::Static(i) => Some(&i.ident),
                Item::Mod(i) => Some(&i.ident),
                _ => None,
            };
            ident.is_some_and(|i| i == name)
        };
        self.imports.iter().any(|i| i.names.contains_key(name))
            || self.items.iter().any(|items| items.iter().any(item_named))
    }
}

/// Whether a string or byte-string literal in `code` spans lines.
fn spans_lines_in_literal(code: &str) -> bool {
    fn any(tokens: proc_macro2::TokenStream) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Group(g) => any(g.stream()),
            proc_macro2::TokenTree::Literal(l) => l.to_string().contains('\n'),
            _ => false,
        })
    }
    // Unlexable text: assume the worst.
    code.parse::<proc_macro2::TokenStream>().map_or(true, any)
}

/// Shift every line after the first by `delta` columns (removing at most the spaces there are).
fn reindent(text: &str, delta: isize) -> String {
    let mut lines = text.split('\n');
    let mut out = lines.next().unwrap_or_default().to_string();
    for line in lines {
        out.push('\n');
        if line.trim().is_empty() {
            out.push_str(line);
        } else if delta >= 0 {
            out.push_str(&" ".repeat(delta as usize));
            out.push_str(line);
        } else {
            let spaces = line.len() - line.trim_start_matches(' ').len();
            out.push_str(&line[spaces.min(delta.unsigned_abs())..]);
        }
    }
    out
}

/// Replace whole identifiers outside string literals: `[("McpError", "ErrorData")]`.
fn rename_idents(code: &str, renames: &[(String, String)]) -> String {
    if renames.is_empty() {
        return code.to_string();
    }
    let mut out = String::with_capacity(code.len());
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '"' {
            out.push(c);
            let mut escaped = false;
            for (_, c) in chars.by_ref() {
                out.push(c);
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => break,
                    _ => escaped = false,
                }
            }
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let word = &code[i..end];
            match renames.iter().find(|(from, _)| from == word) {
                Some((_, to)) => out.push_str(to),
                None => out.push_str(word),
            }
            continue;
        }
        out.push(c);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Errors built in helpers
//
// Fixes for a protocol error built in a helper that only tools reach: `fn internal(e) ->
// McpError` used as `.map_err(internal)?`, `Err(out_of_stock(id))` or `.ok_or_else(||
// not_found(&key))?`, and `impl From<StoreError> for McpError` reached through `?`. The helper
// is rewritten to build the SDK's isError result (its return type and its body), and each tool's
// use of it to return that result (`Err(e) => return Ok(internal(e))`), so the tools' signatures
// stay as written and the fixed code type-checks.
//
// Only where every use is one the fix rewrites: the helper's name appears nowhere else in the
// crate (another file, a value passed on, a test), each use sits where the tool returns from
// (not in a closure), in a fn whose `Ok` is the tool result.

/// The fix for `site`, a protocol error a helper only tools reach builds (see above).
fn helper_error_result(model: &Model, site: &ErrorSite) -> Option<Fix> {
    let cx = FixCx::new(model, site.span, site.file)?;
    if cx.vocab.tool_error != ToolErrorForm::OkResult {
        return None;
    }
    let target = cx.find(&[]).target?;
    // The site is the one value the helper returns.
    let body = cx.located.body;
    let is_tail = crate::syntax::tail_of(body).is_some_and(|e| range(e) == cx.target);
    if !is_tail || has_return(body) {
        return None;
    }
    let helper = Helper::of(&cx)?;
    let (message, mut applicability) = match &site.message_source {
        Some(m) if cx.vocab.message_drops_into => {
            (without_into(m), Applicability::MachineApplicable)
        }
        Some(m) => (m.clone(), Applicability::MachineApplicable),
        None => (PLACEHOLDER_TEXT.to_string(), Applicability::HasPlaceholders),
    };
    if carries_data(target) {
        applicability = applicability.max_risk(Applicability::MaybeIncorrect);
    }
    // The helper's body: the isError result the tools' `Ok` will carry.
    let snippet = code_snippet(cx.dialect.tool_error_snippet(MESSAGE_MARK, false))?;
    let value = ok_operand(&snippet)?;
    let mut names = cx.names(&Returns::default());
    let mut wanted = vec![&cx.vocab.result, &cx.vocab.content];
    wanted.extend(&cx.vocab.others);
    let value = cx
        .snippet(&value, &mut names, &wanted)
        .replace(MESSAGE_MARK, &message);
    let result = names.spell(&cx, &cx.vocab.result);
    let mut edits = vec![cx.replace_laid_out(cx.target, &value)];
    edits.extend(helper.types.iter().map(|t| cx.replace(*t, result.clone())));
    let uses = match &helper.kind {
        HelperKind::Fn { name } => {
            // Another crate may call a `pub` fn: its callers would need the same rewrite.
            if is_public(&cx) {
                applicability = applicability.max_risk(Applicability::MaybeIncorrect);
            }
            fn_uses(model, &cx, name)?
        }
        HelperKind::From => {
            // `?` is not written by name: the tool calls the model found are the uses (all of
            // them when fewer than it lists), and a conversion whose operand's type the source
            // does not show may be one more.
            applicability = applicability.max_risk(Applicability::MaybeIncorrect);
            let calls = model.conversion_calls(site.body);
            if calls.len() >= CONVERSION_CALLS {
                return None;
            }
            let mut uses = Vec::new();
            for (file, span) in calls {
                if *file != site.file {
                    return None;
                }
                uses.push(Use::Try(span.start));
            }
            uses
        }
    };
    if uses.is_empty() {
        return None;
    }
    for found in uses {
        let (more, risk) = use_edits(model, site.file, &found, &helper.kind)?;
        edits.extend(more);
        applicability = applicability.max_risk(risk);
    }
    edits.extend(names.use_edit(&cx));
    edits.sort_by_key(|e| (e.start, e.end));
    if edits.windows(2).any(|w| w[0].end > w[1].start) {
        return None;
    }
    Some(cx.finish(Fix {
        message: "build the failure as an isError tool result in the helper, and return it from the tools"
            .to_string(),
        applicability,
        edits,
    }))
}

/// The helper around the site, and the types in its header that name the protocol error.
struct Helper {
    kind: HelperKind,
    /// `-> McpError`, or `for McpError` (and a `-> McpError` written for `-> Self`).
    types: Vec<(usize, usize)>,
}

enum HelperKind {
    /// A fn (or method) used by name.
    Fn { name: String },
    /// `impl From<X> for McpError`, used by `?`.
    From,
}

impl Helper {
    fn of(cx: &FixCx<'_>) -> Option<Helper> {
        let sig = cx.located.sig;
        let syn::ReturnType::Type(_, ret) = &sig.output else {
            return None;
        };
        let is_error = |t: &syn::Type| cx.dialect.is_protocol_error_type(t);
        let is_self =
            matches!(&**ret, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("Self"));
        if let Some(imp) = enclosing_from_impl(cx) {
            if sig.ident != "from" || !is_error(&imp.self_ty) || !(is_self || is_error(ret)) {
                return None;
            }
            let mut types = vec![range(&*imp.self_ty)];
            if !is_self {
                types.push(range(&**ret));
            }
            return Some(Helper {
                kind: HelperKind::From,
                types,
            });
        }
        if !is_error(ret) || sig.asyncness.is_some() {
            return None;
        }
        Some(Helper {
            kind: HelperKind::Fn {
                name: sig.ident.to_string(),
            },
            types: vec![range(&**ret)],
        })
    }
}

/// The `impl From<..> for ..` whose `fn` holds the site.
fn enclosing_from_impl<'f>(cx: &FixCx<'f>) -> Option<&'f syn::ItemImpl> {
    let items = cx.located.scopes.last()?;
    items.iter().find_map(|item| match item {
        Item::Impl(imp) => {
            let (_, path, _) = imp.trait_.as_ref()?;
            let holds = imp
                .items
                .iter()
                .any(|ii| matches!(ii, ImplItem::Fn(f) if std::ptr::eq(&f.sig, cx.located.sig)));
            (holds && path.segments.last()?.ident == "From").then_some(imp)
        }
        _ => None,
    })
}

/// Whether the fn around the site is declared `pub`.
fn is_public(cx: &FixCx<'_>) -> bool {
    let sig = cx.located.sig;
    let items = cx.located.scopes.last().copied().unwrap_or_default();
    items.iter().any(|item| match item {
        Item::Fn(f) => std::ptr::eq(&f.sig, sig) && matches!(f.vis, syn::Visibility::Public(_)),
        Item::Impl(imp) => imp.items.iter().any(|ii| {
            matches!(ii, ImplItem::Fn(f) if std::ptr::eq(&f.sig, sig)
                && matches!(f.vis, syn::Visibility::Public(_)))
        }),
        _ => false,
    })
}

/// `Ok(<value>)` → `<value>`'s text.
fn ok_operand(snippet: &str) -> Option<String> {
    let Ok(Expr::Call(ok)) = syn::parse_str::<Expr>(snippet) else {
        return None;
    };
    match (&*ok.func, ok.args.first()) {
        (Expr::Path(p), Some(value)) if p.path.is_ident("Ok") && ok.args.len() == 1 => {
            let (start, end) = range(value);
            snippet.get(start..end).map(str::to_string)
        }
        _ => None,
    }
}

/// The local names in scope at `target` in `sig`'s `body`: the parameters (`self` with a
/// receiver), and the bindings of every `let` before it, closure, arm, `if let`, `while let`
/// and `for` around it, in the blocks that hold it. Items and statics are not locals: a message
/// naming one is judged by [`message_names`] as not a local.
fn locals_at(
    sig: &syn::Signature,
    body: &syn::Block,
    extents: &BlockExtents,
    target: (usize, usize),
) -> HashSet<String> {
    struct Locals<'x> {
        target: (usize, usize),
        extents: &'x BlockExtents,
        stack: Vec<Vec<String>>,
        found: Option<HashSet<String>>,
    }
    impl Locals<'_> {
        fn bind(&mut self, pat: &syn::Pat) {
            let names = pat_names(pat);
            if let Some(top) = self.stack.last_mut() {
                top.extend(names);
            }
        }
        fn scoped(&mut self, pats: &[&syn::Pat], visit: impl FnOnce(&mut Self)) {
            self.stack.push(Vec::new());
            for p in pats {
                self.bind(p);
            }
            visit(self);
            self.stack.pop();
        }
    }
    impl<'a> Visit<'a> for Locals<'_> {
        fn visit_expr(&mut self, e: &'a Expr) {
            let (start, end) = range(e);
            if start <= self.target.0 && self.target.1 <= end {
                // The innermost expression around the target is visited last.
                self.found = Some(self.stack.iter().flatten().cloned().collect());
                visit::visit_expr(self, e);
            }
        }
        // A block that does not hold the target binds nothing there (its extent is known
        // without a span).
        fn visit_block(&mut self, b: &'a syn::Block) {
            if self.extents.holds(b, self.target) {
                self.scoped(&[], |s| visit::visit_block(s, b));
            }
        }
        fn visit_local(&mut self, l: &'a syn::Local) {
            if let Some(init) = &l.init {
                self.visit_expr(&init.expr);
                if let Some((_, diverge)) = &init.diverge {
                    self.visit_expr(diverge);
                }
            }
            self.bind(&l.pat);
        }
        fn visit_expr_closure(&mut self, c: &'a syn::ExprClosure) {
            let pats: Vec<&syn::Pat> = c.inputs.iter().collect();
            self.scoped(&pats, |s| s.visit_expr(&c.body));
        }
        fn visit_arm(&mut self, arm: &'a syn::Arm) {
            self.scoped(&[&arm.pat], |s| {
                if let Some((_, guard)) = &arm.guard {
                    s.visit_expr(guard);
                }
                s.visit_expr(&arm.body);
            });
        }
        fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
            let Expr::Let(l) = &*i.cond else {
                return visit::visit_expr_if(self, i);
            };
            self.visit_expr(&l.expr);
            self.scoped(&[&l.pat], |s| s.visit_block(&i.then_branch));
            if let Some((_, e)) = &i.else_branch {
                self.visit_expr(e);
            }
        }
        fn visit_expr_while(&mut self, w: &'a syn::ExprWhile) {
            let Expr::Let(l) = &*w.cond else {
                return visit::visit_expr_while(self, w);
            };
            self.visit_expr(&l.expr);
            self.scoped(&[&l.pat], |s| s.visit_block(&w.body));
        }
        fn visit_expr_for_loop(&mut self, f: &'a syn::ExprForLoop) {
            self.visit_expr(&f.expr);
            self.scoped(&[&f.pat], |s| s.visit_block(&f.body));
        }
        fn visit_item(&mut self, _: &'a Item) {}
    }
    let mut params = Vec::new();
    for input in &sig.inputs {
        match input {
            syn::FnArg::Receiver(_) => params.push("self".to_string()),
            syn::FnArg::Typed(t) => params.extend(pat_names(&t.pat)),
        }
    }
    let mut locals = Locals {
        target,
        extents,
        stack: vec![params],
        found: None,
    };
    locals.visit_block(body);
    locals.found.unwrap_or_default()
}

/// The names a pattern binds (`x`, `Some(x)`, `Foo { a, b: c }`, `(x, ref y)`), without the
/// paths it matches (`None`, `Kind::A`).
fn pat_names(pat: &syn::Pat) -> Vec<String> {
    let mut names = crate::syntax::pat_idents(pat);
    // `None`, `Empty`: a unit variant or const, matched, not bound.
    names.retain(|n| !n.starts_with(char::is_uppercase));
    names
}

/// The local names a message's code reads: single-segment lowercase paths (`e`, `path` of
/// `path.display()`), `self`, and the names a format string captures (`{e}`, `{path:?}`).
/// `None` when the message does not parse.
fn message_names(message: &str) -> Option<Vec<String>> {
    struct Reads(Vec<String>);
    impl<'a> Visit<'a> for Reads {
        fn visit_expr_path(&mut self, p: &'a syn::ExprPath) {
            if let (None, Some(ident)) = (&p.qself, p.path.get_ident()) {
                let name = ident.to_string();
                if !name.starts_with(char::is_uppercase) {
                    self.0.push(name);
                }
            }
        }
        // `helper(x)`: `helper` is a fn, not a local.
        fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
            if !matches!(&*c.func, Expr::Path(_)) {
                self.visit_expr(&c.func);
            }
            for a in &c.args {
                self.visit_expr(a);
            }
        }
        fn visit_macro(&mut self, m: &'a syn::Macro) {
            let Ok(args) = m.parse_body_with(
                syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated,
            ) else {
                return;
            };
            for (i, arg) in args.iter().enumerate() {
                match arg {
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) if i == 0 => self.0.extend(format_captures(&s.value())),
                    _ => self.visit_expr(arg),
                }
            }
        }
    }
    let expr = syn::parse_str::<Expr>(message).ok()?;
    let mut reads = Reads(Vec::new());
    reads.visit_expr(&expr);
    Some(reads.0)
}

/// The names a format string captures: `e` of `{e}`, `path` of `{path:?}` (not `{}`, `{0}`,
/// `{{`).
fn format_captures(format: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = format;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if let Some(after) = rest.strip_prefix('{') {
            rest = after;
            continue;
        }
        let end = rest.find(['}', ':']).unwrap_or(rest.len());
        let name = rest[..end].trim();
        if name.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            names.push(name.to_string());
        }
        rest = &rest[end..];
    }
    names
}

/// Whether a body has a `return` of its own (closures and async blocks return elsewhere).
fn has_return(body: &syn::Block) -> bool {
    own_code_has(body, false)
}

/// Whether a body's own code (not a closure's or an async block's) has a `?` (`try_op`) or a
/// `return`.
fn own_code_has(body: &syn::Block, try_op: bool) -> bool {
    struct Has {
        found: bool,
        try_op: bool,
    }
    impl<'v> Visit<'v> for Has {
        fn visit_expr_return(&mut self, r: &'v syn::ExprReturn) {
            self.found |= !self.try_op;
            visit::visit_expr_return(self, r);
        }
        fn visit_expr_try(&mut self, t: &'v syn::ExprTry) {
            self.found |= self.try_op;
            visit::visit_expr_try(self, t);
        }
        fn visit_expr_closure(&mut self, _: &'v syn::ExprClosure) {}
        fn visit_expr_async(&mut self, _: &'v syn::ExprAsync) {}
        fn visit_item(&mut self, _: &'v Item) {}
    }
    let mut has = Has {
        found: false,
        try_op,
    };
    has.visit_block(body);
    has.found
}

/// One use of the helper in a tool.
enum Use {
    /// `internal(e)`, `self.internal(e)`, `Self::internal(e)`: the call's range.
    Call((usize, usize)),
    /// `internal` passed by name (`.map_err(internal)`): the path's range.
    Path((usize, usize)),
    /// A `?` (through the `From` impl) at this byte.
    Try(usize),
}

/// Every use of the fn helper `name`: `None` unless each mention of the name in the crate is a
/// call or path in the site's file that a fix can rewrite.
fn fn_uses(model: &Model, cx: &FixCx<'_>, name: &str) -> Option<Vec<Use>> {
    struct Uses<'n> {
        name: &'n str,
        found: Vec<Use>,
    }
    impl<'v> Visit<'v> for Uses<'_> {
        fn visit_expr(&mut self, e: &'v Expr) {
            let named = |p: &syn::Path| p.segments.last().is_some_and(|s| s.ident == self.name);
            match e {
                Expr::Call(c) if matches!(&*c.func, Expr::Path(p) if named(&p.path)) => {
                    self.found.push(Use::Call(range(e)));
                    c.args.iter().for_each(|a| self.visit_expr(a));
                }
                Expr::MethodCall(m) if m.method == self.name => {
                    self.found.push(Use::Call(range(e)));
                    self.visit_expr(&m.receiver);
                    m.args.iter().for_each(|a| self.visit_expr(a));
                }
                Expr::Path(p) if named(&p.path) => self.found.push(Use::Path(range(e))),
                _ => visit::visit_expr(self, e),
            }
        }
    }
    // Every mention, as tokens (macro bodies and `use` lines included): the definition's own
    // and the uses found, none else.
    let mut mentions = 0;
    for (i, file) in model.files.iter().enumerate() {
        let Some(source) = &file.source else { continue };
        let count = ident_count(&source.text, name)?;
        if i != cx.file.0 && count > 0 {
            return None;
        }
        if i == cx.file.0 {
            mentions = count;
        }
    }
    let mut uses = Uses {
        name,
        found: Vec::new(),
    };
    uses.visit_file(cx.syntax);
    (mentions == uses.found.len() + 1).then_some(uses.found)
}

/// How many times `name` stands as an identifier in `text`; `None` when it does not lex.
fn ident_count(text: &str, name: &str) -> Option<usize> {
    fn count(tokens: proc_macro2::TokenStream, name: &str) -> usize {
        tokens
            .into_iter()
            .map(|t| match t {
                proc_macro2::TokenTree::Group(g) => count(g.stream(), name),
                proc_macro2::TokenTree::Ident(i) => usize::from(i == name),
                _ => 0,
            })
            .sum()
    }
    if !crate::syntax::mentions_ident(text, name) {
        return Some(0);
    }
    text.parse::<proc_macro2::TokenStream>()
        .ok()
        .map(|t| count(t, name))
}

/// The edits that make one use return the helper's value as the tool's `Ok`, with how sure they
/// are: `Err(h(..))` → `Ok(h(..))`, `x.map_err(h)?` → `match x { Ok(value) => value, Err(e) =>
/// return Ok(h(e)) }` (and so `ok_or_else`, `ok_or`, `?`).
fn use_edits(
    model: &Model,
    file: crate::model::FileId,
    found: &Use,
    kind: &HelperKind,
) -> Option<(Vec<Edit>, Applicability)> {
    let at = match found {
        Use::Call(r) | Use::Path(r) => *r,
        Use::Try(start) => (*start, *start),
    };
    let cx = FixCx::at(model, file, at)?;
    let returns = cx.returns()?;
    let into = match returns.ok_kind? {
        OkKind::Result => "",
        OkKind::Wrapped => ".into()",
    };
    if let (Use::Try(start), HelperKind::From) = (found, kind) {
        let (try_expr, nested) = try_at(cx.located.body, *start)?;
        if nested {
            return None;
        }
        let form = TryForm {
            try_expr,
            receiver: &try_expr.expr,
            err_pattern: Some("e".to_string()),
            handler: None,
            site: &try_expr.expr,
        };
        let arm = format!("Ok(e.into(){into})");
        return Some((
            cx.match_edits(&form, &arm),
            Applicability::MachineApplicable,
        ));
    }
    let written = cx.text.get(at.0..at.1)?;
    let found_at = cx.find(&[]);
    match (found, found_at.err_call, found_at.try_form) {
        // `Err(h(..))` returned by the tool.
        (Use::Call(_), Some((call, false)), _) => {
            if !returned_ranges(cx.located.body, &cx.extents, cx.target).contains(&range(call)) {
                return None;
            }
            let mut edits = vec![cx.replace(range(&*call.func), "Ok".to_string())];
            if !into.is_empty() {
                edits.push(cx.replace((at.1, at.1), into.to_string()));
            }
            Some((edits, Applicability::MachineApplicable))
        }
        // `.map_err(h)?` (the error bound as `e`), `.map_err(|e| h(e))?`, `.ok_or_else(|| h())?`.
        (Use::Path(_), _, Some((form, false))) if form.err_pattern.as_deref() == Some("e") => {
            let arm = format!("Ok({written}(e){into})");
            Some((cx.match_edits(&form, &arm), form_risk(&form, &cx)))
        }
        (Use::Call(_), None, Some((form, false))) => {
            let arm = format!("Ok({written}{into})");
            Some((cx.match_edits(&form, &arm), form_risk(&form, &cx)))
        }
        _ => None,
    }
}

/// MaybeIncorrect when the `match` assumes a `Result` the source does not show.
fn form_risk(form: &TryForm<'_>, cx: &FixCx<'_>) -> Applicability {
    if form.evident(cx) {
        Applicability::MachineApplicable
    } else {
        Applicability::MaybeIncorrect
    }
}

/// The `?` at byte `start` of `body` (its operand or its `?` starts there), and whether it sits in
/// a closure or async block.
fn try_at(body: &syn::Block, start: usize) -> Option<(&syn::ExprTry, bool)> {
    struct TryAt<'a> {
        start: usize,
        nested: usize,
        found: Option<(&'a syn::ExprTry, bool)>,
    }
    impl<'a> Visit<'a> for TryAt<'a> {
        fn visit_expr_try(&mut self, t: &'a syn::ExprTry) {
            if self.found.is_none()
                && (range(t).0 == self.start || range(&t.question_token).0 == self.start)
            {
                self.found = Some((t, self.nested > 0));
            }
            visit::visit_expr_try(self, t);
        }
        counts_nesting!('a);
        fn visit_item(&mut self, _: &'a Item) {}
    }
    let mut finder = TryAt {
        start,
        nested: 0,
        found: None,
    };
    finder.visit_block(body);
    finder.found
}

/// Whether `text` spans lines or holds a comment.
fn spans_or_comments(text: &str) -> bool {
    text.contains('\n') || text.contains("//") || text.contains("/*")
}

/// `receiver` laid out as rustfmt lays out a method chain (`chains.rs`) starting at column `at`
/// of a block indented by `indent`, with the rest of the line as its width: the root laid out
/// in that width; after a root broken over lines (block-like) the links go one per line at the
/// block's indent; after a root on one line the chain stays on the line when it fits there, and
/// within `chain_width` (60) with more than one link; else one link per line, indented. `None`
/// for a receiver with a comment or a link over several lines.
fn chain_at(receiver: &str, indent: usize, at: usize) -> Option<String> {
    if receiver.contains("//") || receiver.contains("/*") {
        return None;
    }
    let expr = syn::parse_str::<Expr>(receiver).ok()?;
    let (root, links) = chain_links(&expr, receiver)?;
    let root_text = receiver.get(range(root).0..range(root).1)?;
    let root = layout::expr_at(root_text, indent, at, 0);
    if links.is_empty() {
        return Some(root);
    }
    let width = layout::MAX_WIDTH.saturating_sub(at);
    let one_line: String = std::iter::once(root.as_str())
        .chain(links.iter().copied())
        .collect();
    let budget = match links.len() {
        1 => width,
        _ => width.min(layout::CHAIN_WIDTH),
    };
    if !root.contains('\n') && one_line.chars().count() <= budget {
        return Some(one_line);
    }
    let pad = " ".repeat(if root.contains('\n') {
        indent
    } else {
        indent + 4
    });
    let mut out = root;
    for link in links {
        out.push('\n');
        out.push_str(&pad);
        out.push_str(link);
    }
    Some(out)
}

/// A method chain whose last call takes a closure: `root`, the calls before the last (`links`,
/// each on one line), and the last call `head` (`.map_err(`), `params` (`|e| `), the closure's
/// body `value`, `close` (`)`) and its `?`s.
struct Chain<'a> {
    root: &'a str,
    links: &'a [&'a str],
    head: &'a str,
    params: &'a str,
    value: &'a str,
    close: &'a str,
    tries: usize,
}

impl Chain<'_> {
    /// The chain (its `?`s left out) laid out as rustfmt lays it out (`chains.rs`) starting at
    /// column `col` of a block indented by `indent`, `trail` columns following it on its last
    /// line (`;`, `,`). The root takes the chain's width (the line's less `trail`); a root
    /// that does not fit there is broken (`layout::expr_at`) and, ending with a block, has the
    /// calls one per line under its last line. After a root on one line the last call is tried
    /// on the root's line (`format_last_child`), when the root and the calls before it leave
    /// room there (within `chain_width`, 60, with more than one call); it stays there when its
    /// first line fits that room and it takes five lines or more, or no more lines than on a
    /// line of its own; else one call per line, indented. When the `?`s leave the last call no
    /// room on the root's line, rustfmt lays it out in the chain's own shape, on a line of its
    /// own. The last call's `?`s count three times on the root's line (in the total before it,
    /// in its one-line shape and in its own width), twice on a line of its own.
    fn laid_out(&self, col: usize, indent: usize, trail: usize) -> Option<String> {
        // rustfmt's `wrap_str`: the first line within the chain's width, the others within the
        // line's, the last (its `?`s included) before what follows it.
        let laid = self.laid_out_unchecked(col, indent, trail)?;
        let lines: Vec<&str> = laid.lines().collect();
        let fits = col + lines[0].len() + trail <= layout::MAX_WIDTH
            && lines[1..].iter().all(|l| l.len() <= layout::MAX_WIDTH)
            && (lines.len() == 1
                || lines[lines.len() - 1].len() + self.tries + trail <= layout::MAX_WIDTH);
        fits.then_some(laid)
    }

    fn laid_out_unchecked(&self, col: usize, indent: usize, trail: usize) -> Option<String> {
        let max = layout::MAX_WIDTH as isize;
        let tries = self.tries as isize;
        let width = max - (col + trail) as isize;
        let flat = layout::flat(self.value);
        let links_len = self.links.iter().map(|l| l.len()).sum::<usize>() as isize;
        let root = self.root;
        let root_fits = !root.contains('\n') && root.len() as isize <= width;
        if root_fits {
            let inner = indent + 4;
            let before = root.len() as isize + links_len + tries;
            let one_line_budget = match self.links.len() {
                0 => width,
                _ => width.min(layout::CHAIN_WIDTH as isize),
            } - before;
            let joined: String = std::iter::once(root)
                .chain(self.links.iter().copied())
                .collect();
            let vertical = |last: &str| {
                let mut out = root.to_string();
                for link in self.links.iter().copied().chain(std::iter::once(last)) {
                    out.push('\n');
                    out.push_str(&pad(inner));
                    out.push_str(link);
                }
                out
            };
            let own_room = max - (inner + trail) as isize - 2 * tries;
            return Some(if one_line_budget > 0 {
                match self.last_call(width - 2 * tries - before, indent, flat.as_deref()) {
                    Some(same) => {
                        let lines = same.lines().count();
                        let could_fit =
                            same.lines().next().map_or(0, str::len) as isize <= one_line_budget;
                        let own = self.last_call(own_room, inner, flat.as_deref())?;
                        if could_fit && (lines >= 5 || own.lines().count() >= lines) {
                            format!("{joined}{same}")
                        } else {
                            vertical(&own)
                        }
                    }
                    None => {
                        vertical(&self.last_call(width - 2 * tries, indent, flat.as_deref())?)
                    }
                }
            } else {
                vertical(&self.last_call(own_room, inner, flat.as_deref())?)
            });
        }
        // A root broken over lines ends with a block: the calls go under its last line.
        let broken = layout::expr_at(root, indent, col, 0);
        if !broken.contains('\n') || !last_line_extendable(&broken) {
            return None;
        }
        // The last call tried after the root's last line (`)`), then on a line of its own.
        let after = (indent + 1) as isize + tries;
        let same = self.last_call(
            max - indent as isize - tries - after - tries,
            indent,
            flat.as_deref(),
        );
        let own = self.last_call(
            max - (indent + trail) as isize - 2 * tries,
            indent,
            flat.as_deref(),
        )?;
        let last = match same {
            Some(same)
                if (same.lines().next().map_or(0, str::len) as isize <= width - after
                    && same.lines().count() >= 5)
                    || own.lines().count() >= same.lines().count() =>
            {
                same
            }
            _ => own,
        };
        let mut out = broken;
        for link in self
            .links
            .iter()
            .copied()
            .chain(std::iter::once(last.as_str()))
        {
            out.push('\n');
            out.push_str(&pad(indent));
            out.push_str(link);
        }
        Some(out)
    }

    /// The last call laid out in `room` columns (its `?`s not counted), its closure's block
    /// indented from `indent`: on one line; else the closure's block after `head(|e| ` when
    /// the closure keeps a column for it there; else the closure on a line of its own inside
    /// the call (`overflow.rs`: the overflow failed, the list goes vertical). `None` for no room.
    fn last_call(&self, room: isize, indent: usize, flat: Option<&str>) -> Option<String> {
        if room < 0 {
            return None;
        }
        let (head, params, close) = (self.head, self.params, self.close);
        let block = |indent: usize| {
            let laid = layout::expr_at(self.value, indent + 4, indent + 4, 0);
            format!("{{\n{}{laid}\n{}}}", pad(indent + 4), pad(indent))
        };
        if let Some(one) = flat.map(|f| format!("{head}{params}{f}{close}")) {
            if one.len() as isize <= room {
                return Some(one);
            }
        }
        if (head.len() + params.len() + 2) as isize <= room {
            return Some(format!("{head}{params}{}{close}", block(indent)));
        }
        let own = indent + 4;
        let closure = flat
            .map(|f| format!("{params}{f}"))
            .filter(|c| own + c.len() + ",".len() <= layout::MAX_WIDTH)
            .unwrap_or_else(|| format!("{params}{}", block(own)));
        Some(format!(
            "{head}\n{}{closure},\n{}{close}",
            pad(own),
            pad(indent)
        ))
    }
}

/// rustfmt's `prefer_next_line`: code on the next line (`next`) is better than where it starts
/// (`orig`) when it is one line there, two lines fewer, or its first line no longer ends with
/// `(`, `{` or `[`.
fn prefer_next_line(orig: &str, next: &str) -> bool {
    let ends = |s: &str, c: char| s.lines().next().is_some_and(|l| l.trim_end().ends_with(c));
    !next.contains('\n')
        || orig.matches('\n').count() > next.matches('\n').count() + 1
        || ['(', '{', '[']
            .iter()
            .any(|c| ends(orig, *c) && !ends(next, *c))
}

fn pad(n: usize) -> String {
    " ".repeat(n)
}

/// rustfmt's `last_line_extendable`: the last line only closes delimiters (or `?`s).
fn last_line_extendable(text: &str) -> bool {
    let last = text.rsplit('\n').next().unwrap_or_default();
    last.chars()
        .all(|c| matches!(c, '(' | ')' | ']' | '}' | '?' | '>') || c.is_whitespace())
}

/// A method chain's root and its links as written (`.get("n")`, `.await`, `.ok_or(x)?`, each
/// with the `?`s right after it), root first; `None` when a link spans lines or holds a comment.
fn chain_links<'e, 't>(expr: &'e Expr, text: &'t str) -> Option<(&'e Expr, Vec<&'t str>)> {
    let mut links = Vec::new();
    let mut end = range(expr).1;
    let mut e = expr;
    loop {
        let receiver: &Expr = match e {
            Expr::Try(t) => {
                e = &t.expr;
                continue;
            }
            Expr::MethodCall(m) => &m.receiver,
            Expr::Field(f) => &f.base,
            Expr::Await(a) => &a.base,
            _ => break,
        };
        let (_, receiver_end) = range(receiver);
        let dot = receiver_end + text[receiver_end..].find('.')?;
        let link = text.get(dot..end)?;
        if !text[receiver_end..dot].trim().is_empty() || spans_or_comments(link) {
            return None;
        }
        links.push(link);
        end = receiver_end;
        e = receiver;
    }
    links.reverse();
    Some((e, links))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_whole_identifiers_outside_strings() {
        let renames = vec![
            ("McpError".to_string(), "rmcp::ErrorData".to_string()),
            ("Content".to_string(), "C".to_string()),
        ];
        assert_eq!(
            rename_idents(
                "Err(McpError::invalid_params(format!(\"McpError {x}\\\" Content\"), None)) ContentBlock Content::text",
                &renames
            ),
            "Err(rmcp::ErrorData::invalid_params(format!(\"McpError {x}\\\" Content\"), None)) ContentBlock C::text"
        );
    }

    #[test]
    fn reindents_continuation_lines_only() {
        assert_eq!(reindent("{\n    a\n}", 4), "{\n        a\n    }");
        assert_eq!(reindent("{\n        a\n\n    }", -4), "{\n    a\n\n}");
        assert_eq!(reindent("x\n  y", -4), "x\ny");
        assert!(spans_lines_in_literal("f(\"a\nb\")"));
        assert!(!spans_lines_in_literal("f(\n    \"a\",\n)"));
    }

    #[test]
    fn messages_lose_a_trailing_into() {
        assert_eq!(without_into("\"no such file\".into()"), "\"no such file\"");
        assert_eq!(without_into("format!(\"{x}\").into()"), "format!(\"{x}\")");
        assert_eq!(without_into("e.to_string()"), "e.to_string()");
        assert_eq!(without_into("x.into_inner()"), "x.into_inner()");
    }

    #[test]
    fn place_expressions() {
        assert!(is_place_expression("other"));
        assert!(is_place_expression("request.name"));
        assert!(!is_place_expression("request.name.to_string()"));
        assert!(!is_place_expression(""));
    }

    #[test]
    fn message_names_are_the_locals_it_reads() {
        let names = |m: &str| message_names(m).unwrap_or_default();
        assert_eq!(
            names("format!(\"no {id} at {}: {e:?} {{x}} {0}\", path.display())"),
            ["id", "e", "path"]
        );
        assert_eq!(names("helper(msg).to_string()"), ["msg"]);
        assert_eq!(names("\"plain\""), Vec::<String>::new());
        assert_eq!(names("String::from(NAME)"), Vec::<String>::new());
    }

    #[test]
    fn locals_are_those_bound_around_the_target() {
        let code = "fn f(&self, Args { path }: Args) { let a = 1; match x { Err(e) => { TARGET } _ => {} } let late = 2; }";
        let f: syn::ItemFn = syn::parse_str(code).unwrap();
        let at = code.find("TARGET").unwrap();
        let extents = BlockExtents::of(&f.block);
        let locals = locals_at(&f.sig, &f.block, &extents, (at, at + "TARGET".len()));
        for name in ["self", "path", "a", "e"] {
            assert!(locals.contains(name), "{name}");
        }
        assert!(!locals.contains("late") && !locals.contains("x"));
    }

    #[test]
    fn riskier_applicability_wins() {
        use Applicability::*;
        assert_eq!(MachineApplicable.max_risk(MaybeIncorrect), MaybeIncorrect);
        assert_eq!(HasPlaceholders.max_risk(MaybeIncorrect), HasPlaceholders);
        assert_eq!(
            MachineApplicable.max_risk(MachineApplicable),
            MachineApplicable
        );
    }
}
