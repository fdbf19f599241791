//! Tool-result content as the SDKs spell it alike: content vectors and text blocks
//! (`vec![ContentBlock::text(..)]`, `TextContent::new(..)`), error values that become text, the
//! `#[tool(name = "..")]` attribute. Shared by the dialects; each SDK's own constructors live in
//! its file.

use syn::{Expr, ExprCall};

use super::ContentFacts;
use crate::index::FnItem;
use crate::source::SourceFile;
use crate::syntax::attr_name;
use crate::syntax::path_segments as segments;
use crate::text::{json_texts, message_from_expr, MessageText};

/// The last two segments of a call's path (`CallToolResult::error` → ("CallToolResult", "error")).
pub(super) fn call_path(call: &ExprCall) -> Option<Vec<String>> {
    match &*call.func {
        Expr::Path(p) => Some(segments(&p.path)),
        _ => None,
    }
}

/// `true` or `Some(true)`.
pub fn is_true(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(l) => matches!(&l.lit, syn::Lit::Bool(b) if b.value),
        Expr::Call(c) => {
            matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some"))
                && c.args.len() == 1
                && is_true(&c.args[0])
        }
        Expr::Paren(p) => is_true(&p.expr),
        _ => false,
    }
}

/// `vec![..]`, `Vec::new()`, `Some(vec![..])` (0.4–0.5) and their text blocks.
pub fn content_facts(expr: &Expr, file: &SourceFile) -> ContentFacts {
    match expr {
        Expr::Macro(m) if m.mac.path.is_ident("vec") => {
            let parsed = m.mac.parse_body_with(
                syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated,
            );
            let Ok(items) = parsed else {
                return ContentFacts::unknown();
            };
            let blocks: Vec<ContentFacts> = items.iter().map(|e| block_facts(e, file)).collect();
            ContentFacts {
                empty: blocks.iter().all(|b| b.empty),
                texts: blocks.into_iter().flat_map(|b| b.texts).collect(),
            }
        }
        Expr::Call(c) => match &*c.func {
            Expr::Path(p)
                if c.args.is_empty()
                    && matches!(segments(&p.path).as_slice(), [.., ty, m] if ty == "Vec" && (m == "new" || m == "default")) =>
            {
                ContentFacts {
                    empty: true,
                    texts: Vec::new(),
                }
            }
            Expr::Path(p) if p.path.is_ident("Some") && c.args.len() == 1 => {
                content_facts(&c.args[0], file)
            }
            // A text argument (`CallToolError::from_message(..)`, `ToolResult::error(..)`).
            _ => error_value_text(expr, file),
        },
        Expr::Paren(p) => content_facts(&p.expr, file),
        // `structured_error(json!({"error": ".."}))`: the value is serialised as the text.
        Expr::Macro(m) if crate::syntax::is_json_macro(&m.mac) => ContentFacts {
            empty: false,
            texts: json_texts(&m.mac, file),
        },
        // A text argument: a literal, `format!(..)`, `"..".to_string()`.
        Expr::Macro(_) | Expr::Lit(_) | Expr::MethodCall(_) | Expr::Reference(_) => {
            error_value_text(expr, file)
        }
        _ => ContentFacts::unknown(),
    }
}

/// One content block: `ContentBlock::text(..)`, `Content::text(..)`, `RawContent::text(..)
/// .no_annotation()`, `x.into()`.
fn block_facts(expr: &Expr, file: &SourceFile) -> ContentFacts {
    match expr {
        Expr::MethodCall(m)
            if m.args.is_empty() && (m.method == "no_annotation" || m.method == "into") =>
        {
            block_facts(&m.receiver, file)
        }
        Expr::Try(t) => block_facts(&t.expr, file),
        Expr::Call(c) => {
            let Some(segs) = call_path(c) else {
                return ContentFacts::unknown();
            };
            match segs.as_slice() {
                // rust-mcp-schema: `ContentBlock::TextContent(TextContent::new(text, None, None))`
                [.., ty, m] if ty == "ContentBlock" && m == "TextContent" && c.args.len() == 1 => {
                    block_facts(&c.args[0], file)
                }
                [.., ty, m] if m == "json" && (ty.ends_with("Content") || ty == "ContentBlock") => {
                    let texts = match c.args.first() {
                        Some(Expr::Macro(mac)) => json_texts(&mac.mac, file),
                        _ => Vec::new(),
                    };
                    ContentFacts {
                        empty: false,
                        texts,
                    }
                }
                // `TextContent::new(..)`, `Content::text(..)`, `ContentBlock::text(..)`
                [.., ty, m]
                    if (ty == "TextContent" && (m == "new" || m == "from"))
                        || (m == "text" && (ty.ends_with("Content") || ty == "ContentBlock")) =>
                {
                    let text = c
                        .args
                        .first()
                        .map_or(MessageText::Opaque, |a| message_from_expr(a, file));
                    ContentFacts {
                        empty: text.is_blank(),
                        texts: vec![text],
                    }
                }
                _ => ContentFacts::unknown(),
            }
        }
        _ => ContentFacts::unknown(),
    }
}

/// The `json!` value a content vector's one block (`block`, the one item of its `vec![..]`)
/// holds, when it is one: `Content::json(json!({..})).map_err(..)?`,
/// `Content::text(json!({..}).to_string())`,
/// `Content::text(serde_json::to_string(&json!({..})).unwrap())`. Its members are what the
/// answer says (an `"error"`, `"success": false`).
pub fn json_answer(block: &Expr) -> Option<&syn::Macro> {
    let mut block = block;
    loop {
        block = match block {
            Expr::Try(t) => &t.expr,
            Expr::Paren(p) => &p.expr,
            Expr::MethodCall(mc)
                if matches!(
                    mc.method.to_string().as_str(),
                    "map_err" | "unwrap" | "expect" | "into" | "no_annotation"
                ) =>
            {
                &mc.receiver
            }
            _ => break,
        };
    }
    let Expr::Call(c) = block else {
        return None;
    };
    let segs = call_path(c)?;
    let [.., ty, f] = segs.as_slice() else {
        return None;
    };
    let content_type = ty.ends_with("Content") || ty == "ContentBlock";
    if !content_type || (f != "json" && f != "text") {
        return None;
    }
    crate::syntax::answered_json(crate::syntax::strip_refs(c.args.first()?))
}

/// The text value one content block wraps (`x` of `Content::text(x)`, `Content::json(x)?`,
/// `TextContent::from(x)`,
/// `ContentBlock::text(x)`, `x.into()`), as [`block_facts`] reads it: where a success result's
/// text comes from.
pub fn block_text_value(expr: &Expr) -> Option<&Expr> {
    match expr {
        Expr::MethodCall(m) if m.args.is_empty() && m.method == "no_annotation" => {
            block_text_value(&m.receiver)
        }
        Expr::MethodCall(m) if m.args.is_empty() && m.method == "into" => {
            block_text_value(&m.receiver).or(Some(&m.receiver))
        }
        Expr::Try(t) => block_text_value(&t.expr),
        Expr::Call(c) => {
            let segs = call_path(c)?;
            match segs.as_slice() {
                [.., ty, m] if ty == "ContentBlock" && m == "TextContent" && c.args.len() == 1 => {
                    block_text_value(&c.args[0])
                }
                // `Content::json(v)?`: rmcp serialises `v` as the block's text.
                [.., ty, m]
                    if (ty == "TextContent" && (m == "new" || m == "from"))
                        || ((m == "text" || m == "json")
                            && (ty.ends_with("Content") || ty == "ContentBlock")) =>
                {
                    c.args.first()
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The text of an error value that the SDK turns into an isError result: a string, a content block,
/// `()` (no content at all).
pub fn error_value_text(expr: &Expr, file: &SourceFile) -> ContentFacts {
    match expr {
        Expr::Tuple(t) if t.elems.is_empty() => ContentFacts {
            empty: true,
            texts: vec![MessageText::Absent],
        },
        Expr::Call(_) | Expr::MethodCall(_) => {
            let block = block_facts(expr, file);
            if !block.texts.is_empty() {
                return block;
            }
            let text = message_from_expr(expr, file);
            ContentFacts {
                empty: text.is_blank(),
                texts: vec![text],
            }
        }
        _ => {
            let text = message_from_expr(expr, file);
            ContentFacts {
                empty: text.is_blank(),
                texts: vec![text],
            }
        }
    }
}

/// Content constructors whose own `Err` is a protocol error the SDK built (`Content::json(v)?`).
pub fn is_sdk_fallible_call(expr: &Expr) -> bool {
    match expr {
        Expr::Call(c) => call_path(c).is_some_and(|s| {
            matches!(s.as_slice(), [.., ty, m] if (ty == "Content" || ty == "ContentBlock") && m == "json")
        }),
        Expr::Await(a) => is_sdk_fallible_call(&a.base),
        _ => false,
    }
}

/// The wire name from `#[tool(name = "..")]`, else the fn name.
pub fn tool_name(f: &FnItem<'_>) -> String {
    use proc_macro2::TokenTree;
    f.attrs
        .iter()
        .filter(|a| attr_name(a) == "tool")
        .find_map(|a| {
            let list = a.meta.require_list().ok()?;
            let tokens: Vec<TokenTree> = list.tokens.clone().into_iter().collect();
            tokens.windows(3).find_map(|w| match w {
                [TokenTree::Ident(i), TokenTree::Punct(p), TokenTree::Literal(l)]
                    if i == "name" && p.as_char() == '=' =>
                {
                    syn::parse_str::<syn::LitStr>(&l.to_string())
                        .ok()
                        .map(|s| s.value())
                }
                _ => None,
            })
        })
        .or_else(|| declared_name(f))
        .unwrap_or_else(|| match &f.owner {
            // `impl ToolHandler for DeleteAsset { fn handle(..) }`: every tool's method has the
            // trait's name; the type names the tool. (A `#[tool]` method's name is its tool's.)
            crate::index::Owner::Trait { self_ty, .. }
                if !f.attrs.iter().any(|a| attr_name(a) == "tool") =>
            {
                self_ty.clone()
            }
            _ => f.name.clone(),
        })
}

/// A trait impl that declares its tool's name in a sibling `fn name() -> &'static str`
/// (kodegen's `Tool`): the literal it returns, or the impl's type when it returns a constant of
/// another crate.
fn declared_name(f: &FnItem<'_>) -> Option<String> {
    let name_fn = f.impl_items.iter().find_map(|item| match item {
        syn::ImplItem::Fn(m) if m.sig.ident == "name" && m.sig.inputs.is_empty() => Some(m),
        _ => None,
    })?;
    if let Some(syn::Stmt::Expr(tail, None)) = name_fn.block.stmts.last() {
        if let Some(text) = crate::syntax::str_literal(tail) {
            return Some(text);
        }
    }
    match f.impl_self_ty? {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}
