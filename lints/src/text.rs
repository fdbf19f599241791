//! Message text as the model sees it (a literal, a format string with placeholders, or opaque),
//! and whether it is vague.

use syn::Expr;

use crate::macro_args::MacroArgs;
use crate::source::{SourceFile, Span};
use crate::syntax::last_segment;

/// What a message argument is, as far as the source tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageText {
    /// A string literal (possibly through `.to_string()`, `String::from`, `.into()`, …).
    Literal { value: String, span: Span },
    /// `format!` with at least one placeholder or argument; `pieces` are the literal parts.
    /// `shown` is the local whose Display its one placeholder prints (`format!("failed: {e}")`),
    /// and whether in the alternate form (`{e:#}`).
    Format {
        pieces: Vec<String>,
        span: Span,
        shown: Option<(String, bool)>,
    },
    /// `String::new()`, `""` and friends are `Literal` with an empty value; this is "no text
    /// at all" (e.g. `Err(())`).
    Absent,
    /// A local as it is, or its Display (`e`, `e.to_string()`, `&text`): not knowable here; the
    /// walk may know what the local holds.
    Local(String),
    /// A variable, a call: not knowable.
    Opaque,
}

impl MessageText {
    /// The literal text, when the whole message is one.
    pub fn literal(&self) -> Option<&str> {
        match self {
            MessageText::Literal { value, .. } => Some(value),
            _ => None,
        }
    }

    /// Nothing of the text is known where it is written (a call, a local).
    pub fn is_opaque(&self) -> bool {
        matches!(self, MessageText::Opaque | MessageText::Local(_))
    }

    /// True when the message is statically known to carry no readable characters.
    pub fn is_blank(&self) -> bool {
        match self {
            MessageText::Literal { value, .. } => value.trim().is_empty(),
            MessageText::Absent => true,
            _ => false,
        }
    }

    /// Every statically known character, lowercased (literal or format pieces).
    pub fn known_lowercase(&self) -> String {
        match self {
            MessageText::Literal { value, .. } => value.to_lowercase(),
            MessageText::Format { pieces, .. } => pieces.join(" ").to_lowercase(),
            _ => String::new(),
        }
    }

    pub fn span(&self) -> Option<Span> {
        match self {
            MessageText::Literal { span, .. } | MessageText::Format { span, .. } => Some(*span),
            _ => None,
        }
    }
}

/// Read a message expression: `"lit"`, `"lit".to_string()` / `.to_owned()` / `.into()`,
/// `String::from("lit")`, `String::new()`, `format!(..)`, `&x`; anything else is opaque.
pub fn message_from_expr(expr: &Expr, file: &SourceFile) -> MessageText {
    message(expr, file, None)
}

/// [`message_from_expr`] with the file's parsed macro arguments, so a `format!` the walk
/// already parsed is not parsed again.
pub fn message_with_macros(expr: &Expr, file: &SourceFile, macros: &MacroArgs) -> MessageText {
    message(expr, file, Some(macros))
}

fn message(expr: &Expr, file: &SourceFile, macros: Option<&MacroArgs>) -> MessageText {
    match expr {
        Expr::Lit(l) => match &l.lit {
            syn::Lit::Str(s) => MessageText::Literal {
                value: s.value(),
                span: file.span_of(s),
            },
            _ => MessageText::Opaque,
        },
        Expr::Reference(r) => message(&r.expr, file, macros),
        Expr::Paren(p) => message(&p.expr, file, macros),
        Expr::Group(g) => message(&g.expr, file, macros),
        Expr::MethodCall(m)
            if m.args.is_empty()
                && matches!(
                    m.method.to_string().as_str(),
                    "to_string" | "to_owned" | "into" | "as_str" | "as_ref"
                ) =>
        {
            match message(&m.receiver, file, macros) {
                lit @ MessageText::Literal { .. } => lit,
                fmt @ MessageText::Format { .. } => fmt,
                local @ MessageText::Local(_) => local,
                _ => MessageText::Opaque,
            }
        }
        Expr::Call(c) => {
            let Expr::Path(p) = &*c.func else {
                return MessageText::Opaque;
            };
            let segs = crate::syntax::path_segments(&p.path);
            match (segs.as_slice(), c.args.len()) {
                ([.., ty, m], 0) if ty == "String" && (m == "new" || m == "default") => {
                    MessageText::Literal {
                        value: String::new(),
                        span: file.span_of(c),
                    }
                }
                ([.., ty, m], 1)
                    if (ty == "String" || ty == "Cow")
                        && (m == "from" || m == "Borrowed" || m == "Owned") =>
                {
                    message(&c.args[0], file, macros)
                }
                _ => MessageText::Opaque,
            }
        }
        Expr::Macro(m) => format_message(&m.mac, file, macros),
        Expr::Path(p) if p.qself.is_none() => match p.path.get_ident() {
            Some(i) => MessageText::Local(i.to_string()),
            None => MessageText::Opaque,
        },
        _ => MessageText::Opaque,
    }
}

/// `format!("..", args)`: a literal when it has no placeholders, else its literal pieces. An
/// `anyhow!(..)` / `eyre!(..)` error given as the message reads the same.
fn format_message(mac: &syn::Macro, file: &SourceFile, macros: Option<&MacroArgs>) -> MessageText {
    let name = last_segment(&mac.path);
    if !matches!(
        name.as_deref(),
        Some("format" | "anyhow" | "eyre" | "format_err")
    ) {
        return MessageText::Opaque;
    }
    if let Some(args) = macros.and_then(|m| m.parsed(mac)) {
        let args: Vec<&Expr> = args.iter().collect();
        return format_args_in(&args, file, macros);
    }
    let Ok(args) =
        mac.parse_body_with(syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated)
    else {
        return MessageText::Opaque;
    };
    let args: Vec<&Expr> = args.iter().collect();
    format_args_in(&args, file, macros)
}

/// The message of format-style arguments (`"..", args`, as `format!` or `bail!` take them).
pub fn format_args_message(args: &[&Expr], file: &SourceFile) -> MessageText {
    format_args_in(args, file, None)
}

fn format_args_in(args: &[&Expr], file: &SourceFile, macros: Option<&MacroArgs>) -> MessageText {
    let Some(Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(fmt),
        ..
    })) = args.first()
    else {
        return args
            .first()
            .map_or(MessageText::Absent, |a| message(a, file, macros));
    };
    let value = fmt.value();
    let span = file.span_of(fmt);
    let (pieces, specs) = format_parts(&value);
    if args.len() == 1 && pieces.len() <= 1 && !value.contains('{') {
        return MessageText::Literal { value, span };
    }
    let shown = shown_in(&specs, &args[1..]);
    MessageText::Format {
        pieces,
        span,
        shown,
    }
}

/// The local a format string's one placeholder prints (`"failed: {e}"`, `"{e:#}"`, `"{}", e`),
/// and whether in the alternate form; `None` for any other format.
#[cfg(test)]
fn shown_local(fmt: &str, args: &[&Expr]) -> Option<(String, bool)> {
    shown_in(&format_parts(fmt).1, args)
}

/// [`shown_local`] of a format string's placeholders (`specs`, as [`format_parts`] gives them).
fn shown_in(specs: &[String], args: &[&Expr]) -> Option<(String, bool)> {
    let [spec] = specs else {
        return None;
    };
    let (name, format) = spec.split_once(':').unwrap_or((spec.as_str(), ""));
    let alternate = format.contains('#');
    let name = match (name.trim(), args) {
        ("" | "0", [Expr::Path(p)]) => p.path.get_ident()?.to_string(),
        (n, []) if n.chars().all(|c| c.is_alphanumeric() || c == '_') && !n.is_empty() => {
            n.to_string()
        }
        _ => return None,
    };
    (!name.starts_with(|c: char| c.is_ascii_digit())).then_some((name, alternate))
}

/// The literal parts of a format string and what its placeholders hold (`"Invalid {x}: {e:#}"`
/// → `["Invalid ", ": "]`, `["x", "e:#"]`).
fn format_parts(fmt: &str) -> (Vec<String>, Vec<String>) {
    let mut pieces = Vec::new();
    let mut specs = Vec::new();
    let mut current = String::new();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                current.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                current.push('}');
            }
            '{' => {
                specs.push(chars.by_ref().take_while(|c| *c != '}').collect());
                pieces.push(std::mem::take(&mut current));
            }
            _ => current.push(c),
        }
    }
    pieces.push(current);
    pieces.retain(|p| !p.is_empty());
    (pieces, specs)
}

/// The top-level members of a JSON object written as text (`{"error":"not found"}`), as key and
/// value as written (string values keep their quotes, as [`json_members`] gives them); empty when
/// the text is not an object.
pub fn json_object_members(text: &str) -> Vec<(String, String)> {
    let Some(body) = text
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
    else {
        return Vec::new();
    };
    // Split at the top-level commas, outside strings and nested values.
    let (mut parts, mut depth, mut in_string, mut escaped, mut start) =
        (Vec::new(), 0i32, false, false, 0);
    for (i, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '{' | '[' if !in_string => depth += 1,
            '}' | ']' if !in_string => depth -= 1,
            ',' if !in_string && depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts
        .into_iter()
        .filter_map(|part| {
            let (key, value) = part.split_once(':')?;
            let key = key.trim().strip_prefix('"')?.strip_suffix('"')?;
            Some((key.to_string(), value.trim().to_string()))
        })
        .collect()
}

/// The top-level members of a `json!({..})` object: each key and its value's tokens as text
/// (`("error", "e . to_string ()")`, `("success", "false")`).
pub fn json_members(mac: &syn::Macro) -> Vec<(String, String)> {
    use proc_macro2::TokenTree;
    let Some(TokenTree::Group(object)) = mac.tokens.clone().into_iter().next() else {
        return Vec::new();
    };
    if object.delimiter() != proc_macro2::Delimiter::Brace {
        return Vec::new();
    }
    let mut members = Vec::new();
    let mut member: Vec<TokenTree> = Vec::new();
    let mut flush = |member: &mut Vec<TokenTree>| {
        if let [TokenTree::Literal(key), TokenTree::Punct(colon), value @ ..] = member.as_slice() {
            if let (':', Ok(key)) = (
                colon.as_char(),
                syn::parse_str::<syn::LitStr>(&key.to_string()),
            ) {
                let value: proc_macro2::TokenStream = value.iter().cloned().collect();
                members.push((key.value(), value.to_string()));
            }
        }
        member.clear();
    };
    for t in object.stream() {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => flush(&mut member),
            _ => member.push(t),
        }
    }
    flush(&mut member);
    members
}

/// Keys of a `json!` object whose string value is error text the model reads.
const JSON_TEXT_KEYS: &[&str] = &["error", "message", "detail", "details", "reason"];

/// The error texts of a `json!({..})` body: string values of `"error"`, `"message"`, … keys, at
/// any depth.
pub fn json_texts(mac: &syn::Macro, file: &SourceFile) -> Vec<MessageText> {
    use proc_macro2::TokenTree;
    fn walk(stream: proc_macro2::TokenStream, file: &SourceFile, out: &mut Vec<MessageText>) {
        let tokens: Vec<TokenTree> = stream.into_iter().collect();
        for (i, t) in tokens.iter().enumerate() {
            if let TokenTree::Group(g) = t {
                walk(g.stream(), file, out);
            }
            let (Some(TokenTree::Literal(key)), Some(TokenTree::Punct(colon))) =
                (Some(t), tokens.get(i + 1))
            else {
                continue;
            };
            let key = syn::parse_str::<syn::LitStr>(&key.to_string()).map(|k| k.value());
            if colon.as_char() != ':' || !key.is_ok_and(|k| JSON_TEXT_KEYS.contains(&k.as_str())) {
                continue;
            }
            if let Some(shown) = format_value(&tokens[i + 2..], file) {
                out.push(shown);
                continue;
            }
            let Some(TokenTree::Literal(value)) = tokens.get(i + 2) else {
                continue;
            };
            // A value that continues (`"a".to_string()`, a format) is not a plain literal.
            let ends = matches!(tokens.get(i + 3), None | Some(TokenTree::Punct(_)))
                && !matches!(tokens.get(i + 3), Some(TokenTree::Punct(p)) if p.as_char() == '.');
            if let (true, Ok(lit)) = (ends, syn::parse_str::<syn::LitStr>(&value.to_string())) {
                let range = value.span().byte_range();
                out.push(MessageText::Literal {
                    value: lit.value(),
                    span: file.span(range.start, range.end),
                });
            }
        }
    }
    let mut out = Vec::new();
    if crate::syntax::is_json_macro(mac) {
        walk(mac.tokens.clone(), file, &mut out);
    }
    out
}

/// A member value that is a `format!` (`"error": format!("{e:#}")`, `"message":
/// format!("invoice {} not found", id)`), up to the member's end: what the model reads there.
fn format_value(value: &[proc_macro2::TokenTree], file: &SourceFile) -> Option<MessageText> {
    use proc_macro2::TokenTree;
    let [TokenTree::Ident(name), TokenTree::Punct(bang), TokenTree::Group(_), rest @ ..] = value
    else {
        return None;
    };
    let ends = match rest.first() {
        None => true,
        Some(TokenTree::Punct(p)) => p.as_char() == ',',
        _ => false,
    };
    if name != "format" || bang.as_char() != '!' || !ends {
        return None;
    }
    let tokens: proc_macro2::TokenStream = value[..3].iter().cloned().collect();
    let expr = syn::parse2::<Expr>(tokens).ok()?;
    match message(&expr, file, None) {
        text @ MessageText::Format { .. } => Some(text),
        _ => None,
    }
}

/// Phrases that say neither what failed nor what valid input looks like (normalised form).
pub const VAGUE_PHRASES: &[&str] = &[
    "error",
    "an error",
    "error occurred",
    "an error occurred",
    "an error has occurred",
    "an unexpected error occurred",
    "unexpected error",
    "unknown error",
    "internal error",
    "internal server error",
    "server error",
    "failed",
    "failure",
    "fail",
    "operation failed",
    "request failed",
    "tool failed",
    "tool error",
    "execution failed",
    "tool execution failed",
    "something went wrong",
    "something bad happened",
    "oops",
    "oops something went wrong",
    "invalid input",
    "invalid arguments",
    "invalid argument",
    "invalid params",
    "invalid parameters",
    "invalid parameter",
    "invalid request",
    "bad request",
    "bad input",
    "not found",
    "could not complete the request",
    "unable to process request",
    "an error occurred while processing your request",
];

/// Sentences that add no information about the failure ("Please try again.").
const FILLER: &[&str] = &[
    "please try again",
    "try again",
    "try again later",
    "please try again later",
    "check the logs",
    "check the logs for details",
    "check the server logs",
    "check the server logs for details",
    "check the mcp server logs for details",
    "see the logs for details",
    "see logs for details",
    "contact support",
    "please contact support",
    "sorry",
];

/// Lowercase, drop punctuation at the ends, fold whitespace.
pub fn normalize(text: &str) -> String {
    let lowered = text.to_lowercase();
    let words: Vec<&str> = lowered.split_whitespace().collect();
    words
        .join(" ")
        .trim_matches(|c: char| !c.is_alphanumeric())
        .replace(['!', ',', ':', ';'], "")
        .trim()
        .to_string()
}

/// A literal is vague when every sentence of it is a vague phrase or filler, and at least one is
/// a vague phrase. `extra` adds phrases (from config).
pub fn is_vague(text: &str, extra: &[String]) -> bool {
    let sentences: Vec<String> = text
        .split(['.', '\n', '!'])
        .map(normalize)
        .filter(|s| !s.is_empty())
        .collect();
    let vague = |s: &str| VAGUE_PHRASES.contains(&s) || extra.iter().any(|e| normalize(e) == s);
    !sentences.is_empty()
        && sentences.iter().any(|s| vague(s))
        && sentences
            .iter()
            .all(|s| vague(s) || FILLER.contains(&s.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_shows_the_local_of_its_one_placeholder() {
        let path = |n: &str| syn::parse_str::<syn::Expr>(n).unwrap();
        let e = path("e");
        assert_eq!(shown_local("{e}", &[]), Some(("e".into(), false)));
        assert_eq!(
            shown_local("tool error: {err:#}", &[]),
            Some(("err".into(), true))
        );
        assert_eq!(shown_local("failed: {}", &[&e]), Some(("e".into(), false)));
        assert_eq!(
            shown_local("{{literal}} {e}", &[]),
            Some(("e".into(), false))
        );
        assert_eq!(shown_local("cannot read {path}: {e}", &[]), None);
        assert_eq!(shown_local("{}", &[&path("e.kind()")]), None);
        assert_eq!(shown_local("{0}", &[&e]), Some(("e".into(), false)));
    }

    #[test]
    fn vague_phrases_are_recognised_in_any_case_and_punctuation() {
        assert!(is_vague("Something went wrong", &[]));
        assert!(is_vague("  An error occurred. ", &[]));
        assert!(is_vague("Internal error!", &[]));
        assert!(is_vague(
            "Request failed. Check the MCP server logs for details.",
            &[]
        ));
        assert!(is_vague("no luck", &["No luck".to_string()]));
    }

    #[test]
    fn specific_text_is_not_vague() {
        assert!(!is_vague("city must be a non-empty string", &[]));
        assert!(!is_vague("Error: upstream returned 503", &[]));
        assert!(!is_vague("Please try again.", &[]));
        assert!(!is_vague("", &[]));
        assert!(!is_vague("basket bsk_a1b2c3 has expired", &[]));
    }
}
