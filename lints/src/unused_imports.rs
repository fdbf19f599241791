//! Imports a fix leaves unused: the names whose last use the fix removed are taken out of their
//! `use` (`use rmcp::model::{ErrorCode, ErrorData}` → `use rmcp::model::ErrorData`), and a `use`
//! left with nothing is deleted, so a `-D warnings` build has no `unused import`.
//!
//! A name counts as used wherever its word appears outside `use` items and comments (string
//! literals included: a format string can name it; when unsure, the import stays). A `use` with a comment inside is left alone. The
//! rewritten `use` is laid out as rustfmt does (one line when it fits and holds no nested group;
//! else one item per line for paths and groups, plain names packed, as rustfmt's "Mixed" layout).

use std::collections::{HashMap, HashSet};

use syn::spanned::Spanned;
use syn::{Item, UseTree};

use crate::diagnostic::Edit;
use crate::layout::MAX_WIDTH;

/// How often each word appears in a file outside comments, counted once for all the fixes of
/// the file (counting the whole text per fix would make n fixes cost n texts).
#[derive(Default)]
pub struct WordCounts(HashMap<String, usize>);

impl WordCounts {
    pub fn of(text: &str) -> WordCounts {
        let mut counts = HashMap::new();
        for w in words(&without_comments(text)) {
            *counts.entry(w.to_string()).or_insert(0) += 1;
        }
        WordCounts(counts)
    }

    fn get(&self, name: &str) -> usize {
        self.0.get(name).copied().unwrap_or(0)
    }
}

/// Edits to `text` (parsed as `file`, its words counted in `counts`) that drop the imports
/// `edits` leave unused, when applied together with them. Only names the edits remove a use of
/// are considered.
pub fn prune_edits(text: &str, file: &syn::File, counts: &WordCounts, edits: &[Edit]) -> Vec<Edit> {
    let uses = use_items(&file.items);
    let removed: HashSet<&str> = edits
        .iter()
        .flat_map(|e| words(text.get(e.start..e.end).unwrap_or_default()))
        .collect();
    let in_uses = |name: &str| {
        uses.iter()
            .map(|u| count(text.get(range(u)).unwrap_or_default(), name))
            .sum::<usize>()
    };
    let drop: HashSet<String> = imported_names(&uses)
        .into_iter()
        .filter(|name| removed.contains(name.as_str()))
        .filter(|name| {
            let before = counts.get(name) - in_uses(name);
            let gone: usize = edits
                .iter()
                .map(|e| count(text.get(e.start..e.end).unwrap_or_default(), name))
                .sum();
            let added: usize = edits.iter().map(|e| count(&e.replacement, name)).sum();
            before + added == gone
        })
        .collect();
    rewrites(text, &uses, &drop)
}

/// `after` without the imports that were used in `before` and are not any more (what several
/// fixes applied together leave behind, each having removed some of the uses). `None` when
/// there is nothing to drop or `after` does not parse.
pub fn prune_after(before: &str, after: &str) -> Option<String> {
    let before_file = syn::parse_file(before).ok()?;
    let after_file = syn::parse_file(after).ok()?;
    let (old_uses, new_uses) = (use_items(&before_file.items), use_items(&after_file.items));
    let outside = |text: &str, uses: &[&syn::ItemUse], name: &str| {
        let inside: usize = uses
            .iter()
            .map(|u| count(text.get(range(u)).unwrap_or_default(), name))
            .sum();
        count(text, name) - inside
    };
    let drop: HashSet<String> = imported_names(&new_uses)
        .into_iter()
        .filter(|n| outside(after, &new_uses, n) == 0 && outside(before, &old_uses, n) > 0)
        .collect();
    let mut edits = rewrites(after, &new_uses, &drop);
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|e| std::cmp::Reverse(e.start));
    let mut out = after.to_string();
    for e in edits {
        out.replace_range(e.start..e.end, &e.replacement);
    }
    Some(out)
}

fn range(node: &impl Spanned) -> std::ops::Range<usize> {
    node.span().byte_range()
}

/// Every `use` item, in inline modules too.
fn use_items(items: &[Item]) -> Vec<&syn::ItemUse> {
    let mut out = Vec::new();
    for item in items {
        match item {
            Item::Use(u) => out.push(u),
            Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    out.extend(use_items(inner));
                }
            }
            _ => {}
        }
    }
    out
}

/// The names `use` items bring in (`ErrorCode`, the `McpError` of `ErrorData as McpError`).
fn imported_names(uses: &[&syn::ItemUse]) -> Vec<String> {
    fn walk(tree: &UseTree, out: &mut Vec<String>) {
        match tree {
            UseTree::Path(p) => walk(&p.tree, out),
            UseTree::Name(n) if n.ident != "self" => out.push(n.ident.to_string()),
            UseTree::Rename(r) if r.rename != "_" => out.push(r.rename.to_string()),
            UseTree::Group(g) => g.items.iter().for_each(|t| walk(t, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for u in uses {
        walk(&u.tree, &mut out);
    }
    out.sort();
    out.dedup();
    out
}

/// The identifier-like words of `text`.
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// How often `name` appears as a word in `text` outside comments (string literals count: a
/// format string can name it).
pub(crate) fn count(text: &str, name: &str) -> usize {
    words(&without_comments(text))
        .filter(|w| *w == name)
        .count()
}

/// `text` with its `//` and `/* */` comments blanked; string and char literals are kept and
/// skipped over, so a `"//"` starts no comment.
fn without_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
                out.push(b' ');
            }
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => {
                out.extend_from_slice(&bytes[i..i + 3]);
                i += 3;
            }
            b'"' => {
                out.push(b'"');
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    let step = if bytes[i] == b'\\' { 2 } else { 1 };
                    out.extend_from_slice(&bytes[i..(i + step).min(bytes.len())]);
                    i += step;
                }
                out.push(b'"');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A use tree as rustfmt prints it.
enum Tree {
    /// `name`, `name as alias`, `self`, `*`.
    Leaf {
        text: String,
        local: Option<String>,
    },
    Path(String, Box<Tree>),
    Group(Vec<Tree>),
}

impl Tree {
    fn of(tree: &UseTree) -> Tree {
        match tree {
            UseTree::Path(p) => Tree::Path(p.ident.to_string(), Box::new(Tree::of(&p.tree))),
            UseTree::Name(n) => Tree::Leaf {
                text: n.ident.to_string(),
                local: (n.ident != "self").then(|| n.ident.to_string()),
            },
            UseTree::Rename(r) => Tree::Leaf {
                text: format!("{} as {}", r.ident, r.rename),
                local: Some(r.rename.to_string()),
            },
            UseTree::Glob(_) => Tree::Leaf {
                text: "*".to_string(),
                local: None,
            },
            UseTree::Group(g) => Tree::Group(g.items.iter().map(Tree::of).collect()),
        }
    }

    /// The tree without the names in `drop`; `None` when nothing is left. A group left with one
    /// item loses its braces, as rustfmt writes it.
    fn without(self, drop: &HashSet<String>) -> Option<Tree> {
        match self {
            Tree::Leaf { local: Some(l), .. } if drop.contains(&l) => None,
            leaf @ Tree::Leaf { .. } => Some(leaf),
            Tree::Path(p, inner) => Some(Tree::Path(p, Box::new(inner.without(drop)?))),
            Tree::Group(items) => {
                let mut kept: Vec<Tree> =
                    items.into_iter().filter_map(|t| t.without(drop)).collect();
                match kept.len() {
                    0 => None,
                    1 if !matches!(&kept[0], Tree::Leaf { text, .. } if text == "self") => {
                        kept.pop()
                    }
                    _ => Some(Tree::Group(kept)),
                }
            }
        }
    }

    fn flat(&self) -> String {
        match self {
            Tree::Leaf { text, .. } => text.clone(),
            Tree::Path(p, inner) => format!("{p}::{}", inner.flat()),
            Tree::Group(items) => {
                let items: Vec<String> = items.iter().map(Tree::flat).collect();
                format!("{{{}}}", items.join(", "))
            }
        }
    }

    fn has_group(&self) -> bool {
        match self {
            Tree::Leaf { .. } => false,
            Tree::Path(_, inner) => inner.has_group(),
            Tree::Group(_) => true,
        }
    }

    /// Laid out from column `col` of a line indented by `indent`, `trail` columns after it.
    fn laid_out(&self, indent: usize, col: usize, trail: usize) -> String {
        let flat = self.flat();
        let nested = match self {
            Tree::Group(items) => items.iter().any(Tree::has_group),
            _ => false,
        };
        if !nested && col + flat.len() + trail <= MAX_WIDTH {
            return flat;
        }
        match self {
            Tree::Leaf { text, .. } => text.clone(),
            Tree::Path(p, inner) => {
                format!("{p}::{}", inner.laid_out(indent, col + p.len() + 2, trail))
            }
            Tree::Group(items) => {
                let inner = indent + 4;
                let width = MAX_WIDTH - inner;
                let mut out = "{".to_string();
                let mut line_len = 0;
                let mut prev_nested = false;
                for (i, item) in items.iter().enumerate() {
                    let text = item.laid_out(inner, inner, 1);
                    let is_path = text.contains("::");
                    let total = text.len() + 1;
                    let break_before = i == 0
                        || prev_nested
                        || is_path
                        || line_len + 1 + total > width
                        || text.contains('\n');
                    if break_before {
                        out.push('\n');
                        out.push_str(&" ".repeat(inner));
                        line_len = 0;
                    } else {
                        out.push(' ');
                        line_len += 1;
                    }
                    out.push_str(&text);
                    out.push(',');
                    line_len += total;
                    prev_nested = is_path;
                }
                out.push('\n');
                out.push_str(&" ".repeat(indent));
                out.push('}');
                out
            }
        }
    }
}

/// The replacement of every `use` that imports a name in `drop`.
fn rewrites(text: &str, uses: &[&syn::ItemUse], drop: &HashSet<String>) -> Vec<Edit> {
    if drop.is_empty() {
        return Vec::new();
    }
    let mut edits = Vec::new();
    for u in uses {
        let r = range(u);
        let Some(written) = text.get(r.clone()) else {
            continue;
        };
        let names = imported_names(&[u]);
        if !names.iter().any(|n| drop.contains(n))
            || written.contains("//")
            || written.contains("/*")
        {
            continue;
        }
        let use_at = range(&u.use_token).start;
        let lead = &text[r.start..use_at];
        let line_start = text[..r.start].rfind('\n').map_or(0, |i| i + 1);
        let indent = text[line_start..r.start]
            .chars()
            .take_while(|c| *c == ' ')
            .count();
        let colons = if u.leading_colon.is_some() { "::" } else { "" };
        match Tree::of(&u.tree).without(drop) {
            Some(tree) => {
                let col = indent + lead.chars().count() + "use ".len() + colons.len();
                edits.push(Edit {
                    start: r.start,
                    end: r.end,
                    replacement: format!("{lead}use {colons}{};", tree.laid_out(indent, col, 1)),
                });
            }
            None => {
                // The whole line, when the `use` is alone on it.
                let line_end = text[r.end..]
                    .find('\n')
                    .map_or(text.len(), |i| r.end + i + 1);
                let alone = text[line_start..r.start].trim().is_empty()
                    && text[r.end..line_end].trim().is_empty();
                let (start, end) = if alone {
                    (line_start, line_end)
                } else {
                    (r.start, r.end)
                };
                edits.push(Edit {
                    start,
                    end,
                    replacement: String::new(),
                });
            }
        }
    }
    edits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pruned(before: &str, after: &str) -> String {
        prune_after(before, after).unwrap_or_else(|| after.to_string())
    }

    #[test]
    fn narrows_a_group_to_the_name_left() {
        let before = "use rmcp::model::{ErrorCode, ErrorData};\nfn f() -> ErrorData { ErrorData::new(ErrorCode::X) }\n";
        let after =
            "use rmcp::model::{ErrorCode, ErrorData};\nfn f() -> ErrorData { ErrorData::new() }\n";
        assert_eq!(
            pruned(before, after),
            "use rmcp::model::ErrorData;\nfn f() -> ErrorData { ErrorData::new() }\n"
        );
    }

    #[test]
    fn deletes_a_use_left_empty_and_keeps_names_used_before_the_fix_only() {
        let before = "use a::B;\nuse a::Unused;\nfn f() { B }\n";
        let after = "use a::B;\nuse a::Unused;\nfn f() { C }\n";
        assert_eq!(pruned(before, after), "use a::Unused;\nfn f() { C }\n");
    }

    #[test]
    fn relays_a_vertical_group_as_rustfmt() {
        let before = "use rmcp::{\n    model::{CallToolRequestMethod, CallToolResult},\n    tool, ErrorData as McpError,\n};\nfn f() { CallToolRequestMethod; CallToolResult; tool; McpError }\n";
        let after = "use rmcp::{\n    model::{CallToolRequestMethod, CallToolResult},\n    tool, ErrorData as McpError,\n};\nfn f() { CallToolResult; tool; McpError }\n";
        assert_eq!(
            pruned(before, after),
            "use rmcp::{model::CallToolResult, tool, ErrorData as McpError};\nfn f() { CallToolResult; tool; McpError }\n"
        );
    }

    #[test]
    fn comments_are_no_use_but_strings_are() {
        assert_eq!(count("// B\n/* B */ x", "B"), 0);
        assert_eq!(count("format!(\"{B}\") '\"' B // B", "B"), 2);
        assert_eq!(count("\"//\" B", "B"), 1);
    }

    #[test]
    fn a_use_with_a_comment_is_left_alone() {
        let before = "use a::{B, /* why */ C};\nfn f() { B; C }\n";
        let after = "use a::{B, /* why */ C};\nfn f() { C }\n";
        assert_eq!(prune_after(before, after), None);
    }
}
