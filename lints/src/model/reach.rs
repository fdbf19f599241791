//! Tool context: which tools reach each body over the call graph, which helpers other code
//! reaches too, the context of every site, and the sites re-reported at the calls into shared
//! helpers (from the callees' summaries).

use std::collections::{BTreeSet, HashMap};

use crate::model::bodies::BodyInfo;
use crate::model::callgraph::{edge_variants, CallGraph};
use crate::model::ids::{BodyId, FileId, ItemId};
use crate::model::site::{
    CallEdge, Callee, Channel, ErrorSite, Origin, PathFacts, SiteContext, VariantTag,
};
use crate::model::summary::{admits_result_args, ErrorVariants, Summaries};
use crate::sdk::{ErrChannel, HandlerKind};
use crate::source::Span;

/// The tool reach of every body, over the call graph.
pub struct Reach<'g> {
    /// Tools reaching each body (empty: not tool context).
    pub tools: Vec<BTreeSet<String>>,
    /// Reached from tools and also from other (non-test) code.
    pub shared: Vec<bool>,
    /// The error values a body returns can reach a tool's answer: it is a tool (or dispatcher),
    /// or such a body calls it and passes its error on ([`CallEdge::error_dropped`] unset).
    pub errors_reach_tool: Vec<bool>,
    /// Per edge: the call passes its callee's error value on to its caller's answer.
    passes_errors_on: Vec<bool>,
    /// Reached from an MCP handler of any kind (tools, dispatchers, a router's other methods).
    from_handler: Vec<bool>,
    graph: &'g CallGraph,
}

/// `marked`, and every body its marked bodies reach through the edges `carries` lets through;
/// an edge that `starts` marks its callees whatever its caller (a dispatcher's tool arm).
/// Linear: each body is expanded once per time it is marked.
fn spread(
    bodies: &[BodyInfo<'_>],
    edges: &[CallEdge],
    callees: &[Vec<BodyId>],
    mut marked: Vec<bool>,
    carries: impl Fn(usize) -> bool,
    starts: impl Fn(usize) -> bool,
) -> Vec<bool> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); bodies.len()];
    let mut work: Vec<usize> = (0..bodies.len()).filter(|&b| marked[b]).collect();
    for (ei, e) in edges.iter().enumerate() {
        if bodies[e.from.0].inert || !carries(ei) {
            continue;
        }
        out[e.from.0].push(ei);
        if starts(ei) {
            for c in &callees[ei] {
                if !marked[c.0] {
                    marked[c.0] = true;
                    work.push(c.0);
                }
            }
        }
    }
    while let Some(b) = work.pop() {
        for &ei in &out[b] {
            for c in &callees[ei] {
                if !marked[c.0] {
                    marked[c.0] = true;
                    work.push(c.0);
                }
            }
        }
    }
    marked
}

impl<'g> Reach<'g> {
    /// `builds_tool_result`: per body, whether it makes an isError tool result (and no
    /// protocol error): an error value handed to it is answered there.
    pub fn compute(
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
        graph: &'g CallGraph,
        builds_tool_result: &[bool],
    ) -> Reach<'g> {
        let n = bodies.len();
        let callees = &graph.callees;
        // Tools reaching each body: BFS from every tool root (and dispatcher arm).
        let mut tools: Vec<BTreeSet<String>> = vec![BTreeSet::new(); n];
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
                if caller.inert {
                    continue;
                }
                let names = match &e.context_override {
                    // The unknown tool's arm, and a failure of the request before a tool is
                    // picked (reading the tool's name out of it), run no tool.
                    Some(SiteContext::UnknownToolArm { .. } | SiteContext::OtherHandler) => {
                        continue
                    }
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
                if caller.inert {
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
                        || matches!(
                            e.context_override,
                            Some(SiteContext::UnknownToolArm { .. } | SiteContext::OtherHandler)
                        ));
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
        // Whether each call passes its callee's error on: not when it answers the error itself
        // or hands the value to a crate fn that makes a tool result of it.
        let passes_errors_on: Vec<bool> = edges
            .iter()
            .map(|e| {
                let answered_by = |to: &Callee| {
                    let to = to.bodies();
                    !to.is_empty() && to.iter().all(|b| builds_tool_result[b.0])
                };
                !e.error_dropped && !e.error_passed_to.as_ref().is_some_and(answered_by)
            })
            .collect();
        // A dispatch continued in a helper that returns the SDK's protocol error
        // (`self.dispatch(&request.name, args)` -> `Result<Value, ErrorData>`) answers through
        // its caller: its errors reach a tool's answer only where the caller passes them on.
        let answers_through_caller = |b: &BodyInfo<'_>| {
            b.continues_dispatch && b.returns.err == crate::sdk::ErrChannel::Protocol
        };
        let errors_reach_tool = spread(
            bodies,
            edges,
            callees,
            bodies
                .iter()
                .map(|b| root_names(b).is_some() && !answers_through_caller(b))
                .collect(),
            |ei| passes_errors_on[ei],
            |ei| {
                matches!(edges[ei].context_override, Some(SiteContext::Tool { .. }))
                    && !answers_through_caller(&bodies[edges[ei].from.0])
            },
        );
        let from_handler = spread(
            bodies,
            edges,
            callees,
            bodies.iter().map(|b| b.kind.is_some()).collect(),
            |_| true,
            |_| false,
        );
        Reach {
            tools,
            shared,
            errors_reach_tool,
            passes_errors_on,
            from_handler,
            graph,
        }
    }

    /// The calls into `body` made from tool code (not tests), in edge order.
    pub fn tool_edges_into<'e>(
        &'e self,
        body: BodyId,
        bodies: &'e [BodyInfo<'_>],
        edges: &'e [CallEdge],
    ) -> impl Iterator<Item = &'e CallEdge> + 'e {
        self.graph.in_edges[body.0]
            .iter()
            .map(move |&ei| &edges[ei])
            .filter(move |e| {
                let caller = &bodies[e.from.0];
                !caller.inert
                    && self
                        .context_of(caller, e.context_override.as_ref())
                        .is_tool()
            })
    }

    /// Whether every call into `body` from tool code (one at least) is on a server fault
    /// (`spawn_blocking(..).await.map_err(internal)?`): what the helper builds there answers
    /// the server's own failure, not the tool's.
    pub fn only_server_faults_into(
        &self,
        body: BodyId,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
    ) -> bool {
        let mut calls = self.tool_edges_into(body, bodies, edges).peekable();
        calls.peek().is_some() && calls.all(|e| e.path.server_fault)
    }

    /// The calls into `body` from tool code, for the related locations of a finding at a helper
    /// (in edge order).
    pub fn tool_calls_into(
        &self,
        body: BodyId,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
    ) -> Vec<(FileId, Span)> {
        self.tool_edges_into(body, bodies, edges)
            .map(|e| (bodies[e.from.0].file, e.span))
            .collect()
    }

    /// The tools whose calls into `body` pass a variant `tag` admits, or one the source does not
    /// show, and those calls (the ones known to pass it first). A call passing in, of `tag`'s
    /// variants, only ones built on the server's own faults (see [`passes_only_faults`]) is not
    /// among them.
    pub fn tool_calls_passing(
        &self,
        tag: &VariantTag,
        body: BodyId,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
        returned: &ErrorVariants,
        fault_only: &dyn Fn(ItemId, &str) -> bool,
    ) -> (Vec<String>, Vec<(FileId, Span)>) {
        let mut tools = BTreeSet::new();
        let (mut known, mut unknown) = (Vec::new(), Vec::new());
        for e in self.tool_edges_into(body, bodies, edges) {
            let passed = edge_variants(e, returned);
            let call = (bodies[e.from.0].file, e.span);
            match passed {
                Some(vs) if passes_only_faults(Some(&vs), &Some(tag.clone()), fault_only) => {
                    continue
                }
                Some(vs) if vs.iter().any(|(en, v)| tag.admits(*en, v)) => known.push(call),
                Some(_) => continue,
                None => unknown.push(call),
            }
            let caller = &bodies[e.from.0];
            if let SiteContext::Tool { tools: named, .. } =
                self.context_of(caller, e.context_override.as_ref())
            {
                tools.extend(named);
            }
        }
        known.extend(unknown);
        (tools.into_iter().collect(), known)
    }

    /// Whether every call into `body` (one at least) is from code whose `Err` the SDK makes an
    /// isError result (a turbomcp `#[server]` `#[tool]`), directly or through crate fns only such
    /// code calls: an error `body` returns never reaches the wire as a protocol error, nor the
    /// code it carries.
    pub fn errors_only_become_results(
        &self,
        body: BodyId,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
        depth: usize,
    ) -> bool {
        let mut callers = self.graph.in_edges[body.0]
            .iter()
            .map(|&ei| &bodies[edges[ei].from.0])
            .filter(|caller| !caller.inert)
            .peekable();
        callers.peek().is_some()
            && callers.all(|caller| {
                caller.returns.err == ErrChannel::ToolError
                    || (caller.kind.is_none()
                        && caller.id != body
                        && depth < 3
                        && self.errors_only_become_results(caller.id, bodies, edges, depth + 1))
            })
    }

    /// The enum variants tool code passes into `body` (`AppError::NotFound(..).into()`, `?` on
    /// a `.map_err(|_| AppError::Busy)`): `None` when some tool call passes a value whose variant
    /// the source does not show, so every arm may run.
    pub fn tool_variants_into(
        &self,
        body: BodyId,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
        returned: &ErrorVariants,
    ) -> Option<Vec<(ItemId, String)>> {
        variants_passed(self.tool_edges_into(body, bodies, edges), returned)
    }

    /// The enum variants that callers sending their errors as protocol errors pass into
    /// `body` (a conversion that resources and caught tools both reach: only the resources'
    /// variants go on the wire). `None` when one passes a value whose variant the source does
    /// not show, or when none calls it.
    pub fn protocol_variants_into(
        &self,
        body: BodyId,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
        returned: &ErrorVariants,
    ) -> Option<Vec<(ItemId, String)>> {
        let calls: Vec<&CallEdge> = self.graph.in_edges[body.0]
            .iter()
            .map(|&ei| &edges[ei])
            .filter(|e| {
                let caller = &bodies[e.from.0];
                !caller.inert && caller.returns.err != ErrChannel::ToolError
            })
            .collect();
        if calls.is_empty() {
            return None;
        }
        variants_passed(calls.into_iter(), returned)
    }

    /// Whether an MCP handler of any kind reaches `body` (or it is one).
    pub fn reached_from_handler(&self, body: BodyId) -> bool {
        self.from_handler[body.0]
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

    /// Protocol-error sites of shared helpers, re-reported at each call from tool context;
    /// `summaries` were computed over `sites`. Also the success answers of helpers handed a
    /// tool's error itself (`Err(e) => tool_err(e)`): the helper answers it its own way, so its
    /// answer is judged where it is, once; each such call is given with the site (an index into
    /// `sites`) to attach to it.
    pub fn delegated_sites(
        &self,
        bodies: &[BodyInfo<'_>],
        edges: &[CallEdge],
        sites: &[ErrorSite],
        summaries: &Summaries,
        returned: &ErrorVariants,
        fault_only: &dyn Fn(ItemId, &str) -> bool,
    ) -> (Vec<ErrorSite>, Vec<(usize, FileId, Span)>) {
        let mut handed = Vec::new();
        let mut by_body: HashMap<usize, Vec<&ErrorSite>> = HashMap::new();
        for s in sites {
            by_body.entry(s.body.0).or_default().push(s);
        }
        let mut out = Vec::new();
        for (ei, e) in edges.iter().enumerate() {
            let caller = &bodies[e.from.0];
            if caller.inert {
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
            for &callee in &self.graph.callees[ei] {
                let shared = self.shared[callee.0];
                if !unknown_arm && !shared && !failure_call {
                    continue;
                }
                for group in summaries.of(callee) {
                    let s = &sites[group.sites[0]];
                    let wanted = unknown_arm
                        || (shared
                            && s.channel == Channel::Protocol
                            && !caller_turns_errors_into_results
                            && self.errors_reach_tool[caller.id.0]
                            && self.passes_errors_on[ei])
                        || (failure_call && s.channel == Channel::ToolSuccess);
                    // A call passing one variant gets only the arms that variant reaches.
                    let passed = edge_variants(e, returned).filter(|vs| !vs.is_empty());
                    let admitted = match (&passed, &group.key.variant) {
                        (Some(vs), Some(tag)) => {
                            vs.iter().any(|(enum_id, v)| tag.admits(*enum_id, v))
                        }
                        _ => true,
                    } && admits_result_args(group.key.result_arm, &e.result_args);
                    if !wanted || !admitted {
                        continue;
                    }
                    if failure_call
                        && !unknown_arm
                        && s.channel == Channel::ToolSuccess
                        && e.hands_error
                    {
                        handed.extend(group.sites.iter().map(|&i| (i, caller.file, e.span)));
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
                            server_fault: s.path.server_fault
                                || e.path.server_fault
                                || passes_only_faults(
                                    passed.as_deref(),
                                    &group.key.variant,
                                    fault_only,
                                ),
                            schema_level: s.path.schema_level || e.path.schema_level,
                            client_declaration: s.path.client_declaration
                                || e.path.client_declaration,
                            request_failure: s.path.request_failure || e.path.request_failure,
                            server_state: s.path.server_state || e.path.server_state,
                            ..e.path.clone()
                        },
                        ..s.clone()
                    });
                }
            }
        }
        out.extend(self.text_arguments(bodies, edges, &by_body));
        (out, handed)
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
            if caller.inert || e.args.is_empty() {
                continue;
            }
            let context = self.context_of(caller, e.context_override.as_ref());
            for &callee in &self.graph.callees[ei] {
                for s in by_body.get(&callee.0).into_iter().flatten() {
                    let Some((i, text)) = s.text_param.and_then(|i| Some((i, e.args.get(i)?)))
                    else {
                        continue;
                    };
                    let shown = e.shown_args.get(i).copied().flatten();
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
                        shows_error_of: shown,
                        ..(*s).clone()
                    });
                }
            }
        }
        out
    }
}

/// `Io(_) | Poisoned(_) => internal_error(..)` reached by a call that passes in only `Poisoned`
/// of that arm's variants, every build of which is the server's own fault.
pub(super) fn passes_only_faults(
    passed: Option<&[(ItemId, String)]>,
    tag: &Option<VariantTag>,
    fault_only: &dyn Fn(ItemId, &str) -> bool,
) -> bool {
    let (Some(passed), Some(VariantTag::Is(e, vs))) = (passed, tag) else {
        return false;
    };
    let mut reached = vs
        .iter()
        .filter(|v| passed.iter().any(|(pe, pv)| pe == e && pv == *v))
        .peekable();
    reached.peek().is_some() && reached.all(|v| fault_only(*e, v))
}

/// The enum variants these calls pass: `None` when one passes a value whose variant the source
/// does not show.
fn variants_passed<'e>(
    calls: impl Iterator<Item = &'e CallEdge>,
    returned: &ErrorVariants,
) -> Option<Vec<(ItemId, String)>> {
    let passed: Option<Vec<Vec<(ItemId, String)>>> =
        calls.map(|e| edge_variants(e, returned)).collect();
    passed.map(|p| p.into_iter().flatten().collect())
}
