//! Inline suppressions: `// mcp-lint: allow(..) reason` (on the finding's line, or on its own
//! line above it), `// mcp-lint: allow-file(..) reason`, and
//! `#[cfg_attr(mcp_lint, allow(mcp_lint::name, reason = ".."))]` (or `expect`) on items.
//! Reasons are required; suppressions that suppress nothing are reported.

use proc_macro2::TokenTree;

use crate::diagnostic::Diagnostic;
use crate::lints;
use crate::options::Options;
use crate::registry::{self, Group, Level, Lint};
use crate::source::{SourceFile, Span};

/// Where a suppression applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    /// Findings starting on this 1-based line.
    Line(usize),
    /// The whole file.
    File,
    /// Findings starting inside these lines (an item).
    Lines(usize, usize),
}

/// One name inside a suppression.
#[derive(Debug)]
struct Entry {
    name: String,
    lint: Option<&'static Lint>,
    used: bool,
}

#[derive(Debug)]
struct Suppression {
    scope: Scope,
    entries: Vec<Entry>,
    reason: Option<String>,
    /// Where it is written (reported there).
    span: Span,
    /// `expect(..)`: unfulfilled is always reported.
    expect: bool,
}

/// Drop suppressed findings and add findings about the suppressions themselves.
pub fn apply(
    source: &SourceFile,
    syntax: Option<&syn::File>,
    diagnostics: Vec<Diagnostic>,
    options: &Options,
) -> Vec<Diagnostic> {
    let mut suppressions = comment_directives(source);
    if let Some(file) = syntax {
        attribute_directives(source, &file.items, &mut suppressions);
    }
    if suppressions.is_empty() {
        return diagnostics;
    }
    let mut kept = Vec::with_capacity(diagnostics.len());
    for d in diagnostics {
        if d.lint.group == Group::Meta || d.level == Level::Forbid {
            kept.push(d);
            continue;
        }
        let line = d.span.start_line;
        let mut suppressed = false;
        for s in suppressions.iter_mut() {
            let covers = match s.scope {
                Scope::File => true,
                Scope::Line(l) => l == line,
                Scope::Lines(a, b) => (a..=b).contains(&line),
            };
            if !covers {
                continue;
            }
            for e in s.entries.iter_mut() {
                if e.lint.is_some_and(|l| l == d.lint) {
                    e.used = true;
                    suppressed = true;
                }
            }
        }
        if !suppressed {
            kept.push(d);
        }
    }
    for s in &suppressions {
        if s.reason.is_none() {
            let d = Diagnostic::new(
                &lints::suppression_without_reason::LINT,
                s.span,
                "suppression without a reason",
            )
            .with_help(match s.scope {
                Scope::Lines(..) => "add `reason = \"..\"`: why is this finding wrong here?",
                _ => "write the reason after the parenthesis: `// mcp-lint: allow(name) why it is fine here`",
            });
            kept.push(with_level(d, options));
        }
        for e in &s.entries {
            let message = match e.lint {
                None => {
                    let suggestion = registry::Selector::parse(&e.name)
                        .err()
                        .and_then(|u| u.suggestion)
                        .map(|s| format!(" (did you mean `{s}`?)"))
                        .unwrap_or_default();
                    format!("suppression names an unknown lint `{}`{suggestion}", e.name)
                }
                Some(lint) if !e.used && (s.expect || options.levels.is_enabled(lint)) => {
                    format!(
                        "`{}` is suppressed here but nothing to suppress was found",
                        lint.name
                    )
                }
                _ => continue,
            };
            let d = Diagnostic::new(&lints::unused_suppression::LINT, s.span, message)
                .with_help("remove the name from the suppression (or the whole suppression)");
            kept.push(with_level(d, options));
        }
    }
    kept
}

fn with_level(mut d: Diagnostic, options: &Options) -> Diagnostic {
    d.level = options.levels.get(d.lint);
    d
}

/// `// mcp-lint: allow(..) reason` and `// mcp-lint: allow-file(..) reason` comments.
fn comment_directives(source: &SourceFile) -> Vec<Suppression> {
    let mut out = Vec::new();
    for (start, end) in line_comments(&source.text) {
        let comment = &source.text[start..end];
        let body = comment
            .trim_start_matches('/')
            .trim_start_matches('!')
            .trim();
        let Some(rest) = body.strip_prefix("mcp-lint:") else {
            continue;
        };
        let rest = rest.trim_start();
        let (file_scope, rest) = if let Some(r) = rest.strip_prefix("allow-file") {
            (true, r)
        } else if let Some(r) = rest.strip_prefix("allow") {
            (false, r)
        } else {
            continue;
        };
        let Some(args_end) = rest
            .find(')')
            .filter(|_| rest.trim_start().starts_with('('))
        else {
            continue;
        };
        let open = rest.find('(').unwrap_or(0);
        let names = &rest[open + 1..args_end];
        let reason = rest[args_end + 1..].trim();
        let span = source.span(start, end);
        let line = span.start_line;
        let scope = if file_scope {
            Scope::File
        } else if source.line_text(line)[..span
            .start_column
            .saturating_sub(1)
            .min(source.line_text(line).len())]
            .trim()
            .is_empty()
        {
            Scope::Line(next_code_line(source, line))
        } else {
            Scope::Line(line)
        };
        out.push(Suppression {
            scope,
            entries: entries(names.split(',').map(str::trim)),
            reason: (!reason.is_empty()).then(|| reason.to_string()),
            span,
            expect: false,
        });
    }
    out
}

fn entries<'n>(names: impl Iterator<Item = &'n str>) -> Vec<Entry> {
    names
        .filter(|n| !n.is_empty())
        .map(|n| Entry {
            name: n.to_string(),
            lint: registry::find(n),
            used: false,
        })
        .collect()
}

/// The first line after `line` that is not blank and not only a comment.
fn next_code_line(source: &SourceFile, line: usize) -> usize {
    let mut next = line + 1;
    while next <= source.line_count() {
        let t = source.line_text(next).trim();
        if !t.is_empty() && !t.starts_with("//") {
            return next;
        }
        next += 1;
    }
    line + 1
}

/// Byte ranges of every `//` comment outside string and char literals.
fn line_comments(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                out.push((i, end));
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..]
                    .find("*/")
                    .map_or(text.len(), |n| i + 2 + n + 2);
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'"') | Some(b'#'))
                && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')) =>
            {
                // Raw string: r"..", r#".."#.
                let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
                if bytes.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let from = i + 2 + hashes;
                i = text[from..]
                    .find(&close)
                    .map_or(text.len(), |n| from + n + close.len());
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'\'' => {
                // A char literal ('x', '\n', '\''), not a lifetime ('a).
                if bytes.get(i + 1) == Some(&b'\\') {
                    i = text[i + 2..]
                        .find('\'')
                        .map_or(text.len(), |n| i + 2 + n + 1);
                } else if bytes.get(i + 2) == Some(&b'\'') {
                    i += 3;
                } else {
                    let ch_len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                    if bytes.get(i + 1 + ch_len) == Some(&b'\'') {
                        i += 2 + ch_len;
                    } else {
                        i += 1;
                    }
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// `#[cfg_attr(mcp_lint, allow(mcp_lint::name, reason = ".."))]` on items, impl items and
/// trait items.
fn attribute_directives(source: &SourceFile, items: &[syn::Item], out: &mut Vec<Suppression>) {
    for item in items {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Trait(t) => &t.attrs,
            _ => &[],
        };
        item_suppressions(source, attrs, &|| source.span_of(item), out);
        match item {
            syn::Item::Impl(i) => {
                for ii in &i.items {
                    let attrs: &[syn::Attribute] = match ii {
                        syn::ImplItem::Fn(f) => &f.attrs,
                        syn::ImplItem::Const(c) => &c.attrs,
                        _ => &[],
                    };
                    item_suppressions(source, attrs, &|| source.span_of(ii), out);
                }
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    attribute_directives(source, inner, out);
                }
            }
            _ => {}
        }
    }
}

fn item_suppressions(
    source: &SourceFile,
    attrs: &[syn::Attribute],
    // Computed only for an item that has a suppression: a syn node's span is found by
    // printing the whole node to tokens.
    item: &dyn Fn() -> Span,
    out: &mut Vec<Suppression>,
) {
    for attr in attrs {
        if !attr.path().is_ident("cfg_attr") {
            continue;
        }
        let Ok(list) = attr.meta.require_list() else {
            continue;
        };
        let tokens: Vec<TokenTree> = list.tokens.clone().into_iter().collect();
        let is_ours = matches!(tokens.first(), Some(TokenTree::Ident(i)) if i == "mcp_lint");
        if !is_ours {
            continue;
        }
        // The lint attributes after `mcp_lint,`: allow(..), expect(..).
        let mut k = 1;
        while k + 1 < tokens.len() {
            let (TokenTree::Ident(kind), TokenTree::Group(group)) = (&tokens[k], &tokens[k + 1])
            else {
                k += 1;
                continue;
            };
            let kind = kind.to_string();
            if kind == "allow" || kind == "expect" {
                let (names, reason) = lint_list(group.stream());
                let item = item();
                out.push(Suppression {
                    scope: Scope::Lines(item.start_line, item.end_line),
                    entries: entries(names.iter().map(String::as_str)),
                    reason,
                    span: source.span_of(attr),
                    expect: kind == "expect",
                });
            }
            k += 2;
        }
    }
}

/// `mcp_lint::a, mcp_lint::b, reason = ".."` → (["a", "b"], Some(".."))
fn lint_list(stream: proc_macro2::TokenStream) -> (Vec<String>, Option<String>) {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let mut names = Vec::new();
    let mut reason = None;
    for part in tokens.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
        match part {
            [TokenTree::Ident(i), TokenTree::Punct(eq), TokenTree::Literal(l)]
                if i == "reason" && eq.as_char() == '=' =>
            {
                reason = syn::parse_str::<syn::LitStr>(&l.to_string())
                    .ok()
                    .map(|s| s.value())
                    .filter(|s| !s.trim().is_empty());
            }
            [] => {}
            path => {
                let text: String = path.iter().map(|t| t.to_string()).collect();
                names.push(text.trim_start_matches("mcp_lint::").to_string());
            }
        }
    }
    (names, reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_inside_strings_are_not_directives() {
        let text = "let a = \"// mcp-lint: allow(x)\"; let b = r#\"// no\"#; // real\nlet c = '\"'; // two\n";
        let found: Vec<&str> = line_comments(text)
            .iter()
            .map(|(a, b)| &text[*a..*b])
            .collect();
        assert_eq!(found, vec!["// real", "// two"]);
    }

    #[test]
    fn lint_lists_read_names_and_reason() {
        let stream: proc_macro2::TokenStream = "mcp_lint::a, mcp_lint::b, reason = \"why\""
            .parse()
            .unwrap();
        assert_eq!(
            lint_list(stream),
            (vec!["a".into(), "b".into()], Some("why".into()))
        );
    }
}
