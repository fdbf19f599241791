//! The bodies the walk visits: every fn of the index (with what the dialect says about it: its
//! handler kind, tool name, error channel), the closures registered as tool handlers, and const
//! and static initialisers (error codes can be written there).

use syn::{Expr, ImplItem, Item};

use crate::index::{FnItem, Index, Owner};
use crate::model::ids::{BodyId, FileId};
use crate::model::site::ErrorSource;
use crate::resolve::{DefMap, FnScope};
use crate::sdk::{Dialect, ErrChannel, HandlerKind, ReturnFacts};
use crate::syntax::{is_cfg_test, type_arguments};
use crate::types::{external_error_name, resolve_type_item};

#[derive(Clone, Copy)]
pub enum BodyCode<'a> {
    Block(&'a syn::Block),
    Expr(&'a Expr),
}

/// A body of code: a fn, a closure registered as a tool, or a const initialiser.
#[derive(Clone)]
pub struct BodyInfo<'a> {
    pub id: BodyId,
    pub file: FileId,
    /// The fn name (or `tool closure` / the const name).
    pub name: String,
    /// For tools: the wire name.
    pub tool_name: Option<String>,
    pub kind: Option<HandlerKind>,
    /// Test code, or code the SDK never runs ([`Dialect::never_runs`]): it has no sites, and its
    /// calls neither carry tool context nor count as uses outside it.
    pub inert: bool,
    pub returns: ReturnFacts,
    pub code: BodyCode<'a>,
    /// `impl From<X> for <protocol error type>`.
    pub is_from_impl: bool,
    /// Parameters of a text type (`&str`, `String`, `impl Into<String>`…) by position (the
    /// receiver not counted): text they carry may end up in a result this body builds.
    pub text_params: Vec<(usize, String)>,
    /// Where its code sits: module and `impl`/trait (for resolving its calls).
    pub scope: Option<FnScope>,
    /// The fn's signature (`None` for closures and const initialisers).
    pub sig: Option<&'a syn::Signature>,
    /// For a closure: the fn it is written in, whose parameters and `let`s before it are the
    /// values it captures (`move |args, extra| { let state = state.clone(); .. }`).
    pub enclosing: Option<(&'a syn::Signature, &'a syn::Block)>,
    /// For `impl From<X> for <protocol error>`: `X`, resolved.
    pub from_source_type: Option<ErrorSource>,
    /// Library code of an SDK's own package: it defines the SDK's constructors, conversions and
    /// codes, so it is never a handler and only its codes are judged.
    pub in_sdk_library: bool,
    /// Walked as a dispatcher because only a dispatcher hands it the request before a tool is
    /// picked ([`crate::model::site::CallEdge::continues_dispatch`]).
    pub continues_dispatch: bool,
}

/// Turn every fn into a body, with what the dialect says about it (reading the index of the
/// fn's own package).
pub fn fn_bodies<'a, 'd, 'i>(
    fns: &[&FnItem<'a>],
    index_of: &dyn Fn(FileId) -> &'i Index<'a>,
    defs: &DefMap<'a>,
    dialect_of: &dyn Fn(FileId) -> Option<&'d dyn Dialect>,
    in_sdk_library: &dyn Fn(FileId) -> bool,
    include_tests: bool,
) -> Vec<BodyInfo<'a>>
where
    'a: 'i,
{
    fns.iter()
        .enumerate()
        .map(|(i, f)| {
            let dialect = dialect_of(f.file);
            let library = in_sdk_library(f.file);
            let never_runs = dialect.is_some_and(|d| !library && d.never_runs(f));
            let kind = dialect
                .filter(|_| !library && !never_runs)
                .and_then(|d| d.handler_kind(f));
            BodyInfo {
                id: BodyId(i),
                file: f.file,
                name: f.name.clone(),
                tool_name: (kind == Some(HandlerKind::Tool))
                    .then(|| dialect.map(|d| d.tool_name(f)).unwrap_or_default()),
                kind,
                inert: (f.is_test && !include_tests) || never_runs,
                returns: dialect.map_or(ReturnFacts::UNKNOWN, |d| {
                    let mut returns = d.return_facts(kind, &f.sig.output, index_of(f.file));
                    // `impl From<X> for` the protocol error: what it builds is that error,
                    // whatever the SDK's constructors make of a value elsewhere.
                    if returns.err == ErrChannel::Unknown && !library && is_from_impl(f, d) {
                        returns.err = ErrChannel::Protocol;
                    }
                    returns
                }),
                code: BodyCode::Block(f.block),
                // The SDK's own conversions are its dialect's knowledge, not the crate's.
                is_from_impl: !library && dialect.is_some_and(|d| is_from_impl(f, d)),
                text_params: text_params(f.sig),
                scope: defs.fn_scope(f.sig),
                sig: Some(f.sig),
                enclosing: None,
                from_source_type: None,
                in_sdk_library: library,
                continues_dispatch: false,
            }
        })
        .collect()
}

/// `X` of an `impl From<X> for ..` body, resolved in the impl's module.
pub fn from_source_type(body: &BodyInfo<'_>, f: &FnItem<'_>, defs: &DefMap<'_>) -> ErrorSource {
    let args = f
        .trait_path
        .and_then(|p| p.segments.last())
        .map(|s| &s.arguments);
    let Some(ty) = args.and_then(|a| type_arguments(a).next()) else {
        return ErrorSource::Unknown;
    };
    let Some(scope) = body.scope else {
        return ErrorSource::Unknown;
    };
    match resolve_type_item(defs, scope.module, ty, None) {
        Some(id) => ErrorSource::Local(id, None),
        None => external_error_name(defs, scope.module, ty)
            .map_or(ErrorSource::Unknown, ErrorSource::External),
    }
}

/// `(index, name)` of the parameters whose type is text.
fn text_params(sig: &syn::Signature) -> Vec<(usize, String)> {
    sig.inputs
        .iter()
        .filter_map(|arg| match arg {
            syn::FnArg::Typed(t) => Some(t),
            syn::FnArg::Receiver(_) => None,
        })
        .enumerate()
        .filter_map(|(i, t)| {
            let syn::Pat::Ident(name) = &*t.pat else {
                return None;
            };
            let ty = quote::ToTokens::to_token_stream(&*t.ty).to_string();
            let text = ["str", "String", "Into < String >", "Display", "Cow"]
                .iter()
                .any(|w| ty.contains(w));
            text.then(|| (i, name.ident.to_string()))
        })
        .collect()
}

fn is_from_impl(f: &FnItem<'_>, dialect: &dyn Dialect) -> bool {
    from_impl_target(f).is_some_and(|ty| dialect.is_protocol_error_type(&ty))
}

/// `Y` of `impl From<X> for Y`'s `fn from`, by the bare name `self_ty` says it.
pub fn from_impl_target(f: &FnItem<'_>) -> Option<syn::Type> {
    let Owner::Trait {
        trait_name,
        self_ty,
    } = &f.owner
    else {
        return None;
    };
    if trait_name != "From" || f.name != "from" {
        return None;
    }
    let name = f.impl_self_ty.and_then(crate::syntax::type_ident)?;
    debug_assert_eq!(name.to_string(), *self_ty);
    Some(syn::Type::Path(syn::TypePath {
        qself: None,
        path: name.clone().into(),
    }))
}

/// Where a closure is written: the body around it, which it shares test-ness, scope and
/// captured values with.
#[derive(Clone, Copy)]
pub struct ClosureHome<'a> {
    pub file: FileId,
    pub inert: bool,
    pub scope: Option<FnScope>,
    /// The fn whose parameters and `let`s it captures ([`BodyInfo::enclosing`]).
    pub enclosing: Option<(&'a syn::Signature, &'a syn::Block)>,
}

/// A closure a constructor stores in a Fn-typed field, run where the field is called: a
/// helper of whoever calls it, returning what it declares.
pub fn stored_closure_body<'a>(
    id: BodyId,
    home: ClosureHome<'a>,
    closure: &'a syn::Expr,
    field: &str,
    returns: ReturnFacts,
) -> BodyInfo<'a> {
    BodyInfo {
        name: format!("closure stored in `{field}`"),
        tool_name: None,
        kind: None,
        ..closure_body(id, home, closure, None, HandlerKind::Tool, returns)
    }
}

/// A closure registered as a handler (of a tool, or of a resource or prompt) becomes a body of
/// its own, a tool's named by its registration when that gives the tool's name.
pub fn closure_body<'a>(
    id: BodyId,
    home: ClosureHome<'a>,
    closure: &'a Expr,
    registered_name: Option<String>,
    kind: HandlerKind,
    returns: ReturnFacts,
) -> BodyInfo<'a> {
    // `|ctx| Box::pin(async move { .. })`: the async block is the handler.
    let code = match closure {
        Expr::Closure(c) => handler_code(&c.body),
        other => BodyCode::Expr(other),
    };
    BodyInfo {
        id,
        file: home.file,
        name: match kind {
            HandlerKind::Tool => "tool closure",
            _ => "handler closure",
        }
        .to_string(),
        tool_name: (kind == HandlerKind::Tool)
            .then(|| registered_name.unwrap_or_else(|| "tool closure".to_string())),
        kind: Some(kind),
        inert: home.inert,
        returns,
        code,
        is_from_impl: false,
        text_params: Vec::new(),
        scope: home.scope,
        sig: None,
        enclosing: home.enclosing,
        from_source_type: None,
        in_sdk_library: false,
        continues_dispatch: false,
    }
}

/// The `async move { .. }` (or `Box::pin(async move { .. })`) a block ends with after only
/// `let`s.
fn future_after_lets(b: &syn::Block) -> Option<&Expr> {
    let (last, lets) = b.stmts.split_last()?;
    let syn::Stmt::Expr(tail, None) = last else {
        return None;
    };
    let tail = through_cast(tail);
    let future = match tail {
        Expr::Async(_) => true,
        Expr::Call(c) => c.args.len() == 1 && matches!(&c.args[0], Expr::Async(_)),
        _ => false,
    };
    (future && lets.iter().all(|s| matches!(s, syn::Stmt::Local(_)))).then_some(tail)
}

/// `Box::pin(..) as Pin<Box<dyn Future<..>>>`: the value cast.
fn through_cast(expr: &Expr) -> &Expr {
    match expr {
        Expr::Cast(c) => through_cast(&c.expr),
        other => other,
    }
}

fn handler_code(expr: &Expr) -> BodyCode<'_> {
    match through_cast(expr) {
        Expr::Call(c) if c.args.len() == 1 => handler_code(&c.args[0]),
        Expr::Async(a) => BodyCode::Block(&a.block),
        // `{ let state = state.clone(); Box::pin(async move { .. }) }`: the future is the
        // handler; the clones before it are captures (bound as the enclosing fn's values).
        Expr::Block(b) => {
            future_after_lets(&b.block).map_or(BodyCode::Block(&b.block), handler_code)
        }
        other => BodyCode::Expr(other),
    }
}

/// Const and static initialisers outside test code: error codes can be written there. In an
/// SDK's library, enum discriminants too (`SdkErrorCodes::REQUEST_TIMEOUT = -32001`): that is
/// where the SDK defines the codes it sends.
pub fn const_bodies<'a>(
    files: &[(FileId, &'a syn::File, bool)],
    first_id: usize,
    in_sdk_library: &dyn Fn(FileId) -> bool,
) -> Vec<BodyInfo<'a>> {
    let mut out = Vec::new();
    for (file, syntax, file_test) in files {
        if *file_test {
            continue;
        }
        let library = in_sdk_library(*file);
        collect_consts(*file, &syntax.items, &mut out, first_id, library);
    }
    out
}

fn collect_consts<'a>(
    file: FileId,
    items: &'a [Item],
    out: &mut Vec<BodyInfo<'a>>,
    first_id: usize,
    library: bool,
) {
    let push = |name: String, expr: &'a Expr, out: &mut Vec<BodyInfo<'a>>| {
        let id = BodyId(first_id + out.len());
        out.push(BodyInfo {
            id,
            file,
            name,
            tool_name: None,
            kind: None,
            inert: false,
            returns: ReturnFacts::UNKNOWN,
            code: BodyCode::Expr(expr),
            is_from_impl: false,
            text_params: Vec::new(),
            scope: None,
            sig: None,
            enclosing: None,
            from_source_type: None,
            in_sdk_library: library,
            continues_dispatch: false,
        });
    };
    for item in items {
        match item {
            Item::Const(c) => push(c.ident.to_string(), &c.expr, out),
            Item::Static(s) => push(s.ident.to_string(), &s.expr, out),
            Item::Mod(m) if !is_cfg_test(&m.attrs) => {
                if let Some((_, inner)) = &m.content {
                    collect_consts(file, inner, out, first_id, library);
                }
            }
            Item::Enum(e) if library && !is_cfg_test(&e.attrs) => {
                for v in &e.variants {
                    if let Some((_, expr)) = &v.discriminant {
                        push(format!("{}::{}", e.ident, v.ident), expr, out);
                    }
                }
            }
            Item::Impl(imp) if !is_cfg_test(&imp.attrs) => {
                for ii in &imp.items {
                    if let ImplItem::Const(c) = ii {
                        push(c.ident.to_string(), &c.expr, out);
                    }
                }
            }
            _ => {}
        }
    }
}
