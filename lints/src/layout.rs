//! Layout of the code fixes write, by rustfmt's default rules (`max_width = 100`, the "Default"
//! small heuristics), so a file that was rustfmt-clean stays so after a fix.
//!
//! Only the fragment a fix writes is laid out: the calls, macros and struct literals of the
//! SDK's snippet, and the user's message and receiver where they move into it. Code around the
//! fix keeps its bytes. The rules are rustfmt's for these shapes (measured against rustfmt by
//! `tests/fix_layout.rs`): a list stays on one line when it fits and its arguments take at most
//! `fn_call_width` (60) columns; a single call-like argument overflows onto the call's own
//! lines; otherwise one argument per line, with a trailing comma outside macros.

use syn::spanned::Spanned;
use syn::Expr;

/// rustfmt's `max_width`.
pub const MAX_WIDTH: usize = 100;
/// rustfmt's `fn_call_width` and `array_width` under the default small heuristics.
const LIST_WIDTH: usize = 60;
/// rustfmt's `chain_width` under the default small heuristics.
pub const CHAIN_WIDTH: usize = 60;
/// rustfmt's `struct_lit_width`.
const STRUCT_WIDTH: usize = 18;
const INDENT: usize = 4;

/// A fragment to lay out.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    /// Code kept as written (a literal, a path, a call with receiver).
    Atom(String),
    /// `head(args)` or `head![args]`.
    List {
        head: String,
        open: char,
        close: char,
        args: Vec<Node>,
        /// A macro: rustfmt writes no trailing comma it did not find.
        is_macro: bool,
    },
    /// `root.into()`, `root.with_message(..)`: one method call after a call or struct literal;
    /// `tail` is the call (`.into()` an atom, `.with_message(..)` a list).
    Chain { root: Box<Node>, tail: Box<Node> },
    /// `Path { field: value, .. }` (a shorthand `field` without its value).
    Struct {
        path: String,
        fields: Vec<(String, Option<Node>)>,
    },
}

/// `code` laid out where its first line starts at column `col` of a line indented by `indent`,
/// with `trail` columns following its last line (`;`, `,`, `)`). Code that does not parse is
/// returned as it is.
pub fn expr_at(code: &str, indent: usize, col: usize, trail: usize) -> String {
    match syn::parse_str::<Expr>(code) {
        Ok(expr) => layout_anyway(
            &node(&expr, code),
            indent,
            MAX_WIDTH.saturating_sub(col + trail),
            MAX_WIDTH.saturating_sub(trail),
        ),
        Err(_) => code.to_string(),
    }
}

/// [`expr_at`] for the operand of a `return`, which rustfmt gives one column less (measured with
/// rustfmt 1.9: `return Ok(x);` of 100 columns is broken, `let v = Ok(x);` of 100 is not; a
/// call can still reach the limit through the one-column slack of [`one_argument`]).
pub fn return_operand_at(code: &str, indent: usize, col: usize, trail: usize) -> String {
    match syn::parse_str::<Expr>(code) {
        Ok(expr) => layout_anyway(
            &node(&expr, code),
            indent,
            MAX_WIDTH.saturating_sub(col + trail + 1),
            MAX_WIDTH.saturating_sub(trail),
        ),
        Err(_) => code.to_string(),
    }
}

/// How a match arm's body is laid out.
#[derive(Debug, PartialEq, Eq)]
pub enum ArmBody {
    /// On the arm's line (and the lines after it).
    SameLine(String),
    /// In a block on the next line: `{`, the body, `}` (the arm then takes no comma).
    Block(String),
}

/// A match arm's body `code` starting at column `col` of the arm's line (indented by `indent`,
/// `trail` columns after it, its comma included), as rustfmt lays out an arm (`matches.rs`,
/// `rewrite_match_body`): on the arm's line when it fits there; else in a block on the next
/// line when it fits there on one line, or breaks there into two lines fewer, or does not open
/// with `(`, `[` or `{` where it would on the arm's line; else broken on the arm's line.
pub fn arm_body_at(code: &str, indent: usize, col: usize, trail: usize) -> ArmBody {
    // Laid out at `col`: whether every line ends by the limit (what follows, after the last).
    let fits = |laid: &str, col: usize, trail: usize| {
        let lines: Vec<&str> = laid.split('\n').collect();
        lines.iter().enumerate().all(|(i, line)| {
            let start = if i == 0 { col } else { 0 };
            let after = if i + 1 == lines.len() { trail } else { 0 };
            start + line.len() + after <= MAX_WIDTH
        })
    };
    let same_line = expr_at(code, indent, col, trail);
    if !same_line.contains('\n') && fits(&same_line, col, trail) {
        return ArmBody::SameLine(same_line);
    }
    let inner = indent + INDENT;
    let next_line = expr_at(code, inner, inner, 0);
    if !fits(&next_line, inner, 0) {
        return ArmBody::SameLine(same_line);
    }
    let newlines = |s: &str| s.matches('\n').count();
    let opens = |s: &str, c: char| s.lines().next().is_some_and(|l| l.ends_with(c));
    let prefer_next = !next_line.contains('\n')
        || newlines(&same_line) > newlines(&next_line) + 1
        || ['(', '[', '{']
            .iter()
            .any(|c| opens(&same_line, *c) && !opens(&next_line, *c));
    if prefer_next {
        ArmBody::Block(format!("{{\n{}{next_line}\n{}}}", pad(inner), pad(indent)))
    } else {
        ArmBody::SameLine(same_line)
    }
}

/// `code` on one line as rustfmt would keep it, when rustfmt would (its lists within their
/// width limits); `None` otherwise. The caller checks the line's width.
pub fn flat(code: &str) -> Option<String> {
    let expr = syn::parse_str::<Expr>(code).ok()?;
    flat_node(&node(&expr, code))
}

fn source(code: &str, node: &impl Spanned) -> String {
    let r = node.span().byte_range();
    code.get(r).unwrap_or_default().to_string()
}

fn node(expr: &Expr, code: &str) -> Node {
    let atom = || Node::Atom(source(code, expr));
    match expr {
        Expr::Call(c) if matches!(&*c.func, Expr::Path(_)) => Node::List {
            head: source(code, &c.func),
            open: '(',
            close: ')',
            args: c.args.iter().map(|a| node(a, code)).collect(),
            is_macro: false,
        },
        Expr::Macro(m) => {
            let args = m.mac.parse_body_with(
                syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated,
            );
            let (open, close) = match m.mac.delimiter {
                syn::MacroDelimiter::Paren(_) => ('(', ')'),
                syn::MacroDelimiter::Bracket(_) => ('[', ']'),
                syn::MacroDelimiter::Brace(_) => return atom(),
            };
            let head = format!("{}!", source(code, &m.mac.path));
            match args {
                // A trailing comma written in a macro stays as written: keep such a call.
                Ok(args) if !args.trailing_punct() => Node::List {
                    head,
                    open,
                    close,
                    args: args.iter().map(|a| node(a, code)).collect(),
                    is_macro: open == '(',
                },
                _ => atom(),
            }
        }
        Expr::MethodCall(m) if m.turbofish.is_none() => match node(&m.receiver, code) {
            root @ (Node::List { .. } | Node::Struct { .. }) => {
                let tail = if m.args.is_empty() {
                    Node::Atom(format!(".{}()", m.method))
                } else {
                    Node::List {
                        head: format!(".{}", m.method),
                        open: '(',
                        close: ')',
                        args: m.args.iter().map(|a| node(a, code)).collect(),
                        is_macro: false,
                    }
                };
                Node::Chain {
                    root: Box::new(root),
                    tail: Box::new(tail),
                }
            }
            _ => atom(),
        },
        Expr::Struct(s) if s.rest.is_none() && s.qself.is_none() => Node::Struct {
            path: source(code, &s.path),
            fields: s
                .fields
                .iter()
                .map(|f| {
                    let name = source(code, &f.member);
                    let value = f.colon_token.is_some().then(|| node(&f.expr, code));
                    (name, value)
                })
                .collect(),
        },
        _ => atom(),
    }
}

fn flat_node(node: &Node) -> Option<String> {
    match node {
        Node::Atom(text) => (!text.contains('\n')).then(|| text.clone()),
        Node::List {
            head,
            open,
            close,
            args,
            is_macro,
        } => {
            let flat = args.iter().map(flat_node).collect::<Option<Vec<_>>>()?;
            let joined = flat.join(", ");
            // `format!("..")`: a macro's lone literal stays on the line whatever its length.
            let lone_literal =
                *is_macro && matches!(args.as_slice(), [Node::Atom(a)] if a.starts_with('"'));
            (joined.len() <= LIST_WIDTH || lone_literal)
                .then(|| format!("{head}{open}{joined}{close}"))
        }
        Node::Chain { root, tail } => Some(format!("{}{}", flat_node(root)?, flat_node(tail)?)),
        Node::Struct { path, fields } => {
            let fields = fields
                .iter()
                .map(|(name, value)| match value {
                    Some(value) => Some(format!("{name}: {}", flat_node(value)?)),
                    None => Some(name.clone()),
                })
                .collect::<Option<Vec<_>>>()?;
            let joined = fields.join(", ");
            (joined.len() <= STRUCT_WIDTH).then(|| format!("{path} {{ {joined} }}"))
        }
    }
}

fn can_overflow(node: &Node) -> bool {
    !matches!(node, Node::Atom(_))
}

/// A node that did not fit its width is laid out anyway, the best it can be.
fn layout_anyway(node: &Node, indent: usize, width: usize, margin: usize) -> String {
    layout(node, indent, width, margin).unwrap_or_else(|| match node {
        Node::Atom(text) => text.clone(),
        _ => vertical(node, indent),
    })
}

/// `node` laid out on a line indented by `indent`, in at most `width` columns on its first line
/// (up to its last closing delimiter; for a call overflowing into its caller's parentheses
/// rustfmt narrows it to the list width), its last line ending by column `margin` (what follows
/// it stands after), as rustfmt's `Shape`. `None`: it cannot start there.
fn layout(node: &Node, indent: usize, width: usize, margin: usize) -> Option<String> {
    if let Some(flat) = flat_node(node) {
        if flat.len() <= width {
            return Some(flat);
        }
    }
    match node {
        Node::Atom(text) => (!text.contains('\n')).then(|| text.clone()),
        Node::Chain { root, tail } => chain(root, tail, indent, width, margin),
        Node::List {
            head,
            open,
            close,
            args,
            ..
        } => {
            // Broken, only `head(` stands on the first line.
            let opened = head.len() + 2;
            if width < head.len() + 1 {
                return None;
            }
            match args.as_slice() {
                [only] => Some(one_argument(
                    node,
                    head,
                    (*open, *close),
                    only,
                    indent,
                    (width.saturating_sub(opened), margin.saturating_sub(1)),
                )),
                _ => Some(vertical(node, indent)),
            }
        }
        Node::Struct { path, .. } => (width >= path.len() + 2).then(|| vertical(node, indent)),
    }
}

/// `head(only)` that does not fit on one line, as rustfmt lays out a call with one argument
/// (`overflow.rs`, `try_overflow_last_item`), with `one_line` columns between the delimiters and
/// the argument's last line ending by `margin`: the argument overflows onto the call's lines
/// when its first line fits there within the list width (a call or macro argument is laid out
/// within it); overflowed onto two lines, it goes on a line of its own when it fits there whole
/// (with no trailing comma: rustfmt's list stays "horizontal"). Else it goes on its own line:
/// back on the call's line when it fits there (one argument is not held to the list width),
/// else one argument per line.
fn one_argument(
    node: &Node,
    head: &str,
    (open, close): (char, char),
    only: &Node,
    indent: usize,
    (one_line, margin): (usize, usize),
) -> String {
    let own_line = MAX_WIDTH.saturating_sub(indent + INDENT + 1);
    let limit = LIST_WIDTH.min(one_line);
    if can_overflow(only) {
        let overflowed = match only {
            // rustfmt's `combine_arg_with_callee`: a callee shorter than an indent (`Ok(`,
            // `Err(`) lets a method chain argument break; after a longer one it stays on a line
            // (a macro's arguments may break: edition 2021).
            Node::Chain { .. } if head.len() >= INDENT && !head.ends_with('!') => {
                flat_node(only).filter(|flat| flat.len() <= one_line)
            }
            // Only a nested call is narrowed to the list width (`is_nested_call`).
            Node::Chain { .. } | Node::Struct { .. } => layout(only, indent, one_line, margin),
            _ => layout(only, indent, limit, margin),
        };
        if let Some(inner) = overflowed {
            if inner.lines().next().map_or(0, str::len) <= limit {
                if inner.matches('\n').count() == 1 {
                    let alone = layout(only, indent + INDENT, own_line, MAX_WIDTH - 1)
                        .filter(|a| !a.contains('\n'));
                    // rustfmt's `wrap_items` counts one of the two delimiters: the call stays
                    // on its line when it ends at most one column past its width.
                    match alone {
                        Some(alone) if alone.len() <= one_line + 1 => {
                            return format!("{head}{open}{alone}{close}");
                        }
                        Some(alone) => {
                            return format!(
                                "{head}{open}\n{}{alone}\n{}{close}",
                                pad(indent + INDENT),
                                pad(indent)
                            );
                        }
                        None => {}
                    }
                }
                return format!("{head}{open}{inner}{close}");
            }
        }
    }
    match layout(only, indent + INDENT, own_line, MAX_WIDTH - 1) {
        Some(alone) if !alone.contains('\n') && alone.len() <= one_line => {
            format!("{head}{open}{alone}{close}")
        }
        _ => vertical(node, indent),
    }
}

/// `root.tail` that does not fit on one line, as rustfmt's chains (`chains.rs`, one child): the
/// root takes the whole width; after a root on one line the call may stay on its line when it
/// breaks there into no more lines than on a line of its own, else it goes on the next line,
/// indented; after a root on several lines it goes on the next line, under the root's last.
fn chain(root: &Node, tail: &Node, indent: usize, width: usize, margin: usize) -> Option<String> {
    let root = layout(root, indent, width, margin)?;
    if root.contains('\n') {
        let tail = layout_anyway(tail, indent, margin.saturating_sub(indent), margin);
        return Some(format!("{root}\n{}{tail}", pad(indent)));
    }
    let tail_indent = indent + INDENT;
    let own_line = layout(
        tail,
        tail_indent,
        margin.saturating_sub(tail_indent),
        margin,
    );
    let same_line = width
        .checked_sub(root.len())
        .filter(|w| *w > 0)
        .and_then(|w| {
            layout(tail, indent, w, margin).filter(|t| t.lines().next().map_or(0, str::len) <= w)
        });
    let lines = |s: &String| s.lines().count();
    match (same_line, own_line) {
        // rustfmt keeps a call of five lines or more on the root's line.
        (Some(same), Some(own)) if lines(&own) >= lines(&same) || lines(&same) >= 5 => {
            Some(format!("{root}{same}"))
        }
        (Some(same), None) => Some(format!("{root}{same}")),
        (_, own) => {
            let own = own.unwrap_or_else(|| vertical(tail, tail_indent));
            Some(format!("{root}\n{}{own}", pad(tail_indent)))
        }
    }
}

fn pad(n: usize) -> String {
    " ".repeat(n)
}

/// One argument or field per line.
fn vertical(node: &Node, indent: usize) -> String {
    let inner = indent + INDENT;
    match node {
        Node::List {
            head,
            open,
            close,
            args,
            is_macro,
        } => {
            let mut out = format!("{head}{open}\n");
            for (i, arg) in args.iter().enumerate() {
                let comma = if i + 1 == args.len() && *is_macro {
                    ""
                } else {
                    ","
                };
                let margin = MAX_WIDTH.saturating_sub(comma.len());
                out.push_str(&pad(inner));
                out.push_str(&layout_anyway(
                    arg,
                    inner,
                    margin.saturating_sub(inner),
                    margin,
                ));
                out.push_str(comma);
                out.push('\n');
            }
            out.push_str(&pad(indent));
            out.push(*close);
            out
        }
        Node::Struct { path, fields } => {
            let mut out = format!("{path} {{\n");
            for (name, value) in fields {
                let col = inner + name.len() + 2;
                out.push_str(&pad(inner));
                out.push_str(name);
                if let Some(value) = value {
                    out.push_str(": ");
                    out.push_str(&layout_anyway(
                        value,
                        inner,
                        MAX_WIDTH.saturating_sub(col + 1),
                        MAX_WIDTH - 1,
                    ));
                }
                out.push_str(",\n");
            }
            out.push_str(&pad(indent));
            out.push('}');
            out
        }
        Node::Atom(_) | Node::Chain { .. } => {
            layout_anyway(node, indent, MAX_WIDTH - indent, MAX_WIDTH)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_on_one_line_within_the_list_width() {
        assert_eq!(
            expr_at(
                "Ok(CallToolResult::error(vec![Content::text(\"x\")]))",
                8,
                15,
                1
            ),
            "Ok(CallToolResult::error(vec![Content::text(\"x\")]))"
        );
    }

    #[test]
    fn shorthand_fields_stay_shorthand() {
        assert_eq!(
            expr_at("Ok(Json(Stat { path, bytes: meta.len(), error: None }))", 12, 24, 1),
            "Ok(Json(Stat {\n                path,\n                bytes: meta.len(),\n                error: None,\n            }))"
        );
    }

    #[test]
    fn overflows_a_single_call_argument() {
        let msg = "a note titled {title} already exists; pick another title";
        assert_eq!(
            expr_at(
                &format!("Ok(CallToolResult::error(vec![Content::text(format!(\"{msg}\"))]))"),
                12,
                19,
                1
            ),
            format!("Ok(CallToolResult::error(vec![Content::text(format!(\n                \"{msg}\"\n            ))]))")
        );
    }
}
