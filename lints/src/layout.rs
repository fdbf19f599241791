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
    /// `root.into()`: a method call without arguments after a fragment.
    Chain { root: Box<Node>, tail: String },
    /// `Path { field: value, .. }`.
    Struct {
        path: String,
        fields: Vec<(String, Node)>,
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
        ),
        Err(_) => code.to_string(),
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
        Expr::MethodCall(m) if m.args.is_empty() && m.turbofish.is_none() => {
            match node(&m.receiver, code) {
                root @ (Node::List { .. } | Node::Struct { .. }) => Node::Chain {
                    root: Box::new(root),
                    tail: format!(".{}()", m.method),
                },
                _ => atom(),
            }
        }
        Expr::Struct(s) if s.rest.is_none() && s.qself.is_none() => Node::Struct {
            path: source(code, &s.path),
            fields: s
                .fields
                .iter()
                .map(|f| {
                    let name = source(code, &f.member);
                    (name, node(&f.expr, code))
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
        Node::Chain { root, tail } => Some(format!("{}{tail}", flat_node(root)?)),
        Node::Struct { path, fields } => {
            let fields = fields
                .iter()
                .map(|(name, value)| Some(format!("{name}: {}", flat_node(value)?)))
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
fn layout_anyway(node: &Node, indent: usize, width: usize) -> String {
    layout(node, indent, width).unwrap_or_else(|| match node {
        Node::Atom(text) => text.clone(),
        _ => vertical(node, indent),
    })
}

/// `node` laid out on a line indented by `indent`, in at most `width` columns
/// on its first line (up to its last closing delimiter; for a call overflowing into its caller's
/// parentheses rustfmt narrows it to the list width), as rustfmt's `Shape`. `None`: it cannot
/// start there.
fn layout(node: &Node, indent: usize, width: usize) -> Option<String> {
    if let Some(flat) = flat_node(node) {
        if flat.len() <= width {
            return Some(flat);
        }
    }
    match node {
        Node::Atom(text) => (!text.contains('\n')).then(|| text.clone()),
        Node::Chain { root, tail } => {
            let root = layout(root, indent, width)?;
            // After a root on one line the call goes on the next, indented; after a root on
            // several lines it lines up with the root's last line.
            let tail_indent = if root.contains('\n') {
                indent
            } else {
                indent + INDENT
            };
            Some(format!("{root}\n{}{tail}", pad(tail_indent)))
        }
        Node::List {
            head,
            open,
            close,
            args,
            ..
        } => {
            let opened = head.len() + 2;
            if width < opened {
                return None;
            }
            if let [only] = args.as_slice() {
                if can_overflow(only) {
                    // A method chain is not narrowed (rustfmt's `is_nested_call`).
                    let narrowed = match only {
                        Node::Chain { .. } => width - opened,
                        _ => LIST_WIDTH.min(width - opened),
                    };
                    if let Some(inner) = layout(only, indent, narrowed) {
                        // Overflowed onto two lines, the argument goes on a line of its own
                        // when it fits there whole.
                        let alone = MAX_WIDTH.saturating_sub(indent + INDENT + 1);
                        let fits_alone = flat_node(only).is_some_and(|f| f.len() <= alone);
                        if inner.matches('\n').count() != 1 || !fits_alone {
                            return Some(format!("{head}{open}{inner}{close}"));
                        }
                    }
                }
            }
            Some(vertical(node, indent))
        }
        Node::Struct { path, .. } => (width >= path.len() + 2).then(|| vertical(node, indent)),
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
                let width = MAX_WIDTH.saturating_sub(inner + comma.len());
                out.push_str(&pad(inner));
                out.push_str(&layout_anyway(arg, inner, width));
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
                out.push_str(": ");
                out.push_str(&layout_anyway(
                    value,
                    inner,
                    MAX_WIDTH.saturating_sub(col + 1),
                ));
                out.push_str(",\n");
            }
            out.push_str(&pad(indent));
            out.push('}');
            out
        }
        Node::Atom(_) | Node::Chain { .. } => layout_anyway(node, indent, MAX_WIDTH - indent),
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
