//! The syn helpers every layer shares: path and type names, attributes, the value an expression
//! evaluates to, pattern shapes, token text. Pure functions of the syntax tree; nothing here
//! knows an SDK, a lint or the model.

use syn::{Attribute, Expr, Pat, Type};

/// The segment names of a path (`rmcp::model::ErrorCode` → `["rmcp", "model", "ErrorCode"]`).
pub fn path_segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// The name of a path's last segment (`rmcp::model::ErrorCode` → `ErrorCode`).
pub fn last_segment(path: &syn::Path) -> Option<String> {
    path.segments.last().map(|s| s.ident.to_string())
}

/// The type arguments of a path segment (`T`, `E` of `Result<T, E>`; lifetimes and consts
/// left out); none when it has no `<..>`.
pub fn type_arguments(args: &syn::PathArguments) -> impl Iterator<Item = &Type> {
    let args = match args {
        syn::PathArguments::AngleBracketed(a) => Some(a.args.iter()),
        _ => None,
    };
    args.into_iter().flatten().filter_map(|g| match g {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}

/// The last path segment of a type (`rmcp::model::CallToolResult` → `CallToolResult`), looking
/// through references.
pub fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => last_segment(&p.path),
        Type::Reference(r) => type_name(&r.elem),
        Type::Paren(p) => type_name(&p.elem),
        Type::Group(g) => type_name(&g.elem),
        Type::Tuple(t) if t.elems.is_empty() => Some("()".to_string()),
        _ => None,
    }
}

/// The last name of a path type, through references, parentheses and groups (the ident
/// [`type_name`] gives the text of).
pub fn type_ident(ty: &Type) -> Option<&syn::Ident> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| &s.ident),
        Type::Reference(r) => type_ident(&r.elem),
        Type::Paren(p) => type_ident(&p.elem),
        Type::Group(g) => type_ident(&g.elem),
        _ => None,
    }
}

/// A number, `bool` or `char` (written as the primitive's bare name).
pub fn is_scalar_type(ty: &Type) -> bool {
    const SCALARS: &[&str] = &[
        "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
        "i128", "isize", "f32", "f64",
    ];
    matches!(ty, Type::Path(p) if p.qself.is_none()
        && p.path.get_ident().is_some_and(|i| SCALARS.iter().any(|s| i == s)))
}

/// The output of a future-returning signature: `impl Future<Output = T>`,
/// `Pin<Box<dyn Future<Output = T> + Send>>`, `BoxFuture<'_, T>`; other types as they are.
pub fn unwrap_future(ty: &Type) -> &Type {
    let bounds = match ty {
        Type::ImplTrait(i) => Some(&i.bounds),
        Type::TraitObject(t) => Some(&t.bounds),
        Type::Path(p) => {
            let last = match p.path.segments.last() {
                Some(l) => l,
                None => return ty,
            };
            // Compared in place: every fn's return type passes here, most are no future.
            let is = |names: [&str; 2]| names.iter().any(|n| last.ident == n);
            let (pin, boxed) = (is(["Pin", "Box"]), is(["BoxFuture", "LocalBoxFuture"]));
            if !(pin || boxed) {
                return ty;
            }
            let mut types = type_arguments(&last.arguments);
            match (types.next(), types.next()) {
                (Some(inner), None) if pin => return unwrap_future(inner),
                (Some(inner), None) => return inner,
                _ => {}
            }
            None
        }
        _ => None,
    };
    let Some(bounds) = bounds else { return ty };
    for b in bounds {
        if let syn::TypeParamBound::Trait(t) = b {
            if let Some(last) = t.path.segments.last() {
                if last.ident == "Future" {
                    if let syn::PathArguments::AngleBracketed(a) = &last.arguments {
                        for g in &a.args {
                            if let syn::GenericArgument::AssocType(at) = g {
                                if at.ident == "Output" {
                                    return &at.ty;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    ty
}

/// The error type's name of `Result<T, E>` (`E`'s last segment).
pub fn result_error_name(ty: &Type) -> Option<String> {
    result_error_type(ty).and_then(type_name)
}

/// The name of the error type a signature's output states (`-> Result<T, McpError>`).
pub fn output_error_name(output: &syn::ReturnType) -> Option<String> {
    match output {
        syn::ReturnType::Type(_, ty) => result_error_name(ty),
        syn::ReturnType::Default => None,
    }
}

/// `E` of `Result<T, E>`.
pub fn result_error_type(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
        return None;
    };
    a.args.iter().nth(1).and_then(|g| match g {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}

/// The last segment name of an attribute's path (`#[rmcp::tool(..)]` → `tool`).
pub fn attr_name(attr: &Attribute) -> String {
    last_segment(attr.path()).unwrap_or_default()
}

pub fn has_attr(attrs: &[Attribute], name: &str) -> bool {
    attrs.iter().any(|a| attr_name(a) == name)
}

/// `#[cfg(test)]`, `#[cfg(all(test, ..))]`.
pub fn is_cfg_test(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && {
            let tokens = a.meta.require_list().map(|l| l.tokens.to_string());
            tokens.is_ok_and(|t| {
                t.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|w| w == "test")
                    && !t.starts_with("not")
            })
        }
    })
}

/// `#[cfg(not(..))]`: code for the configurations a sibling `#[cfg(..)]` leaves out (another
/// platform, a feature turned off).
pub fn is_cfg_not(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta.require_list().is_ok_and(|l| {
                matches!(l.tokens.clone().into_iter().next(), Some(proc_macro2::TokenTree::Ident(i)) if i == "not")
            })
    })
}

/// `#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(..)]`.
pub fn is_test_fn(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        let n = attr_name(a);
        n == "test" || n == "rstest" || n == "test_case"
    })
}

/// The token text of a syntax node (`a . b`), for matching words in it.
pub trait TokensString {
    fn to_token_stream_string(&self) -> String;
}

impl<T: quote::ToTokens + ?Sized> TokensString for T {
    fn to_token_stream_string(&self) -> String {
        self.to_token_stream().to_string()
    }
}

/// The expression under `.await` and parentheses.
/// `expr` through `.await`, `?` and the listed methods, in any order: the value a local holds
/// before it is unwrapped (`config::get().ok_or_else(..)?` is `config::get()`).
pub fn through_unwrapping<'e>(mut expr: &'e Expr, methods: &[&str]) -> &'e Expr {
    loop {
        expr = match strip_await(expr) {
            Expr::Try(t) => &t.expr,
            Expr::MethodCall(m) if methods.iter().any(|n| m.method == n) => &m.receiver,
            other => return other,
        };
    }
}

pub fn strip_await(expr: &Expr) -> &Expr {
    match expr {
        Expr::Await(a) => strip_await(&a.base),
        Expr::Paren(p) => strip_await(&p.expr),
        other => other,
    }
}

/// The receiver under a chain of the named methods, through `.await`s
/// (`self.read(p).await.map_err(AppError::Mcp)` through `map_err` is `self.read(p)`).
pub fn through_methods<'e>(expr: &'e Expr, methods: &[&str]) -> &'e Expr {
    let mut e = strip_await(expr);
    while let Expr::MethodCall(mc) = e {
        if !methods.iter().any(|m| mc.method == m) {
            break;
        }
        e = strip_await(&mc.receiver);
    }
    e
}

/// The value a block or expression evaluates to (the tail of a block).
pub fn tail_expr(expr: &Expr) -> &Expr {
    match expr {
        Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => tail_expr(e),
            _ => expr,
        },
        Expr::Return(r) => r.expr.as_deref().map_or(expr, tail_expr),
        Expr::Paren(p) => tail_expr(&p.expr),
        other => other,
    }
}

/// `x.to_string()`.
pub fn is_to_string(expr: &Expr) -> bool {
    matches!(expr, Expr::MethodCall(m) if m.method == "to_string" && m.args.is_empty())
}

/// `Err(x)` as a value: `x`.
pub fn err_payload(expr: &Expr) -> Option<&Expr> {
    variant_payload(expr, "Err")
}

/// `Ok(x)` as a value: `x`.
pub fn ok_payload(expr: &Expr) -> Option<&Expr> {
    variant_payload(expr, "Ok")
}

fn variant_payload<'e>(expr: &'e Expr, variant: &str) -> Option<&'e Expr> {
    match expr {
        Expr::Call(c)
            if c.args.len() == 1
                && matches!(&*c.func, Expr::Path(p) if p.path.is_ident(variant)) =>
        {
            Some(&c.args[0])
        }
        _ => None,
    }
}

/// `Err(e)` / `Err(_)` / `Err(..)`: `Some(binding)` (binding `None` when not an ident).
pub fn variant_binding(pat: &Pat, variant: &str) -> Option<Option<String>> {
    match pat {
        Pat::TupleStruct(ts) if ts.path.segments.last().is_some_and(|s| s.ident == variant) => {
            Some(ts.elems.first().and_then(pat_ident))
        }
        Pat::Reference(r) => variant_binding(&r.pat, variant),
        _ => None,
    }
}

/// `None`.
pub fn is_none_pat(pat: &Pat) -> bool {
    matches!(pat, Pat::Ident(i) if i.ident == "None")
        || matches!(pat, Pat::Path(p) if p.path.is_ident("None"))
}

/// The name a pattern binds (`x`, `x: T`).
pub fn pat_ident(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Ident(i) => Some(i.ident.to_string()),
        Pat::Type(t) => pat_ident(&t.pat),
        _ => None,
    }
}

/// The path a pattern names: `E::V(..)`, `E::V { .. }`, `E::V`.
pub fn pat_path(pat: &Pat) -> Option<&syn::Path> {
    match pat {
        Pat::TupleStruct(t) => Some(&t.path),
        Pat::Struct(s) => Some(&s.path),
        Pat::Path(p) => Some(&p.path),
        _ => None,
    }
}

/// Whether `ident` stands as a whole word in token text.
pub fn mentions_ident(tokens: &str, ident: &str) -> bool {
    tokens
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == ident)
}

/// The `json!` value an answer is, as written or as text: `json!({..})`, `json!({..}).to_string()`,
/// `serde_json::to_string_pretty(&json!({..}))` and its fallback (`.unwrap_or_else(|_| ..)`,
/// `.unwrap_or_default()`).
pub fn answered_json(expr: &Expr) -> Option<&syn::Macro> {
    match expr {
        Expr::Macro(j) if is_json_macro(&j.mac) => Some(&j.mac),
        Expr::MethodCall(m) if is_to_string(expr) => match &*m.receiver {
            Expr::Macro(j) if is_json_macro(&j.mac) => Some(&j.mac),
            _ => None,
        },
        Expr::MethodCall(m) if UNWRAPPING.iter().any(|u| m.method == u) => match &*m.receiver {
            Expr::Call(c) => serialized_json(c),
            _ => None,
        },
        Expr::Call(c) => serialized_json(c),
        _ => None,
    }
}

/// `serde_json::to_string(&Response { status: Status::Error, .. }).expect(..)`: a struct value
/// serialised to JSON text (through `unwrap`, `expect`, `unwrap_or_default`).
pub fn serialized_struct(expr: &Expr) -> Option<&syn::ExprStruct> {
    let call = match expr {
        Expr::MethodCall(m) if UNWRAPPING.iter().any(|u| m.method == u) => &*m.receiver,
        other => other,
    };
    let Expr::Call(call) = call else {
        return None;
    };
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let serde_json =
        matches!(p.path.segments.iter().rev().nth(1), Some(m) if m.ident == "serde_json");
    match serialized_value(call) {
        Some(Expr::Struct(s)) if serde_json => Some(s),
        _ => None,
    }
}

/// Methods that take a `Result`'s value or a fallback (`.unwrap()`, `.expect(..)`,
/// `.unwrap_or_else(..)`).
const UNWRAPPING: &[&str] = &[
    "unwrap_or_else",
    "unwrap_or",
    "unwrap_or_default",
    "unwrap",
    "expect",
];

/// `serde_json::to_string(&v)`, `to_string_pretty`, `to_vec`: the one value serialised.
fn serialized_value(call: &syn::ExprCall) -> Option<&Expr> {
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let serializes = p.path.segments.last().is_some_and(|s| {
        s.ident == "to_string" || s.ident == "to_string_pretty" || s.ident == "to_vec"
    }) && p.path.segments.len() >= 2;
    match (serializes, &call.args.iter().collect::<Vec<_>>()[..]) {
        (true, [value]) => Some(strip_refs(value)),
        _ => None,
    }
}

/// The name serde gives a field or variant: its `#[serde(rename = "..")]`, else its own name
/// under the container's `#[serde(rename_all = "..")]`.
pub fn serde_name(
    ident: &syn::Ident,
    attrs: &[syn::Attribute],
    container: &[syn::Attribute],
) -> String {
    let serde_value = |attrs: &[syn::Attribute], key: &str| {
        attrs
            .iter()
            .filter(|a| a.path().is_ident("serde"))
            .find_map(|a| {
                let mut found = None;
                let _ = a.parse_nested_meta(|meta| {
                    if meta.path.is_ident(key) {
                        if let Ok(v) = meta.value().and_then(|v| v.parse::<syn::LitStr>()) {
                            found = Some(v.value());
                        }
                    } else if meta.input.peek(syn::Token![=]) {
                        let _ = meta.value().and_then(|v| v.parse::<Expr>());
                    }
                    Ok(())
                });
                found
            })
    };
    if let Some(name) = serde_value(attrs, "rename") {
        return name;
    }
    let name = ident.to_string();
    let name = name.strip_prefix("r#").unwrap_or(&name).to_string();
    let words = || {
        let mut words: Vec<String> = Vec::new();
        for (i, c) in name.char_indices() {
            if c == '_' {
                words.push(String::new());
            } else if c.is_uppercase() && i > 0 && !name[..i].ends_with('_') {
                words.push(c.to_lowercase().collect());
            } else if let Some(w) = words.last_mut() {
                w.extend(c.to_lowercase());
            } else {
                words.push(c.to_lowercase().collect());
            }
        }
        words.retain(|w| !w.is_empty());
        words
    };
    match serde_value(container, "rename_all").as_deref() {
        Some("lowercase") => name.to_lowercase(),
        Some("UPPERCASE") => name.to_uppercase(),
        Some("snake_case") => words().join("_"),
        Some("SCREAMING_SNAKE_CASE") => words().join("_").to_uppercase(),
        Some("kebab-case") => words().join("-"),
        Some("SCREAMING-KEBAB-CASE") => words().join("-").to_uppercase(),
        Some("camelCase") => {
            let w = words();
            w.iter()
                .enumerate()
                .map(|(i, w)| match i {
                    0 => w.clone(),
                    _ => capitalized(w),
                })
                .collect()
        }
        Some("PascalCase") => words().iter().map(|w| capitalized(w)).collect(),
        _ => name,
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// `serde_json::to_string(&json!({..}))`, `to_string_pretty`: the macro serialised.
fn serialized_json(call: &syn::ExprCall) -> Option<&syn::Macro> {
    match serialized_value(call)? {
        Expr::Macro(j) if is_json_macro(&j.mac) => Some(&j.mac),
        _ => None,
    }
}

/// `json!(..)` or `serde_json::json!(..)`.
pub fn is_json_macro(m: &syn::Macro) -> bool {
    m.path.segments.last().is_some_and(|s| s.ident == "json")
}

/// `Ok(..)`, also with a turbofish (`Ok::<_, Error>(..)`).
pub fn is_ok_call(expr: &Expr) -> bool {
    matches!(expr, Expr::Call(c) if matches!(&*c.func, Expr::Path(p)
        if p.path.segments.len() == 1 && p.path.segments[0].ident == "Ok"))
}

/// The value of a string literal expression (`"head"`).
pub fn str_literal(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

/// A block's tail expression (the value it evaluates to when it does not leave early).
pub fn tail_of(block: &syn::Block) -> Option<&Expr> {
    match block.stmts.last() {
        Some(syn::Stmt::Expr(e, None)) => Some(e),
        _ => None,
    }
}

/// The values a block evaluates to: its tail expression, and a `#[cfg(..)] { .. }` block
/// statement before it (`#[cfg(target_os = "linux")] { match r { .. } }` then its
/// `#[cfg(not(..))]` twin as the tail: on one target the first block is the value).
pub fn block_values(block: &syn::Block) -> Vec<&Expr> {
    let last = block.stmts.len().saturating_sub(1);
    block
        .stmts
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            syn::Stmt::Expr(e, None) if i == last => Some(e),
            syn::Stmt::Expr(e @ Expr::Block(b), None)
                if b.attrs.iter().any(|a| a.path().is_ident("cfg")) =>
            {
                Some(e)
            }
            _ => None,
        })
        .collect()
}

/// The expression inside parentheses and invisible groups.
pub fn strip_parens(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(p) => strip_parens(&p.expr),
        Expr::Group(g) => strip_parens(&g.expr),
        other => other,
    }
}

pub fn strip_refs(expr: &Expr) -> &Expr {
    match expr {
        Expr::Reference(r) => strip_refs(&r.expr),
        Expr::Paren(p) => strip_refs(&p.expr),
        other => other,
    }
}

/// The last type argument of `Map<K, V>` / `Vec<T>`, through references.
pub fn last_type_argument(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Reference(r) => last_type_argument(&r.elem),
        Type::Path(p) => type_arguments(&p.path.segments.last()?.arguments).last(),
        _ => None,
    }
}

/// The value a struct literal gives its field `name` (`code` of `Error { code: -32602, .. }`).
pub fn field_value<'e>(s: &'e syn::ExprStruct, name: &str) -> Option<&'e Expr> {
    s.fields.iter().find_map(|f| match &f.member {
        syn::Member::Named(id) if id == name => Some(&f.expr),
        _ => None,
    })
}

/// A path naming a constant by Rust's naming (`AUTHORIZATION`, `header::CONTENT_TYPE`): the
/// server's own value.
pub fn is_const_path(expr: &Expr) -> bool {
    matches!(expr, Expr::Path(p) if const_name(&p.path).is_some())
}

/// The last segment of a path named as a constant (see [`is_const_name`]).
pub fn const_name(path: &syn::Path) -> Option<String> {
    let name = path.segments.last()?.ident.to_string();
    is_const_name(&name).then_some(name)
}

/// SCREAMING_CASE: a constant by Rust's naming.
pub fn is_const_name(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase()) && !name.chars().any(|c| c.is_ascii_lowercase())
}

/// The traits a `#[derive(..)]` names, by their last segment (`serde::Serialize`: `Serialize`).
pub fn derived_traits(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut derived = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|m| {
            if let Some(last) = m.path.segments.last() {
                derived.push(last.ident.to_string());
            }
            Ok(())
        });
    }
    derived
}

/// `T` of `Option<T>` (also written `std::option::Option<T>`).
pub fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    type_arguments(&last.arguments).next()
}

/// `self`.
pub fn is_self(expr: &Expr) -> bool {
    matches!(expr, Expr::Path(p) if p.path.is_ident("self"))
}

/// The byte extent (braces included) of every block in a fn body, computed once: a span costs
/// a lookup in proc-macro2's source map, and a fix searches the same body once per site, so a
/// fn of n sites would otherwise pay O(n²) of them. With it, each `else if` chain's links, so
/// that a search for what holds a site goes to the link around it in one step
/// ([`BlockExtents::else_towards`]) instead of one per branch before it.
#[derive(Default)]
pub struct BlockExtents {
    blocks: std::collections::HashMap<usize, (usize, usize)>,
    /// Per `if` of an `else if` chain (by address): its chain and its place in it.
    links: std::collections::HashMap<usize, (usize, usize)>,
    /// Per chain, where each link's `then` block ends, in order.
    chains: Vec<Vec<usize>>,
    /// Every `let` (nested items' too), in visit order: the names its pattern binds, its extent.
    lets: Vec<(Vec<String>, (usize, usize))>,
}

impl BlockExtents {
    pub fn of(body: &syn::Block) -> BlockExtents {
        use syn::visit::Visit;
        struct Blocks(BlockExtents);
        impl<'v> Visit<'v> for Blocks {
            fn visit_block(&mut self, b: &'v syn::Block) {
                self.0.blocks.insert(block_key(b), brace_extent(b));
                syn::visit::visit_block(self, b);
            }
            fn visit_expr_if(&mut self, i: &'v syn::ExprIf) {
                let head = i as *const syn::ExprIf as usize;
                if matches!(&i.else_branch, Some((_, e)) if matches!(**e, Expr::If(_)))
                    && !self.0.links.contains_key(&head)
                {
                    let chain = self.0.chains.len();
                    let mut ends = Vec::new();
                    let mut link = i;
                    loop {
                        let at = link as *const syn::ExprIf as usize;
                        self.0.links.insert(at, (chain, ends.len()));
                        ends.push(brace_extent(&link.then_branch).1);
                        match &link.else_branch {
                            Some((_, e)) => match &**e {
                                Expr::If(next) => link = next,
                                _ => break,
                            },
                            None => break,
                        }
                    }
                    self.0.chains.push(ends);
                }
                syn::visit::visit_expr_if(self, i);
            }
            fn visit_local(&mut self, l: &'v syn::Local) {
                struct Names(Vec<String>);
                impl<'p> Visit<'p> for Names {
                    fn visit_pat_ident(&mut self, i: &'p syn::PatIdent) {
                        self.0.push(i.ident.to_string());
                        syn::visit::visit_pat_ident(self, i);
                    }
                }
                let mut names = Names(Vec::new());
                names.visit_pat(&l.pat);
                let r = syn::spanned::Spanned::span(l).byte_range();
                self.0.lets.push((names.0, (r.start, r.end)));
                syn::visit::visit_local(self, l);
            }
        }
        let mut blocks = Blocks(BlockExtents::default());
        blocks.visit_block(body);
        blocks.0
    }

    /// The block's extent (from its braces when it is not in this body).
    pub fn get(&self, b: &syn::Block) -> (usize, usize) {
        self.blocks
            .get(&block_key(b))
            .copied()
            .unwrap_or_else(|| brace_extent(b))
    }

    /// Whether the block's braces enclose `(start, end)`.
    pub fn holds(&self, b: &syn::Block, (start, end): (usize, usize)) -> bool {
        let (s, e) = self.get(b);
        s <= start && end <= e
    }

    /// Every `let` of the body and of the items in it, in the order a visitor meets them: the
    /// names its pattern binds (every identifier pattern in it) and its byte extent.
    pub fn lets(&self) -> impl Iterator<Item = (&[String], (usize, usize))> {
        self.lets.iter().map(|(names, at)| (names.as_slice(), *at))
    }

    /// `e`, the `else` of `i`, or the `else` of a later link of `i`'s `else if` chain: the one
    /// a search for a range starting at `start` (after `i`'s `then` block) has to enter, as the
    /// links between would each be entered only to be passed (`start` is after their `then`
    /// blocks, so neither their conditions nor their blocks hold it). That is the `if` of the
    /// first link whose `then` block ends after `start` (the range is in its condition or its
    /// block), else of the last link (the range is in its `else` or after the chain).
    pub fn else_towards<'a>(&self, i: &'a syn::ExprIf, e: &'a Expr, start: usize) -> &'a Expr {
        let Some(&(chain, at)) = self.links.get(&(i as *const syn::ExprIf as usize)) else {
            return e;
        };
        let ends = &self.chains[chain];
        let Some(later) = ends.get(at + 1..) else {
            return e;
        };
        let target = (at + 1 + later.partition_point(|&end| end <= start)).min(ends.len() - 1);
        let mut e = e;
        for _ in at + 1..target {
            match e {
                Expr::If(link) => match &link.else_branch {
                    Some((_, next)) => e = next,
                    None => break,
                },
                _ => break,
            }
        }
        e
    }
}

/// A block by its address in the syntax tree, which does not move while it is alive.
fn block_key(b: &syn::Block) -> usize {
    b as *const syn::Block as usize
}

/// A block's byte extent, braces included, from its braces alone (`Spanned::span` of a block
/// prints all of its tokens first).
pub fn brace_extent(b: &syn::Block) -> (usize, usize) {
    let r = b.brace_token.span.join().byte_range();
    (r.start, r.end)
}

/// A fn declared inside another fn's body (`fn handler(..) { .. }` in a block), with the fns
/// its own body sees from the blocks around it.
pub struct NestedFn<'a> {
    /// The `Item::Fn` statement.
    pub item: &'a syn::Item,
    pub f: &'a syn::ItemFn,
    /// The fn items of each block that encloses it, outermost first (its own block's included):
    /// what rustc's block scopes make visible in its body.
    pub visible: Vec<std::rc::Rc<[&'a syn::ItemFn]>>,
}

/// Nesting of fns inside fns followed by [`nested_fns`].
const MAX_FN_NESTING: usize = 32;

/// The items other than fns (and macros) that `body`'s own block declares: structs, enums,
/// `impl`s, traits, `use`s, consts, type aliases.
pub fn block_items(body: &syn::Block) -> impl Iterator<Item = &syn::Item> {
    body.stmts.iter().filter_map(|s| match s {
        syn::Stmt::Item(
            item @ (syn::Item::Struct(_)
            | syn::Item::Enum(_)
            | syn::Item::Union(_)
            | syn::Item::Impl(_)
            | syn::Item::Trait(_)
            | syn::Item::Use(_)
            | syn::Item::Const(_)
            | syn::Item::Static(_)
            | syn::Item::Type(_)),
        ) => Some(item),
        _ => None,
    })
}

/// Every fn declared in `body`'s blocks, at any depth (fns inside nested fns too), each with
/// the fns visible in it from enclosing blocks. An item is visible in its whole block (before
/// its statement too), in the blocks nested in it and in the nested fns declared there, and
/// nowhere outside it. Items of other kinds (an `impl` inside a body) are not followed. The
/// lists are shared per block, so the cost is the body's size times the nesting depth.
pub fn nested_fns(body: &syn::Block) -> Vec<NestedFn<'_>> {
    let mut out = Vec::new();
    collect_nested_fns(body, Vec::new(), 0, &mut out);
    out
}

fn collect_nested_fns<'a>(
    body: &'a syn::Block,
    outer: Vec<std::rc::Rc<[&'a syn::ItemFn]>>,
    depth: usize,
    out: &mut Vec<NestedFn<'a>>,
) {
    use syn::visit::Visit;
    struct Blocks<'a, 'o> {
        stack: Vec<std::rc::Rc<[&'a syn::ItemFn]>>,
        found: &'o mut Vec<NestedFn<'a>>,
    }
    impl<'a> Visit<'a> for Blocks<'a, '_> {
        fn visit_block(&mut self, b: &'a syn::Block) {
            let fns: std::rc::Rc<[&'a syn::ItemFn]> = block_fns(b).map(|(_, f)| f).collect();
            let pushed = !fns.is_empty();
            if pushed {
                self.stack.push(fns);
            }
            for (item, f) in block_fns(b) {
                self.found.push(NestedFn {
                    item,
                    f,
                    visible: self.stack.clone(),
                });
            }
            syn::visit::visit_block(self, b);
            if pushed {
                self.stack.pop();
            }
        }
        // A nested item's body is collected on its own, with the scopes it sees.
        fn visit_item(&mut self, _: &'a syn::Item) {}
    }
    if depth >= MAX_FN_NESTING {
        return;
    }
    let first = out.len();
    Blocks {
        stack: outer,
        found: out,
    }
    .visit_block(body);
    let last = out.len();
    for i in first..last {
        let (block, visible) = (&*out[i].f.block, out[i].visible.clone());
        collect_nested_fns(block, visible, depth + 1, out);
    }
}

/// The fn items written as statements of `b` itself.
pub fn block_fns(b: &syn::Block) -> impl Iterator<Item = (&syn::Item, &syn::ItemFn)> {
    b.stmts.iter().filter_map(|s| match s {
        syn::Stmt::Item(item @ syn::Item::Fn(f)) => Some((item, f)),
        _ => None,
    })
}

/// Every identifier a pattern writes in binding position, in order (`Some(x)`, `(a, b)`,
/// `S { f: y }`); a bare `None` is one too, which callers filter where it matters.
pub fn pat_idents(pat: &syn::Pat) -> Vec<String> {
    struct Idents(Vec<String>);
    impl<'v> syn::visit::Visit<'v> for Idents {
        fn visit_pat_ident(&mut self, i: &'v syn::PatIdent) {
            self.0.push(i.ident.to_string());
            syn::visit::visit_pat_ident(self, i);
        }
    }
    let mut idents = Idents(Vec::new());
    syn::visit::Visit::visit_pat(&mut idents, pat);
    idents.0
}

/// The names of a signature's typed parameters in order, the receiver left out (an empty
/// name for a parameter that is a pattern).
pub fn typed_param_names(sig: &syn::Signature) -> Vec<String> {
    sig.inputs
        .iter()
        .filter_map(|i| match i {
            syn::FnArg::Typed(t) => Some(pat_ident(&t.pat).unwrap_or_default()),
            syn::FnArg::Receiver(_) => None,
        })
        .collect()
}

/// `e.to_string()`, `e.into()`: the receiver under calls of methods without arguments.
pub fn through_unary_methods(mut e: &Expr) -> &Expr {
    while let Expr::MethodCall(mc) = e {
        if !mc.args.is_empty() {
            break;
        }
        e = &mc.receiver;
    }
    e
}

/// The value of a `json!` object member written as one token (`"message": message`,
/// `"content": [..]`), at any depth of the macro's tokens: the first such member.
pub fn json_member(
    tokens: &proc_macro2::TokenStream,
    member: &str,
) -> Option<proc_macro2::TokenTree> {
    use proc_macro2::TokenTree;
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let quoted = format!("\"{member}\"");
    for (i, t) in trees.iter().enumerate() {
        match t {
            TokenTree::Group(g) => {
                if let Some(v) = json_member(&g.stream(), member) {
                    return Some(v);
                }
            }
            TokenTree::Literal(l) if l.to_string() == quoted => {
                let colon =
                    matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                // One token up to the member's end (`"text": text,`), not `text.trim()`.
                let whole = matches!(trees.get(i + 3), None | Some(TokenTree::Punct(_)))
                    && !matches!(trees.get(i + 3), Some(TokenTree::Punct(p)) if p.as_char() == '.');
                if let (true, true, Some(value)) = (colon, whole, trees.get(i + 2)) {
                    return Some(value.clone());
                }
            }
            _ => {}
        }
    }
    None
}

/// The parameter (a position in `params`) a `json!` object member is written as
/// (`"message": message`), see [`json_member`].
pub fn json_member_param(
    tokens: &proc_macro2::TokenStream,
    member: &str,
    params: &[String],
) -> Option<usize> {
    match json_member(tokens, member)? {
        proc_macro2::TokenTree::Ident(id) => params.iter().position(|p| id == p),
        _ => None,
    }
}

/// `T` of a path to `T`'s associated fn `fn_name` (`AdminTools::try_from` → `AdminTools`).
pub fn assoc_fn_owner(path: &syn::Path, fn_name: &str) -> Option<Type> {
    let mut path = path.clone();
    let last = path.segments.pop()?;
    if last.value().ident != fn_name || path.segments.is_empty() {
        return None;
    }
    path.segments.pop_punct();
    Some(Type::Path(syn::TypePath { qself: None, path }))
}

#[cfg(test)]
mod tests {
    use super::serde_name;

    fn variant_name(item: &str, variant: usize) -> String {
        let e: syn::ItemEnum = syn::parse_str(item).expect("an enum");
        let v = &e.variants[variant];
        serde_name(&v.ident, &v.attrs, &e.attrs)
    }

    #[test]
    fn serde_names_follow_rename_all_and_rename() {
        let e = "#[serde(rename_all = \"snake_case\")] enum S { NotFound, IoError, #[serde(rename = \"fail\")] Error }";
        assert_eq!(variant_name(e, 0), "not_found");
        assert_eq!(variant_name(e, 1), "io_error");
        assert_eq!(variant_name(e, 2), "fail");
        let e = "#[derive(Serialize)] #[serde(tag = \"t\", rename_all = \"camelCase\")] enum S { NotFound }";
        assert_eq!(variant_name(e, 0), "notFound");
        assert_eq!(
            variant_name(
                "#[serde(rename_all = \"lowercase\")] enum S { NotFound }",
                0
            ),
            "notfound"
        );
        assert_eq!(
            variant_name(
                "#[serde(rename_all = \"SCREAMING_SNAKE_CASE\")] enum S { NotFound }",
                0
            ),
            "NOT_FOUND"
        );
        assert_eq!(
            variant_name(
                "#[serde(rename_all = \"kebab-case\")] enum S { NotFound }",
                0
            ),
            "not-found"
        );
        assert_eq!(variant_name("enum S { Error }", 0), "Error");
    }
}
