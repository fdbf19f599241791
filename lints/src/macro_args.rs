//! The arguments of the std, serde_json, anyhow and tokio macros that take expressions
//! (`format!`, `vec!`, `json!`, `tokio::join!`, `tokio::select!`'s futures …), parsed as the expressions they are, so the
//! walk sees a `?`, a call or an `Err(..)` written inside them. syn keeps a macro's arguments as
//! tokens; these are parsed once per file, the first time the file's bodies are walked. Macros
//! whose arguments are not expressions (or do not parse as such) are left as tokens.

use std::collections::HashMap;

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::visit::Visit;
use syn::{Expr, Token};

/// The parsed arguments of every expression-taking macro of one file, by where its delimiters
/// open and close.
#[derive(Default)]
pub struct MacroArgs {
    args: HashMap<(usize, usize), Vec<Expr>>,
}

impl MacroArgs {
    pub fn of_file(file: &syn::File) -> MacroArgs {
        let mut collect = Collect::default();
        collect.visit_file(file);
        MacroArgs { args: collect.args }
    }

    /// The expressions a macro's arguments parse as (empty when it takes none we know).
    pub fn get(&self, mac: &syn::Macro) -> &[Expr] {
        self.parsed(mac).unwrap_or_default()
    }

    /// The expressions a macro's arguments parse as; `None` when they were not parsed (a macro
    /// whose arguments are no expressions we know, or one outside the file's tree).
    pub fn parsed(&self, mac: &syn::Macro) -> Option<&[Expr]> {
        self.args.get(&opening(mac)?).map(Vec::as_slice)
    }
}

/// Where a macro's delimiters open and close: a macro of another file (a `macro_rules!` body
/// expanded here) at the same offsets would have to have the same extent. A macro nested in
/// another's arguments lies strictly inside it, so following arguments always ends. `None`
/// for delimiters with no place in the text (tokens made with `Span::call_site()`, or every
/// span under proc-macro2's `cfg(fuzzing)`): all of those share `0..0`, and a key they shared
/// would give a macro the arguments of one around it, which contain it: a walk without end.
fn opening(mac: &syn::Macro) -> Option<(usize, usize)> {
    let span = match &mac.delimiter {
        syn::MacroDelimiter::Paren(p) => p.span,
        syn::MacroDelimiter::Brace(b) => b.span,
        syn::MacroDelimiter::Bracket(b) => b.span,
    };
    let (open, close) = (span.open().byte_range(), span.close().byte_range());
    (open.start < close.end).then_some((open.start, close.end))
}

#[derive(Default)]
struct Collect {
    args: HashMap<(usize, usize), Vec<Expr>>,
}

impl<'v> Visit<'v> for Collect {
    fn visit_macro(&mut self, mac: &'v syn::Macro) {
        let Some(args) = parse_args(mac) else {
            return;
        };
        // Macros inside the arguments (`vec![format!(..)]`) are found in the parsed tree.
        for a in &args {
            self.visit_expr(a);
        }
        if let Some(at) = opening(mac) {
            self.args.insert(at, args);
        }
    }
}

/// How a macro's arguments read.
enum Shape {
    /// `a, b, c` (format strings and their arguments, `vec![..]`, `join!(..)`).
    List,
    /// `vec![x; n]` or a list.
    Vec,
    /// serde_json's JSON-like syntax.
    Json,
    /// `tokio::select!`'s arms.
    Select,
}

fn shape(name: &str) -> Option<Shape> {
    Some(match name {
        "format" | "print" | "println" | "eprint" | "eprintln" | "write" | "writeln"
        | "format_args" | "panic" | "assert" | "assert_eq" | "assert_ne" | "debug_assert"
        | "debug_assert_eq" | "debug_assert_ne" | "anyhow" | "bail" | "ensure" | "join"
        | "try_join" | "dbg" => Shape::List,
        "vec" => Shape::Vec,
        "json" => Shape::Json,
        "select" => Shape::Select,
        _ => return None,
    })
}

fn parse_args(mac: &syn::Macro) -> Option<Vec<Expr>> {
    let name = mac.path.segments.last()?.ident.to_string();
    let tokens = mac.tokens.clone();
    match shape(&name)? {
        Shape::List => list(tokens),
        Shape::Vec => list(tokens.clone()).or_else(|| {
            let repeat = |input: ParseStream<'_>| -> syn::Result<Vec<Expr>> {
                let value: Expr = input.parse()?;
                input.parse::<Token![;]>()?;
                let count: Expr = input.parse()?;
                Ok(vec![value, count])
            };
            repeat.parse2(tokens).ok()
        }),
        Shape::Json => {
            let mut out = Vec::new();
            json_value(tokens, &mut out, 0);
            Some(out)
        }
        Shape::Select => select_arms(tokens),
    }
}

fn list(tokens: TokenStream) -> Option<Vec<Expr>> {
    Punctuated::<Expr, Token![,]>::parse_terminated
        .parse2(tokens)
        .ok()
        .map(|p| p.into_iter().collect())
}

/// `tokio::select! { biased; pat = future, if precondition => handler, .., else => handler }`:
/// each arm's future and precondition, so the calls there are calls (a handler in braces needs
/// no comma after it). The handlers stay tokens: the select is often a fn's tail, and an `Err` a
/// handler answers may be consumed by a caller that returns no protocol error, which the reach
/// does not tell yet. `None` when an arm does not read so.
fn select_arms(tokens: TokenStream) -> Option<Vec<Expr>> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut trees = trees.as_slice();
    if let [TokenTree::Ident(b), TokenTree::Punct(semi), rest @ ..] = trees {
        if b == "biased" && semi.as_char() == ';' {
            trees = rest;
        }
    }
    let mut out = Vec::new();
    while !trees.is_empty() {
        let arrow = (0..trees.len()).find(|&i| is_fat_arrow(&trees[i..]))?;
        let head = &trees[..arrow];
        if !matches!(head, [TokenTree::Ident(e)] if e == "else") {
            // `pat = future` and an optional `, if precondition`.
            let eq = (0..head.len()).find(|&i| is_lone_eq(&head[..=i]))?;
            let rest = &head[eq + 1..];
            let guard = (0..rest.len()).find(|&i| {
                is_comma(&rest[i])
                    && matches!(rest.get(i + 1), Some(TokenTree::Ident(k)) if k == "if")
            });
            match guard {
                Some(i) => {
                    out.push(parse_expr(&rest[..i])?);
                    out.push(parse_expr(&rest[i + 2..])?);
                }
                None => out.push(parse_expr(rest)?),
            }
        }
        trees = &trees[arrow + 2..];
        let handler_len = match trees.first()? {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => 1,
            _ => trees.iter().position(is_comma).unwrap_or(trees.len()),
        };
        // Checked, not kept: an arm whose handler is no expression is no arm.
        parse_expr(&trees[..handler_len])?;
        trees = &trees[handler_len..];
        if trees.first().is_some_and(is_comma) {
            trees = &trees[1..];
        }
    }
    Some(out)
}

fn parse_expr(tokens: &[TokenTree]) -> Option<Expr> {
    syn::parse2(tokens.iter().cloned().collect()).ok()
}

fn is_comma(tt: &TokenTree) -> bool {
    matches!(tt, TokenTree::Punct(p) if p.as_char() == ',')
}

/// `=>`: a joint `=` and a `>`.
fn is_fat_arrow(trees: &[TokenTree]) -> bool {
    matches!(trees, [TokenTree::Punct(eq), TokenTree::Punct(gt), ..]
        if eq.as_char() == '=' && eq.spacing() == Spacing::Joint && gt.as_char() == '>')
}

/// Whether the last of `trees` is a `=` of its own, not the end of `==`, `<=`, `>=`, `!=` or
/// `..=` (a punct joined to the one before it).
fn is_lone_eq(trees: &[TokenTree]) -> bool {
    let [.., before, TokenTree::Punct(eq)] = trees else {
        return matches!(trees, [TokenTree::Punct(eq)] if eq.as_char() == '=' && eq.spacing() == Spacing::Alone);
    };
    eq.as_char() == '='
        && eq.spacing() == Spacing::Alone
        && !matches!(before, TokenTree::Punct(p) if p.spacing() == Spacing::Joint)
}

/// The expressions of a `json!` value: an object's values, an array's elements, or the value
/// itself (`null`, `true` and `false` are no expressions of interest and parse as paths).
fn json_value(tokens: TokenStream, out: &mut Vec<Expr>, depth: usize) {
    if depth > 32 {
        return;
    }
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    if let [TokenTree::Group(g)] = trees.as_slice() {
        match g.delimiter() {
            Delimiter::Brace => {
                for entry in split_commas(g.stream()) {
                    if let Some(value) = after_key(&entry) {
                        json_value(value, out, depth + 1);
                    }
                }
                return;
            }
            Delimiter::Bracket => {
                for element in split_commas(g.stream()) {
                    json_value(element.into_iter().collect(), out, depth + 1);
                }
                return;
            }
            _ => {}
        }
    }
    if let Ok(e) = syn::parse2::<Expr>(tokens) {
        out.push(e);
    }
}

/// Top-level comma-separated pieces of a token stream.
fn split_commas(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut out = vec![Vec::new()];
    for tt in tokens {
        if matches!(&tt, TokenTree::Punct(p) if p.as_char() == ',') {
            out.push(Vec::new());
        } else if let Some(piece) = out.last_mut() {
            piece.push(tt);
        }
    }
    out.retain(|v| !v.is_empty());
    out
}

/// What follows an object entry's key: the tokens after its first lone `:` (not part of `::`).
fn after_key(entry: &[TokenTree]) -> Option<TokenStream> {
    let mut previous_joint_colon = false;
    for (i, tt) in entry.iter().enumerate() {
        if let TokenTree::Punct(p) = tt {
            if p.as_char() == ':' {
                if p.spacing() == Spacing::Alone && !previous_joint_colon {
                    return Some(entry[i + 1..].iter().cloned().collect());
                }
                previous_joint_colon = p.spacing() == Spacing::Joint;
                continue;
            }
        }
        previous_joint_colon = false;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args_of(src: &str) -> Vec<String> {
        let file: syn::File = syn::parse_str(&format!("fn f() {{ {src}; }}")).unwrap();
        let args = MacroArgs::of_file(&file);
        let mut found = Vec::new();
        struct Find<'m>(&'m MacroArgs, &'m mut Vec<String>);
        impl<'v> Visit<'v> for Find<'_> {
            fn visit_macro(&mut self, mac: &'v syn::Macro) {
                for a in self.0.get(mac) {
                    self.1.push(quote::ToTokens::to_token_stream(a).to_string());
                }
            }
        }
        Find(&args, &mut found).visit_file(&file);
        found
    }

    #[test]
    fn format_and_vec_arguments_are_expressions() {
        assert_eq!(
            args_of(r#"format!("{} {x}", a?, x = b())"#),
            [r#""{} {x}""#, "a ?", "x = b ()"]
        );
        assert_eq!(args_of("vec![Content::text(m)]"), ["Content :: text (m)"]);
        assert_eq!(args_of("vec![0u8; n]"), ["0u8", "n"]);
    }

    #[test]
    fn json_values_not_keys() {
        assert_eq!(
            args_of(r#"json!({ "a": f()?, "b": [x, { "c": Foo::bar(y) }], "d": null })"#),
            ["f () ?", "x", "Foo :: bar (y)", "null"]
        );
    }

    /// Tokens made with `Span::call_site()` (and, under proc-macro2's `cfg(fuzzing)`, every
    /// token) all sit at `0..0`: keyed there, `format!` would get the arguments of the
    /// `vec!` around it, which hold the `format!` again, and the walk would never end (the
    /// fuzzers' stack overflow of 2026-12-02). Such macros get no parsed arguments.
    #[test]
    fn macros_without_a_place_in_the_text_get_no_arguments() {
        let file: syn::File = syn::parse2(quote::quote! {
            fn f() { let v = vec![Content::text(format!("x {}", a))]; }
        })
        .unwrap();
        let args = MacroArgs::of_file(&file);
        struct Count<'m>(&'m MacroArgs, usize, usize);
        impl<'v> Visit<'v> for Count<'_> {
            fn visit_macro(&mut self, mac: &'v syn::Macro) {
                self.1 += 1;
                self.2 += self.0.get(mac).len();
            }
        }
        let mut count = Count(&args, 0, 0);
        count.visit_file(&file);
        assert_eq!(
            (count.1, count.2),
            (1, 0),
            "the vec! is seen, no arguments are given"
        );
        // The same text parsed from source has its places, and its arguments.
        assert_eq!(
            args_of(r#"vec![Content::text(format!("x {}", a))]"#),
            [r#"Content :: text (format ! ("x {}" , a))"#]
        );
    }

    #[test]
    fn other_macros_stay_tokens() {
        assert!(args_of("sqlx::query!(\"select 1\", a)").is_empty());
        assert!(args_of("tracing::info!(?x, %y, \"msg\")").is_empty());
    }

    #[test]
    fn select_arms_futures_and_preconditions() {
        assert_eq!(
            args_of(
                "tokio::select! { biased; v = rx.recv() => v?, _ = sleep(d), if n <= 3 => { retry(n) } \
                 Some(x) = next(&mut s) => handle(x).await, else => 0 }"
            ),
            ["rx . recv ()", "sleep (d)", "n <= 3", "next (& mut s)"]
        );
        // An arm that does not read as one: nothing, rather than a guess.
        assert!(args_of("tokio::select! { v => w }").is_empty());
    }
}
