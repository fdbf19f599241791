//! Crate `macro_rules!` expanded by substitution, so a walk sees the expression a call like
//! `tool_err!("..")` stands for. Only what can be decided from the tokens: the arm is the
//! first whose pattern matches (literal tokens, `$x:expr`, `$x:ident`, `$x:literal`, `$x:tt`,
//! `$x:ty` and `$x:path` (the longest type or path syn parses there), and one level of
//! `$(..) sep op` repetition); any other fragment, a match this matcher cannot decide, or an
//! expansion that does not parse as an expression gives no expansion at all, never a guess. Expansions nest at most [`MAX_DEPTH`] deep and are bounded in size.

use std::cell::RefCell;
use std::collections::HashMap;

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::{Expr, Item};

use crate::resolve::{DefMap, Generated, GeneratedItems, ItemId, ModuleId};

/// Macro calls inside an expansion are expanded up to this depth.
pub const MAX_DEPTH: usize = 8;
/// Tokens one expansion may produce.
const MAX_TOKENS: usize = 20_000;
/// Tokens all expansions of a crate may produce.
const CRATE_BUDGET: usize = 2_000_000;

/// One crate macro call, expanded.
pub struct Expansion<'a> {
    pub expr: &'a Expr,
    /// The `macro_rules!` it expanded.
    pub macro_item: ItemId,
}

/// The expansions of one crate's macro calls, each computed once, kept for the whole analysis.
pub struct Expander<'a> {
    defs: &'a DefMap<'a>,
    arena: typed_arena::Arena<Expr>,
    done: RefCell<HashMap<*const syn::Macro, Option<(&'a Expr, ItemId)>>>,
    budget: RefCell<usize>,
}

impl<'a> Expander<'a> {
    pub fn new(defs: &'a DefMap<'a>) -> Expander<'a> {
        Expander {
            defs,
            arena: typed_arena::Arena::new(),
            done: RefCell::new(HashMap::new()),
            budget: RefCell::new(CRATE_BUDGET),
        }
    }

    /// The expression `mac` (written in `module`, `depth` expansions deep) expands to, when it
    /// calls a crate `macro_rules!` whose arm and expansion are certain. Every token of the
    /// expansion carries the call's span, so what is found inside is reported at the call.
    pub fn expand(
        &'a self,
        mac: &syn::Macro,
        module: ModuleId,
        depth: usize,
    ) -> Option<Expansion<'a>> {
        let key = mac as *const syn::Macro;
        if let Some(done) = self.done.borrow().get(&key) {
            return done.map(|(expr, macro_item)| Expansion { expr, macro_item });
        }
        let result = (depth < MAX_DEPTH)
            .then(|| self.compute(mac, module))
            .flatten()
            .map(|(expr, id)| (&*self.arena.alloc(expr), id));
        self.done.borrow_mut().insert(key, result);
        result.map(|(expr, macro_item)| Expansion { expr, macro_item })
    }

    /// Where in the body of `macro_item` the tokens of `expr` (a node of one of its expansions)
    /// are written, as a byte range of the macro's file: the one run of the body's tokens that
    /// reads the same (`unexpected_error(e)` in `Err(e) => unexpected_error(e)`). `None` when
    /// the node holds a substituted fragment, or the body has the run twice or not at all.
    pub fn written_at(&self, macro_item: ItemId, expr: &Expr) -> Option<(usize, usize)> {
        let Item::Macro(def) = self.defs.item(macro_item).syntax else {
            return None;
        };
        let wanted = flat_tokens(quote::ToTokens::to_token_stream(expr));
        let body = flat_tokens(def.mac.tokens.clone());
        if wanted.is_empty() || wanted.len() > body.len() {
            return None;
        }
        let mut runs = body
            .windows(wanted.len())
            .filter(|w| w.iter().zip(&wanted).all(|(a, b)| a.0 == b.0));
        let run = runs.next()?;
        if runs.next().is_some() {
            return None;
        }
        let start = run.first()?.1.byte_range().start;
        let end = run.last()?.1.byte_range().end;
        (start < end).then_some((start, end))
    }

    fn compute(&self, mac: &syn::Macro, module: ModuleId) -> Option<(Expr, ItemId)> {
        let span = mac.span();
        let (out, id) = substitute(self.defs, mac, module, span.byte_range().start)?;
        {
            let mut budget = self.budget.borrow_mut();
            *budget = budget.checked_sub(count_tokens(&out))?;
        }
        let tokens = respan(out.into_iter().collect(), span);
        let expr = syn::parse2::<Expr>(tokens.clone())
            .or_else(|_| {
                let block = TokenTree::Group(with_span(Group::new(Delimiter::Brace, tokens), span));
                syn::parse2::<Expr>(TokenStream::from(block))
            })
            .ok()?;
        Some((expr, id))
    }
}

/// The tokens a call of a crate `macro_rules!` (at byte `at` of `module`'s file) expands to,
/// with the macro; `None` unless the macro, its arm and the substitution are certain. Tokens of
/// the macro's body keep their spans; a substituted fragment takes the span of its `$name`.
fn substitute(
    defs: &DefMap<'_>,
    mac: &syn::Macro,
    module: ModuleId,
    at: usize,
) -> Option<(Vec<TokenTree>, ItemId)> {
    let id = defs.macro_call(module, at, &mac.path)?;
    let Item::Macro(def) = defs.item(id).syntax else {
        return None;
    };
    let krate = crate_tokens(defs, module, id)?;
    let rules = parse_rules(def.mac.tokens.clone())?;
    let input: Vec<TokenTree> = mac.tokens.clone().into_iter().collect();
    let mut chosen = None;
    for rule in &rules {
        let mut m = Matcher::default();
        match m.seq(rule.pattern.as_ref().ok()?, &input, 0) {
            Outcome::Yes(end) if end == input.len() => {
                chosen = Some((rule, m.bindings));
                break;
            }
            Outcome::Yes(_) | Outcome::No => continue,
            Outcome::Unknown => return None,
        }
    }
    let (rule, bindings) = chosen?;
    let mut out = Vec::new();
    transcribe(&rule.body, &bindings, &krate, None, &mut out)?;
    (out.len() <= MAX_TOKENS).then_some((out, id))
}

/// The items item-position calls of crate `macro_rules!` generate (`register_tools! { .. }` at
/// a module's top level), expanded into `arena`: what a second resolution of the crate reads in
/// the calls' place ([`DefMap::build_program_with`]). `defs` is a first resolution, which says
/// which macro each call names. Bounded like expression expansions: nested item macro calls at
/// most [`MAX_DEPTH`] deep, [`MAX_TOKENS`] per expansion and [`CRATE_BUDGET`] in all.
pub fn expand_item_macros<'a>(
    defs: &DefMap<'a>,
    arena: &'a typed_arena::Arena<Vec<Item>>,
) -> GeneratedItems<'a> {
    let mut out = GeneratedItems::new();
    let mut budget = CRATE_BUDGET;
    for (module, call) in &defs.item_macro_calls {
        let at = call.span().byte_range().start;
        let Some((items, id)) = expand_items(defs, &call.mac, *module, at, 0, &mut budget) else {
            continue;
        };
        let file = defs.module(defs.item(id).module).file;
        out.insert(
            *call as *const _,
            Generated {
                items: arena.alloc(items),
                file,
            },
        );
    }
    out
}

/// The items a macro call in item position expands to, nested item macro calls in them
/// expanded in their place (looked up where the outer call is).
fn expand_items(
    defs: &DefMap<'_>,
    mac: &syn::Macro,
    module: ModuleId,
    at: usize,
    depth: usize,
    budget: &mut usize,
) -> Option<(Vec<Item>, ItemId)> {
    if depth >= MAX_DEPTH {
        return None;
    }
    let (out, id) = substitute(defs, mac, module, at)?;
    *budget = budget.checked_sub(count_tokens(&out))?;
    let file = syn::parse2::<syn::File>(out.into_iter().collect()).ok()?;
    let mut items = Vec::with_capacity(file.items.len());
    for item in file.items {
        match item {
            Item::Macro(inner) if inner.ident.is_none() && !is_include_call(&inner.mac) => {
                match expand_items(defs, &inner.mac, module, at, depth + 1, budget) {
                    Some((nested, _)) => items.extend(nested),
                    None => items.push(Item::Macro(inner)),
                }
            }
            other => items.push(other),
        }
    }
    Some((items, id))
}

fn is_include_call(mac: &syn::Macro) -> bool {
    mac.path
        .segments
        .last()
        .is_some_and(|s| s.ident == "include")
}

/// What `$crate` of macro `id` is at a call in `module`: `crate` in the macro's own
/// package, `::name` in a package that depends on the macro's by `name`; `None` when the
/// caller has no name for it.
fn crate_tokens(defs: &DefMap<'_>, module: ModuleId, id: ItemId) -> Option<Vec<TokenTree>> {
    let own = defs.module(defs.item(id).module).package;
    if defs.module(module).package == own {
        return Some(vec![TokenTree::Ident(Ident::new(
            "crate",
            proc_macro2::Span::call_site(),
        ))]);
    }
    let name = defs.dependency_name(module, own)?;
    Some(vec![
        TokenTree::Punct(proc_macro2::Punct::new(':', proc_macro2::Spacing::Joint)),
        TokenTree::Punct(proc_macro2::Punct::new(':', proc_macro2::Spacing::Alone)),
        TokenTree::Ident(Ident::new(&name, proc_macro2::Span::call_site())),
    ])
}

/// Each token's text and span, groups opened and closed by their delimiters' text.
fn flat_tokens(tokens: TokenStream) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for t in tokens {
        match t {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                out.push((open.to_string(), g.span_open()));
                out.extend(flat_tokens(g.stream()));
                out.push((close.to_string(), g.span_close()));
            }
            other => out.push((other.to_string(), other.span())),
        }
    }
    out
}

fn count_tokens(tokens: &[TokenTree]) -> usize {
    tokens
        .iter()
        .map(|t| match t {
            TokenTree::Group(g) => 1 + count_tokens(&g.stream().into_iter().collect::<Vec<_>>()),
            _ => 1,
        })
        .sum()
}

fn with_span(mut g: Group, span: Span) -> Group {
    g.set_span(span);
    g
}

fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => TokenTree::Group(with_span(
                Group::new(g.delimiter(), respan(g.stream(), span)),
                span,
            )),
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

/// One `(pattern) => { body }` arm; a pattern this matcher does not support is `Err`.
struct Rule {
    pattern: Result<Vec<Pat>, Unsupported>,
    body: Vec<TokenTree>,
}

struct Unsupported;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Frag {
    Expr,
    Ident,
    Literal,
    Tt,
    Ty,
    Path,
}

enum Pat {
    Token(TokenTree),
    Group(Delimiter, Vec<Pat>),
    Frag(String, Frag),
    Repeat {
        inner: Vec<Pat>,
        separator: Option<TokenTree>,
        op: char,
    },
}

fn parse_rules(tokens: TokenStream) -> Option<Vec<Rule>> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut rules = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let (
            TokenTree::Group(pattern),
            Some(TokenTree::Punct(eq)),
            Some(TokenTree::Punct(gt)),
            Some(TokenTree::Group(body)),
        ) = (
            &tokens[i],
            tokens.get(i + 1),
            tokens.get(i + 2),
            tokens.get(i + 3),
        )
        else {
            return None;
        };
        if eq.as_char() != '=' || gt.as_char() != '>' {
            return None;
        }
        rules.push(Rule {
            pattern: parse_pattern(pattern.stream(), 0),
            body: body.stream().into_iter().collect(),
        });
        i += 4;
        if matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ';') {
            i += 1;
        }
    }
    Some(rules)
}

fn is_punct(t: Option<&TokenTree>, c: char) -> bool {
    matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

fn parse_pattern(tokens: TokenStream, depth: usize) -> Result<Vec<Pat>, Unsupported> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Punct(p) if p.as_char() == '$' => match tokens.get(i + 1) {
                Some(TokenTree::Ident(name)) if is_punct(tokens.get(i + 2), ':') => {
                    let Some(TokenTree::Ident(kind)) = tokens.get(i + 3) else {
                        return Err(Unsupported);
                    };
                    let frag = match kind.to_string().as_str() {
                        "expr" => Frag::Expr,
                        "ident" => Frag::Ident,
                        "literal" => Frag::Literal,
                        "tt" => Frag::Tt,
                        "ty" => Frag::Ty,
                        "path" => Frag::Path,
                        _ => return Err(Unsupported),
                    };
                    out.push(Pat::Frag(name.to_string(), frag));
                    i += 4;
                }
                Some(TokenTree::Group(g))
                    if g.delimiter() == Delimiter::Parenthesis && depth == 0 =>
                {
                    let inner = parse_pattern(g.stream(), depth + 1)?;
                    let (separator, op, used) = repetition_tail(&tokens[i + 2..])?;
                    out.push(Pat::Repeat {
                        inner,
                        separator,
                        op,
                    });
                    i += 2 + used;
                }
                _ => return Err(Unsupported),
            },
            TokenTree::Group(g) => {
                out.push(Pat::Group(g.delimiter(), parse_pattern(g.stream(), depth)?));
                i += 1;
            }
            other => {
                out.push(Pat::Token(other.clone()));
                i += 1;
            }
        }
    }
    Ok(out)
}

/// After `$(..)`: an optional separator token and `*`, `+` or `?`; with how many tokens.
fn repetition_tail(rest: &[TokenTree]) -> Result<(Option<TokenTree>, char, usize), Unsupported> {
    let op = |t: Option<&TokenTree>| match t {
        Some(TokenTree::Punct(p)) if matches!(p.as_char(), '*' | '+' | '?') => Some(p.as_char()),
        _ => None,
    };
    if let Some(c) = op(rest.first()) {
        return Ok((None, c, 1));
    }
    match (rest.first(), op(rest.get(1))) {
        (Some(sep @ (TokenTree::Punct(_) | TokenTree::Ident(_))), Some(c)) if c != '?' => {
            Ok((Some(sep.clone()), c, 2))
        }
        _ => Err(Unsupported),
    }
}

enum Outcome {
    Yes(usize),
    No,
    Unknown,
}

#[derive(Clone)]
enum Binding {
    One(Vec<TokenTree>),
    Many(Vec<Vec<TokenTree>>),
}

#[derive(Default)]
struct Matcher {
    bindings: HashMap<String, Binding>,
    /// Inside a repetition: the iteration's bindings go here.
    iteration: Option<HashMap<String, Vec<TokenTree>>>,
}

fn same_token(a: &TokenTree, b: &TokenTree) -> bool {
    match (a, b) {
        (TokenTree::Ident(x), TokenTree::Ident(y)) => x == y,
        (TokenTree::Punct(x), TokenTree::Punct(y)) => x.as_char() == y.as_char(),
        (TokenTree::Literal(x), TokenTree::Literal(y)) => x.to_string() == y.to_string(),
        _ => false,
    }
}

/// Where an `expr` fragment ends: rustc lets only `,`, `;` and `=>` follow one.
fn expr_end(tokens: &[TokenTree], from: usize) -> usize {
    let mut i = from;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Punct(p) if matches!(p.as_char(), ',' | ';') => return i,
            TokenTree::Punct(p) if p.as_char() == '=' && is_punct(tokens.get(i + 1), '>') => {
                return i
            }
            _ => i += 1,
        }
    }
    i
}

/// Where a `ty` or `path` fragment that starts at `from` ends: after the type or path syn
/// parses there, as rustc's parser takes the longest one. `None` when none parses.
fn syntax_end(tokens: &[TokenTree], from: usize, frag: Frag) -> Option<usize> {
    use syn::parse::{ParseStream, Parser};
    let left = |input: ParseStream<'_>| -> syn::Result<usize> {
        if frag == Frag::Ty {
            input.parse::<syn::Type>()?;
        } else {
            input.parse::<syn::Path>()?;
        }
        Ok(input.parse::<TokenStream>()?.into_iter().count())
    };
    let left = left.parse2(tokens[from..].iter().cloned().collect()).ok()?;
    let end = tokens.len().checked_sub(left)?;
    (end > from).then_some(end)
}

impl Matcher {
    fn bind(&mut self, name: &str, tokens: Vec<TokenTree>) {
        match &mut self.iteration {
            Some(it) => {
                it.insert(name.to_string(), tokens);
            }
            None => {
                self.bindings.insert(name.to_string(), Binding::One(tokens));
            }
        }
    }

    fn seq(&mut self, pats: &[Pat], tokens: &[TokenTree], mut at: usize) -> Outcome {
        // After a repetition (matched greedily, without backtracking), a mismatch may be one
        // rustc's matcher resolves: undecided.
        let mut after_repeat = false;
        for pat in pats {
            let outcome = self.one(pat, tokens, at);
            match outcome {
                Outcome::Yes(next) => at = next,
                Outcome::No if after_repeat => return Outcome::Unknown,
                other => return other,
            }
            after_repeat |= matches!(pat, Pat::Repeat { .. });
        }
        Outcome::Yes(at)
    }

    fn one(&mut self, pat: &Pat, tokens: &[TokenTree], at: usize) -> Outcome {
        let token = tokens.get(at);
        match pat {
            Pat::Token(t) => match token {
                Some(x) if same_token(t, x) => Outcome::Yes(at + 1),
                _ => Outcome::No,
            },
            Pat::Group(delimiter, inner) => match token {
                Some(TokenTree::Group(g)) if g.delimiter() == *delimiter => {
                    let inside: Vec<TokenTree> = g.stream().into_iter().collect();
                    match self.seq(inner, &inside, 0) {
                        Outcome::Yes(end) if end == inside.len() => Outcome::Yes(at + 1),
                        Outcome::Yes(_) | Outcome::No => Outcome::No,
                        Outcome::Unknown => Outcome::Unknown,
                    }
                }
                _ => Outcome::No,
            },
            Pat::Frag(name, frag) => {
                let end = match (frag, token) {
                    (_, None) => return Outcome::No,
                    (Frag::Tt, Some(_)) => at + 1,
                    (Frag::Ident, Some(TokenTree::Ident(i))) if i != "_" => at + 1,
                    (Frag::Literal, Some(TokenTree::Literal(_))) => at + 1,
                    (Frag::Literal, Some(TokenTree::Punct(p)))
                        if p.as_char() == '-'
                            && matches!(tokens.get(at + 1), Some(TokenTree::Literal(_))) =>
                    {
                        at + 2
                    }
                    (Frag::Ident | Frag::Literal, Some(_)) => return Outcome::No,
                    (Frag::Ty | Frag::Path, Some(_)) => match syntax_end(tokens, at, *frag) {
                        Some(end) => end,
                        None => return Outcome::Unknown,
                    },
                    (Frag::Expr, Some(_)) => {
                        let end = expr_end(tokens, at);
                        let chunk: TokenStream = tokens[at..end].iter().cloned().collect();
                        if end == at || syn::parse2::<Expr>(chunk).is_err() {
                            return Outcome::Unknown;
                        }
                        end
                    }
                };
                let mut taken = tokens[at..end].to_vec();
                if *frag == Frag::Expr && !is_atomic_expr(&taken) {
                    // Substituted as one operand, as rustc keeps an `expr` fragment whole.
                    let stream = taken.into_iter().collect();
                    taken = vec![TokenTree::Group(Group::new(Delimiter::Parenthesis, stream))];
                }
                self.bind(name, taken);
                Outcome::Yes(end)
            }
            Pat::Repeat {
                inner,
                separator,
                op,
            } => {
                if self.iteration.is_some() {
                    return Outcome::Unknown;
                }
                let names = fragment_names(inner);
                let mut rows: Vec<HashMap<String, Vec<TokenTree>>> = Vec::new();
                let mut pos = at;
                loop {
                    if *op == '?' && rows.len() == 1 {
                        break;
                    }
                    let mut start = pos;
                    if let (false, Some(sep)) = (rows.is_empty(), separator) {
                        match tokens.get(pos) {
                            Some(t) if same_token(sep, t) => start = pos + 1,
                            _ => break,
                        }
                    }
                    self.iteration = Some(HashMap::new());
                    let outcome = self.seq(inner, tokens, start);
                    let row = self.iteration.take().unwrap_or_default();
                    match outcome {
                        Outcome::Yes(next) if next > start => {
                            rows.push(row);
                            pos = next;
                        }
                        Outcome::Yes(_) | Outcome::No => break,
                        Outcome::Unknown => return Outcome::Unknown,
                    }
                }
                if *op == '+' && rows.is_empty() {
                    return Outcome::No;
                }
                for name in names {
                    let column = rows
                        .iter_mut()
                        .map(|r| r.remove(&name).unwrap_or_default())
                        .collect();
                    self.bindings.insert(name, Binding::Many(column));
                }
                Outcome::Yes(pos)
            }
        }
    }
}

fn fragment_names(pats: &[Pat]) -> Vec<String> {
    let mut out = Vec::new();
    for p in pats {
        match p {
            Pat::Frag(name, _) => out.push(name.clone()),
            Pat::Group(_, inner) | Pat::Repeat { inner, .. } => out.extend(fragment_names(inner)),
            Pat::Token(_) => {}
        }
    }
    out
}

/// An expression that needs no parentheses as an operand: one token, a path, a call, a
/// method chain, a macro call.
fn is_atomic_expr(tokens: &[TokenTree]) -> bool {
    let stream: TokenStream = tokens.iter().cloned().collect();
    matches!(
        syn::parse2::<Expr>(stream),
        Ok(Expr::Lit(_)
            | Expr::Path(_)
            | Expr::Call(_)
            | Expr::MethodCall(_)
            | Expr::Macro(_)
            | Expr::Field(_)
            | Expr::Paren(_)
            | Expr::Tuple(_)
            | Expr::Array(_)
            | Expr::Struct(_))
    )
}

/// The body with every `$name` replaced by what it matched, `$crate` by `krate`, and each
/// `$(..) sep op` once per iteration of the fragments it names; `None` when the body uses a
/// name the pattern does not bind or repeats in a way the match does not decide.
fn transcribe(
    body: &[TokenTree],
    bindings: &HashMap<String, Binding>,
    krate: &[TokenTree],
    row: Option<usize>,
    out: &mut Vec<TokenTree>,
) -> Option<()> {
    let mut i = 0;
    while i < body.len() {
        if out.len() > MAX_TOKENS {
            return None;
        }
        match &body[i] {
            TokenTree::Punct(p) if p.as_char() == '$' => match body.get(i + 1) {
                Some(TokenTree::Ident(name)) if name == "crate" => {
                    out.extend(krate.iter().cloned());
                    i += 2;
                }
                Some(TokenTree::Ident(name)) => {
                    let tokens = match (bindings.get(&name.to_string())?, row) {
                        (Binding::One(tokens), _) => tokens,
                        (Binding::Many(rows), Some(r)) => rows.get(r)?,
                        (Binding::Many(_), None) => return None,
                    };
                    // Spanned at `$name` in the body: the expansion's tokens all point into
                    // the macro's definition.
                    out.extend(respan(tokens.iter().cloned().collect(), name.span()));
                    i += 2;
                }
                Some(TokenTree::Group(g))
                    if g.delimiter() == Delimiter::Parenthesis && row.is_none() =>
                {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    let (separator, _, used) = repetition_tail(&body[i + 2..]).ok()?;
                    let count = repeat_count(&inner, bindings)?;
                    for r in 0..count {
                        if r > 0 {
                            out.extend(separator.clone());
                        }
                        transcribe(&inner, bindings, krate, Some(r), out)?;
                    }
                    i += 2 + used;
                }
                _ => return None,
            },
            TokenTree::Group(g) => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                let mut group_out = Vec::new();
                transcribe(&inner, bindings, krate, row, &mut group_out)?;
                let mut group = Group::new(g.delimiter(), group_out.into_iter().collect());
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
                i += 1;
            }
            other => {
                out.push(other.clone());
                i += 1;
            }
        }
    }
    Some(())
}

/// How often a template repetition runs: the one length of the repeated fragments it names.
fn repeat_count(template: &[TokenTree], bindings: &HashMap<String, Binding>) -> Option<usize> {
    let mut count = None;
    for (i, t) in template.iter().enumerate() {
        let n = match (t, template.get(i + 1)) {
            (TokenTree::Punct(p), Some(TokenTree::Ident(name))) if p.as_char() == '$' => {
                match bindings.get(&name.to_string()) {
                    Some(Binding::Many(rows)) => Some(rows.len()),
                    _ => None,
                }
            }
            (TokenTree::Group(g), _) => {
                repeat_count(&g.stream().into_iter().collect::<Vec<_>>(), bindings)
            }
            _ => None,
        };
        match (count, n) {
            (Some(a), Some(b)) if a != b => return None,
            (None, Some(b)) => count = Some(b),
            _ => {}
        }
    }
    count
}

#[cfg(test)]
mod tests;
