//! Where tool context is: handler bodies (from the dialect), the crate-wide call map by name,
//! which helpers only tools reach, and the final context of every site.

use std::collections::{BTreeSet, HashMap};

use syn::{Expr, ImplItem, Item};

use crate::index::{FnItem, Index, Owner};
use crate::model::FileId;
use crate::resolve::{DefMap, FnScope, ItemId};
use crate::sdk::{Dialect, ErrChannel, HandlerKind, ReturnFacts};
use crate::sites::{
    CallEdge, Callee, Channel, ErrorSite, ErrorSource, Origin, PathFacts, SiteContext,
};
use crate::summary::Summaries;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyId(pub usize);

#[derive(Clone, Copy)]
pub enum BodyCode<'a> {
    Block(&'a syn::Block),
    Expr(&'a Expr),
}

/// A body of code: a fn, a closure registered as a tool, or a const initialiser.
pub struct BodyInfo<'a> {
    pub id: BodyId,
    pub file: FileId,
    /// The fn name (or `tool closure` / the const name).
    pub name: String,
    /// For tools: the wire name.
    pub tool_name: Option<String>,
    pub kind: Option<HandlerKind>,
    pub is_test: bool,
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
    /// For `impl From<X> for <protocol error>`: `X`, resolved.
    pub from_source_type: Option<ErrorSource>,
}

/// Turn every fn of the index into a body, with what the dialect says about it.
pub fn fn_bodies<'a, 'd>(
    index: &Index<'a>,
    defs: &DefMap<'a>,
    dialect_of: &dyn Fn(FileId) -> Option<&'d Dialect>,
    include_tests: bool,
) -> Vec<BodyInfo<'a>> {
    index
        .fns
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let dialect = dialect_of(f.file);
            let kind = dialect.and_then(|d| d.handler_kind(f));
            BodyInfo {
                id: BodyId(i),
                file: f.file,
                name: f.name.clone(),
                tool_name: (kind == Some(HandlerKind::Tool))
                    .then(|| dialect.map(|d| d.tool_name(f)).unwrap_or_default()),
                kind,
                is_test: f.is_test && !include_tests,
                returns: dialect.map_or(ReturnFacts::UNKNOWN, |d| {
                    d.return_facts(kind, &f.sig.output, index)
                }),
                code: BodyCode::Block(f.block),
                is_from_impl: dialect.is_some_and(|d| is_from_impl(f, d)),
                text_params: text_params(f.sig),
                scope: defs.fn_scope(f.sig),
                sig: Some(f.sig),
                from_source_type: None,
            }
        })
        .collect()
}

/// `X` of an `impl From<X> for ..` body, resolved in the impl's module.
pub fn from_source_type(body: &BodyInfo<'_>, f: &FnItem<'_>, defs: &DefMap<'_>) -> ErrorSource {
    let Some(syn::PathArguments::AngleBracketed(args)) = f.trait_args else {
        return ErrorSource::Unknown;
    };
    let Some(ty) = args.args.iter().find_map(|g| match g {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    }) else {
        return ErrorSource::Unknown;
    };
    let local = body
        .scope
        .and_then(|s| crate::types::resolve_type_item(defs, s.module, ty, None));
    match local {
        Some(id) => ErrorSource::Local(id, None),
        None => crate::index::type_name(ty).map_or(ErrorSource::Unknown, ErrorSource::External),
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

fn is_from_impl(f: &FnItem<'_>, dialect: &Dialect) -> bool {
    let Owner::Trait {
        trait_name,
        self_ty,
    } = &f.owner
    else {
        return false;
    };
    if trait_name != "From" || f.name != "from" {
        return false;
    }
    let ty: syn::Type = match syn::parse_str(self_ty) {
        Ok(t) => t,
        Err(_) => return false,
    };
    dialect.is_protocol_error_type(&ty)
}

/// A closure registered as a tool handler becomes a body of its own.
pub fn closure_body<'a>(
    id: BodyId,
    file: FileId,
    closure: &'a Expr,
    is_test: bool,
    returns: ReturnFacts,
    scope: Option<FnScope>,
) -> BodyInfo<'a> {
    // `|ctx| Box::pin(async move { .. })`: the async block is the handler.
    let code = match closure {
        Expr::Closure(c) => handler_code(&c.body),
        other => BodyCode::Expr(other),
    };
    BodyInfo {
        id,
        file,
        name: "tool closure".to_string(),
        tool_name: Some("tool closure".to_string()),
        kind: Some(HandlerKind::Tool),
        is_test,
        returns,
        code,
        is_from_impl: false,
        text_params: Vec::new(),
        scope,
        sig: None,
        from_source_type: None,
    }
}

fn handler_code(expr: &Expr) -> BodyCode<'_> {
    match expr {
        Expr::Call(c) if c.args.len() == 1 => handler_code(&c.args[0]),
        Expr::Async(a) => BodyCode::Block(&a.block),
        Expr::Block(b) => BodyCode::Block(&b.block),
        other => BodyCode::Expr(other),
    }
}

/// Const and static initialisers outside test code: error codes can be written there.
pub fn const_bodies<'a>(
    files: &[(FileId, &'a syn::File, bool)],
    first_id: usize,
) -> Vec<BodyInfo<'a>> {
    let mut out = Vec::new();
    for (file, syntax, file_test) in files {
        if *file_test {
            continue;
        }
        collect_consts(*file, &syntax.items, &mut out, first_id);
    }
    out
}

fn collect_consts<'a>(
    file: FileId,
    items: &'a [Item],
    out: &mut Vec<BodyInfo<'a>>,
    first_id: usize,
) {
    let push = |name: String, expr: &'a Expr, out: &mut Vec<BodyInfo<'a>>| {
        let id = BodyId(first_id + out.len());
        out.push(BodyInfo {
            id,
            file,
            name,
            tool_name: None,
            kind: None,
            is_test: false,
            returns: ReturnFacts {
                err: ErrChannel::Unknown,
                err_is_unit: false,
                ok_is_text: false,
            },
            code: BodyCode::Expr(expr),
            is_from_impl: false,
            text_params: Vec::new(),
            scope: None,
            sig: None,
            from_source_type: None,
        });
    };
    for item in items {
        match item {
            Item::Const(c) => push(c.ident.to_string(), &c.expr, out),
            Item::Static(s) => push(s.ident.to_string(), &s.expr, out),
            Item::Mod(m) if !crate::index::is_cfg_test(&m.attrs) => {
                if let Some((_, inner)) = &m.content {
                    collect_consts(file, inner, out, first_id);
                }
            }
            Item::Impl(imp) if !crate::index::is_cfg_test(&imp.attrs) => {
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

/// The `From` impls a `?` converts through: the one for the operand's error type when the source
/// tells it (none when no impl takes that type: it is the protocol error already, or converts
/// otherwise); the only impl when it does not.
pub fn from_impls_for(
    bodies: &[BodyInfo<'_>],
    from_impls: &[BodyId],
    source: &ErrorSource,
) -> Vec<BodyId> {
    let same = |b: &BodyId| -> bool {
        match (&bodies[b.0].from_source_type, source) {
            (Some(ErrorSource::Local(a, _)), ErrorSource::Local(b, _)) => a == b,
            (Some(ErrorSource::External(a)), ErrorSource::External(b)) => a == b,
            _ => false,
        }
    };
    match source {
        ErrorSource::Unknown => match from_impls {
            [one] => vec![*one],
            _ => Vec::new(),
        },
        _ => from_impls.iter().copied().filter(same).collect(),
    }
}

/// The variant an edge instantiates its callee with, for `From` impls and error mappings.
pub fn edge_variant(edge: &CallEdge) -> Option<(ItemId, &str)> {
    match &edge.callee {
        Callee::FromImpls(ErrorSource::Local(id, Some(v))) => Some((*id, v.as_str())),
        _ => edge.variant.as_ref().map(|(id, v)| (*id, v.as_str())),
    }
}

/// The call graph and the tool reach of every body.
pub struct Reach {
    /// Tools reaching each body (empty: not tool context).
    pub tools: Vec<BTreeSet<String>>,
    /// Reached from tools and also from other (non-test) code.
    pub shared: Vec<bool>,
    /// Callees of each edge, resolved.
    callees: Vec<Vec<BodyId>>,
    /// Edge indices leaving each body.
    out_edges: Vec<Vec<usize>>,
    /// Edge indices whose callees include each body, in edge order.
    in_edges: Vec<Vec<usize>>,
}

impl Reach {
    pub fn compute(bodies: &[BodyInfo<'_>], edges: &[CallEdge]) -> Reach {
        let n = bodies.len();
        let from_impls: Vec<BodyId> = bodies
            .iter()
            .filter(|b| b.is_from_impl && !b.is_test)
            .map(|b| b.id)
            .collect();
        let callees: Vec<Vec<BodyId>> = edges
            .iter()
            .map(|e| match &e.callee {
                Callee::Body(b) if !bodies[b.0].is_test || bodies[e.from.0].is_test => vec![*b],
                Callee::Body(_) => Vec::new(),
                // The receiver's type is unknown: no single fn is meant.
                Callee::Candidates(_) => Vec::new(),
                Callee::Dispatch(bs) => bs
                    .iter()
                    .copied()
                    .filter(|b| !bodies[b.0].is_test)
                    .collect(),
                Callee::FromImpls(source) => from_impls_for(bodies, &from_impls, source),
            })
            .collect();

        // Tools reaching each body: BFS from every tool root (and dispatcher arm).
        let mut tools: Vec<BTreeSet<String>> = vec![BTreeSet::new(); n];
        let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, e) in edges.iter().enumerate() {
            out_edges[e.from.0].push(i);
        }
        // A root's own names: a tool's wire name, a dispatcher's fn name.
        let root_names = |b: &BodyInfo<'_>| -> Option<BTreeSet<String>> {
            match b.kind {
                Some(HandlerKind::Tool) => Some(BTreeSet::from([b
                    .tool_name
                    .clone()
                    .unwrap_or_else(|| b.name.clone())])),
                Some(HandlerKind::Dispatcher) => Some(BTreeSet::from([b.name.clone()])),
                _ => None,
            }
        };
        // Propagate to a fixpoint: an edge carries its caller's tools, or the tool arm it sits
        // in (a dispatcher's `"add" =>`, a request handler's `CallToolRequest(..) =>`); the
        // unknown-tool arm carries none.
        loop {
            let mut changed = false;
            for (ei, e) in edges.iter().enumerate() {
                let caller = &bodies[e.from.0];
                if caller.is_test {
                    continue;
                }
                let names = match &e.context_override {
                    Some(SiteContext::UnknownToolArm { .. }) => continue,
                    Some(SiteContext::Tool { tools, .. }) => tools.iter().cloned().collect(),
                    _ => root_names(caller).unwrap_or_else(|| tools[caller.id.0].clone()),
                };
                if names.is_empty() {
                    continue;
                }
                for &callee in &callees[ei] {
                    if bodies[callee.0].kind.is_none() && !names.is_subset(&tools[callee.0]) {
                        tools[callee.0].extend(names.iter().cloned());
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }

        // Shared: a caller outside tool context (or itself shared) reaches it.
        let mut shared = vec![false; n];
        loop {
            let mut changed = false;
            for (ei, e) in edges.iter().enumerate() {
                let caller = &bodies[e.from.0];
                if caller.is_test {
                    continue;
                }
                let caller_is_tool_root = matches!(
                    caller.kind,
                    Some(HandlerKind::Tool) | Some(HandlerKind::Dispatcher)
                );
                let in_tool_arm = matches!(e.context_override, Some(SiteContext::Tool { .. }));
                let outside = !in_tool_arm
                    && ((!caller_is_tool_root && tools[caller.id.0].is_empty())
                        || shared[caller.id.0]
                        || matches!(e.context_override, Some(SiteContext::UnknownToolArm { .. })));
                if !outside {
                    continue;
                }
                for &callee in &callees[ei] {
                    if !tools[callee.0].is_empty() && !shared[callee.0] {
                        shared[callee.0] = true;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut in_edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (ei, cs) in callees.iter().enumerate() {
            for c in cs {
                if in_edges[c.0].last() != Some(&ei) {
                    in_edges[c.0].push(ei);
                }
            }
        }
        Reach {
            tools,
            shared,
            callees,
            out_edges,
            in_edges,
        }
    }

    /// The calls into `body` made from tool code (not tests), in edge order.
    fn tool_edges_into<'e>(
        &'e self,
        body: BodyId,
        bodies: &'e [BodyInfo<'_>],
        edges: &'e [CallEdge],
    ) -> impl Iterator<Item = &'e CallEdge> + 'e {
        self.in_edges[body.0]
            .iter()
            .map(move |&ei| &edges[ei])
            .filter(move |e| {
                let caller = &bodies[e.from.0];
                !caller.is_test
                    && self
                        .context_of(caller, e.context_override.as_ref())
                        .is_tool()
            })
    }

    /// The calls into `body` from tool code, for the related locations of a finding at a helper
    /// (at most `limit`, in edge order).
    pub fn tool_calls_into(
        &self,
        body: BodyId,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
        limit: usize,
    ) -> Vec<(FileId, crate::source::Span)> {
        self.tool_edges_into(body, bodies, edges)
            .take(limit)
            .map(|e| (bodies[e.from.0].file, e.span))
            .collect()
    }

    /// The enum variants tool code passes into `body` (`AppError::NotFound(..).into()`, `?` on
    /// a `.map_err(|_| AppError::Busy)`): `None` when some tool call passes a value whose variant
    /// the source does not show, so every arm may run.
    pub fn tool_variants_into(
        &self,
        body: BodyId,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
    ) -> Option<Vec<(ItemId, String)>> {
        self.tool_edges_into(body, bodies, edges)
            .map(|e| edge_variant(e).map(|(id, v)| (id, v.to_string())))
            .collect()
    }

    /// The context of a site found in `body` (with the dispatcher arm it sat in, if any).
    pub fn context_of(&self, body: &BodyInfo<'_>, arm: Option<&SiteContext>) -> SiteContext {
        if let Some(arm) = arm {
            return arm.clone();
        }
        match body.kind {
            Some(HandlerKind::Tool) | Some(HandlerKind::Dispatcher) => SiteContext::Tool {
                tools: vec![body.tool_name.clone().unwrap_or_else(|| body.name.clone())],
                helper: None,
            },
            Some(HandlerKind::Other) => SiteContext::OtherHandler,
            None if self.shared[body.id.0] => SiteContext::SharedHelper {
                helper: body.name.clone(),
            },
            None if !self.tools[body.id.0].is_empty() => SiteContext::Tool {
                tools: self.tools[body.id.0].iter().cloned().collect(),
                helper: Some(body.name.clone()),
            },
            None => SiteContext::Unreached,
        }
    }

    /// Protocol-error sites of shared helpers, re-reported at each call from tool context.
    pub fn delegated_sites(
        &self,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
        sites: &[ErrorSite],
    ) -> Vec<ErrorSite> {
        let mut by_body: HashMap<usize, Vec<&ErrorSite>> = HashMap::new();
        for s in sites {
            by_body.entry(s.body.0).or_default().push(s);
        }
        let body_callees: Vec<Vec<BodyId>> = self
            .out_edges
            .iter()
            .map(|es| {
                es.iter()
                    .flat_map(|&ei| self.callees[ei].iter().copied())
                    .collect()
            })
            .collect();
        let summaries = Summaries::compute(&body_callees, sites);
        let mut out = Vec::new();
        for (ei, e) in edges.iter().enumerate() {
            let caller = &bodies[e.from.0];
            if caller.is_test {
                continue;
            }
            // A helper called from the unknown-tool arm answers for it: every result or error
            // it builds is that answer. A shared helper called from a tool: its protocol errors
            // are that tool's.
            let unknown_arm =
                matches!(e.context_override, Some(SiteContext::UnknownToolArm { .. }));
            // A caller whose `Err` is an isError result (turbomcp `#[tool]`) turns the helper's
            // error value into one: nothing protocol-level to re-report there.
            let caller_turns_errors_into_results = caller.returns.err == ErrChannel::ToolError;
            let caller_context = self.context_of(caller, e.context_override.as_ref());
            if !unknown_arm && !caller_context.is_tool() {
                continue;
            }
            // A helper called on a failure path (`Err(e) => text_result(id, ..)`): the success
            // results it builds answer that failure.
            let failure_call = e.path.on_failure_path || e.path.lookup_miss;
            for &callee in &self.callees[ei] {
                let shared = self.shared[callee.0];
                if !unknown_arm && !shared && !failure_call {
                    continue;
                }
                for group in summaries.of(callee) {
                    let s = &sites[group.sites[0]];
                    let wanted = unknown_arm
                        || (shared
                            && s.channel == Channel::Protocol
                            && !caller_turns_errors_into_results)
                        || (failure_call && s.channel == Channel::ToolSuccess);
                    // A call passing one variant gets only the arms that variant reaches.
                    let admitted = match (edge_variant(e), &group.key.variant) {
                        (Some((enum_id, v)), Some(tag)) => tag.admits(enum_id, v),
                        _ => true,
                    };
                    if !wanted || !admitted {
                        continue;
                    }
                    let constructor = match &s.origin {
                        Origin::Constructor(c) => c.clone(),
                        Origin::HelperCall { constructor, .. } => constructor.clone(),
                        _ => "error".to_string(),
                    };
                    let helper = &bodies[callee.0].name;
                    let related = group
                        .sites
                        .iter()
                        .map(|&i| {
                            let built = &sites[i];
                            let with = match &built.origin {
                                Origin::Constructor(c) => format!(" with `{c}`"),
                                _ => String::new(),
                            };
                            (
                                built.file,
                                built.span,
                                format!("`{helper}` builds it here{with}"),
                            )
                        })
                        .collect();
                    out.push(ErrorSite {
                        span: e.span,
                        file: caller.file,
                        related,
                        origin: Origin::HelperCall {
                            helper: helper.clone(),
                            built_at: s.span,
                            constructor,
                        },
                        context: caller_context.clone(),
                        body: caller.id,
                        path: PathFacts {
                            server_fault: s.path.server_fault || e.path.server_fault,
                            schema_level: s.path.schema_level || e.path.schema_level,
                            ..e.path.clone()
                        },
                        ..s.clone()
                    });
                }
            }
        }
        out.extend(self.text_arguments(bodies, edges, &by_body));
        out
    }

    /// Text passed to a helper that builds a result or error with it (`fail(id, "failed")`):
    /// a copy of the helper's site at each call, carrying the argument's text, for the text
    /// lints.
    fn text_arguments(
        &self,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
        by_body: &HashMap<usize, Vec<&ErrorSite>>,
    ) -> Vec<ErrorSite> {
        let mut out = Vec::new();
        for (ei, e) in edges.iter().enumerate() {
            let caller = &bodies[e.from.0];
            if caller.is_test || e.args.is_empty() {
                continue;
            }
            let context = self.context_of(caller, e.context_override.as_ref());
            for &callee in &self.callees[ei] {
                for s in by_body.get(&callee.0).into_iter().flatten() {
                    let Some(text) = s.text_param.and_then(|i| e.args.get(i)) else {
                        continue;
                    };
                    out.push(ErrorSite {
                        span: e.span,
                        file: caller.file,
                        texts: vec![text.clone()],
                        empty_content: text.is_blank(),
                        origin: Origin::TextArgument {
                            helper: bodies[callee.0].name.clone(),
                            built_at: s.span,
                        },
                        context: context.clone(),
                        body: caller.id,
                        text_param: None,
                        message_source: None,
                        ..(*s).clone()
                    });
                }
            }
        }
        out
    }
}
