//! Calls out of a body: the edge each call into the crate's own fns makes (with the text its
//! arguments carry and the variant it passes), `?` and the `From` conversions it goes through,
//! and the error type or enum variant of the value a call or `?` converts.

use syn::{Expr, Pat};

use super::failure::Frame;
use super::Walker;
use crate::index::Index;
use crate::model::callgraph::{through_borrowing_calls, Target};
use crate::model::ids::{BodyId, ItemId};
use crate::model::site::{
    CallEdge, Callee, Channel, ErrorSource, FnFacts, Origin, PassedErrors, SiteContext, VariantTag,
    TOOL_CALL_ARM,
};
use crate::resolve::{Def, Ns};
use crate::sdk::{
    Construction, ContentFacts, Dialect, ErrChannel, HandlerKind, ReturnFacts, TryMeaning,
};
use crate::source::Span;
use crate::syntax::{
    last_segment, pat_ident, path_segments, strip_await, strip_parens, strip_refs, tail_expr,
    unwrap_future, variant_binding,
};
use crate::text::{message_with_macros, MessageText};
use crate::types::{declared_result_error, external_error_name, resolve_type_item, FnKey};

impl<'a> Walker<'a, '_> {
    /// A call whose arguments may carry text into the callee's results (`fail(id, "..")`);
    /// `args[0]` is the callee's input `first_input` (1 past a method call's receiver).
    pub(super) fn call_edge<'x>(
        &mut self,
        target: Target,
        call: &dyn syn::spanned::Spanned,
        variant_arg: Option<&'a Expr>,
        first_input: usize,
        args: impl IntoIterator<Item = &'x Expr>,
    ) {
        // Spans cost a token walk: only for calls into the crate's own fns.
        let Some(callee) = self.callee(target) else {
            return;
        };
        let range = call.span().byte_range();
        let span = self.file.span(range.start, range.end);
        let args: Vec<&Expr> = args.into_iter().collect();
        let texts: Vec<MessageText> = args
            .iter()
            .map(|a| message_with_macros(a, self.file, self.macros))
            .collect();
        let continues_dispatch =
            self.picking_tool() && args.iter().any(|a| self.carries_request(a));
        // `let name = required_string(params, "name")?` where a tool is picked: a helper
        // reading the tool's name out of the request fails on the request, not on a tool.
        let reads_tool_name = self.picking_tool()
            && args
                .iter()
                .any(|a| crate::syntax::str_literal(a).is_some_and(|s| s == "name"));
        // The text passed in says what the callee's error is about ("Missing params").
        let pushed = self.facts.calls.len();
        self.push_edge(callee, span, None, &texts);
        if self.facts.calls.len() == pushed {
            return;
        }
        let shown_args = texts.iter().map(|t| self.shown_error(t)).collect();
        let variant = variant_arg.and_then(|v| self.resolver.variant_of(v, &self.locals));
        let address = call as *const dyn syn::spanned::Spanned as *const ();
        let edge = &mut self.facts.calls[pushed];
        edge.variant = variant;
        edge.shown_args = shown_args;
        edge.result_args = args
            .iter()
            .enumerate()
            .filter_map(|(i, a)| Some((i + first_input, result_literal(a)?)))
            .collect();
        let binding = self.frames.iter().rev().find_map(|f| f.binding.as_deref());
        edge.hands_error = binding.is_some_and(|b| {
            texts
                .iter()
                .any(|t| matches!(t, MessageText::Local(l) if l == b))
                && texts
                    .iter()
                    .all(|t| matches!(t, MessageText::Local(_) | MessageText::Literal { .. }))
        });
        edge.args = texts;
        edge.error_dropped = self.error_dropped.contains(&address);
        edge.error_passed_to = self.error_passed_to.get(&address).cloned();
        edge.continues_dispatch = continues_dispatch;
        edge.known_names = continues_dispatch && self.known_names_arm;
        if reads_tool_name {
            edge.path.request_failure = true;
            edge.context_override = Some(SiteContext::OtherHandler);
        }
        self.edge_of_call.insert(address, pushed);
    }

    /// `match result { Ok(v) => .., Err(e) => .. }` over the body's own input `result` (not a
    /// local of that name): the input's index and which variant the arm's pattern takes.
    pub(super) fn result_arm_of(&self, scrutinee: &Expr, pat: &Pat) -> Option<(usize, bool)> {
        let Expr::Path(p) = strip_refs(scrutinee) else {
            return None;
        };
        let name = p.path.get_ident()?.to_string();
        if self.let_init(scrutinee).is_some() {
            return None;
        }
        let ok = if variant_binding(pat, "Ok").is_some() {
            true
        } else if variant_binding(pat, "Err").is_some() {
            false
        } else {
            return None;
        };
        let input = self.param_names().iter().position(|n| *n == name)?;
        Some((input, ok))
    }

    /// Whether an argument names the request, or is a local holding the requested tool's name
    /// (`let tool_name = params.name.clone(); registry.execute_tool(&tool_name, ..)`) or a part
    /// of the request (`let args = &params["arguments"]; call_tool(name, args)`).
    fn carries_request(&self, arg: &Expr) -> bool {
        // `&call_request.name` where `let call_request = match serde_json::from_value(params)`:
        // the `name` field of the request decoded into a local.
        let decoded_name = matches!(through_borrowing_calls(arg), Expr::Field(f)
            if matches!(&f.member, syn::Member::Named(n) if n == "name")
                && self.let_init(&f.base).is_some_and(|i| self.decoded_from_request(i, 0)));
        self.names_request(arg)
            || decoded_name
            || self
                .let_init(arg)
                .is_some_and(|init| self.requested_name(init, 0) || self.request_member(init))
    }

    /// `&params["arguments"]`, `&request.params`: a member read out of the request (not the
    /// whole request decoded, which a caller may have checked the name of first).
    fn request_member(&self, init: &Expr) -> bool {
        let mut read = init;
        let mut member = false;
        loop {
            read = match read {
                Expr::MethodCall(m) => {
                    member |= m.method == "get";
                    &m.receiver
                }
                Expr::Index(i) => {
                    member = true;
                    &i.expr
                }
                Expr::Field(f) => {
                    member = true;
                    &f.base
                }
                Expr::Reference(r) => &r.expr,
                Expr::Paren(p) => &p.expr,
                _ => break,
            };
        }
        member && matches!(read, Expr::Path(_)) && self.taken_from_request(read, 1)
    }

    /// Whether a value is decoded from the request, directly or through locals taken from it
    /// (`let params_value = request.params.ok_or(..)?; let params: CallToolParams =
    /// serde_json::from_value(params_value)?`), up to a few locals deep. Closures' own
    /// bindings (`map_err(|e| ..)`) are not locals of the body.
    fn decoded_from_request(&self, value: &Expr, depth: usize) -> bool {
        struct Locals<'v>(Vec<&'v syn::Ident>);
        impl<'v> syn::visit::Visit<'v> for Locals<'v> {
            fn visit_expr_path(&mut self, p: &'v syn::ExprPath) {
                self.0.extend(p.path.get_ident());
            }
            fn visit_expr_closure(&mut self, _: &'v syn::ExprClosure) {}
            fn visit_item(&mut self, _: &'v syn::Item) {}
        }
        if self.names_request(value) {
            return true;
        }
        if depth >= 4 {
            return false;
        }
        let mut locals = Locals(Vec::new());
        syn::visit::Visit::visit_expr(&mut locals, value);
        locals.0.into_iter().any(|local| {
            self.lets
                .get(&local.to_string())
                .is_some_and(|init| self.decoded_from_request(init, depth + 1))
        })
    }

    fn names_request(&self, e: &Expr) -> bool {
        self.request_params
            .iter()
            .any(|p| super::failure::names_local(e, p))
    }

    /// The requested tool's name read out of the request: `params.name`, `params["name"]`,
    /// `params.get("name")` (through adapters, and a `match` on it binding the value), where
    /// `params` is the request or a local taken from it; or a local holding such a name
    /// (`let tool_name_clone = tool_name;`), up to a few locals deep.
    fn requested_name(&self, value: &Expr, depth: usize) -> bool {
        if depth > 4 {
            return false;
        }
        // `request.name.to_string()`: a copy of the name is the name.
        let copied = crate::syntax::through_methods(value, &["to_string", "to_owned", "as_str"]);
        let value = match through_borrowing_calls(copied) {
            // `match params.get("name") { Some(Value::String(name)) => name.clone(), _ => .. }`
            Expr::Match(m) => &*m.expr,
            other => other,
        };
        if let Some(init) = self.let_init(value) {
            return self.requested_name(init, depth + 1);
        }
        let name_field = matches!(value, Expr::Field(f)
            if matches!(&f.member, syn::Member::Named(n) if n == "name"));
        (name_field || json_name_member(value)) && self.taken_from_request(value, depth)
    }

    /// Whether the value a read starts from is the request, or a local taken from it
    /// (`let params = &request["params"]`, `match request.get("params") { Some(p) => p, .. }`).
    fn taken_from_request(&self, read: &Expr, depth: usize) -> bool {
        if self.names_request(read) {
            return true;
        }
        let root = read_root(read);
        depth <= 4
            && matches!(root, Expr::Path(_))
            && self
                .let_init(root)
                .is_some_and(|init| self.taken_from_request(init, depth + 1))
    }

    /// Whether this code runs before a tool is picked: a dispatcher outside its tool arms, or
    /// a request handler's `tools/call` arm.
    pub(super) fn picking_tool(&self) -> bool {
        let in_arm = match &self.arm {
            None => false,
            Some(SiteContext::Tool { tools, .. }) if self.in_tool_call_arm => {
                tools.iter().all(|t| t == TOOL_CALL_ARM)
            }
            Some(_) => return false,
        };
        in_arm || self.body.kind == Some(HandlerKind::Dispatcher)
    }

    /// The receiver of `.map_err(..)`, when it calls crate fns all declared to return a
    /// `Result` (resolved as any call): a fix may `match` it with `Ok`/`Err` arms.
    pub(super) fn note_result_call(&mut self, receiver: &'a Expr) {
        let call = strip_await(receiver);
        let types = self.calls.types;
        let result = match self.call_target(call) {
            Some(Target::Fn(f)) => types.returns_result(f),
            Some(Target::Candidates(fs) | Target::Dispatch(fs)) => {
                !fs.is_empty() && fs.iter().all(|f| types.returns_result(*f))
            }
            _ => false,
        };
        // A call in a crate macro's expansion lives in the expander's arena, which ends with
        // the analysis: no fix reads it, and its address may be another node's later.
        if result && self.expanded_from.is_none() {
            self.facts.result_calls.push(call as *const Expr as usize);
        }
    }

    /// The crate body (or candidate bodies) a call target is.
    pub(super) fn callee(&self, target: Target) -> Option<Callee> {
        let dispatch = matches!(target, Target::Dispatch(_));
        match target {
            Target::Fn(f) => self.calls.body(f).map(Callee::Body),
            Target::Candidates(fs) | Target::Dispatch(fs) => {
                let bodies: Vec<BodyId> = fs.iter().filter_map(|f| self.calls.body(*f)).collect();
                // Candidates of a receiver whose type is unknown stay candidates even when
                // there is one: the package's only method of that name is a guess.
                match bodies.as_slice() {
                    [] => None,
                    [one] if dispatch => Some(Callee::Body(*one)),
                    _ if dispatch => Some(Callee::Dispatch(bodies)),
                    _ => Some(Callee::Candidates(bodies)),
                }
            }
            Target::Slot(ty, field) => Some(Callee::Slot(ty, field)),
            _ => None,
        }
    }

    /// What the signature of the crate fn an expression calls says; for candidates of an
    /// untyped receiver, what they all say (`None` when they disagree).
    pub(super) fn called_facts(&self, expr: &Expr) -> Option<FnFacts> {
        match self.call_target(expr)? {
            Target::Fn(f) => self.calls.fn_facts(f),
            Target::Candidates(fs) | Target::Dispatch(fs) => {
                let facts: Vec<FnFacts> =
                    fs.iter().filter_map(|f| self.calls.fn_facts(*f)).collect();
                let first = *facts.first()?;
                facts
                    .iter()
                    .all(|f| f.protocol == first.protocol && f.tool_error == first.tool_error)
                    .then_some(first)
            }
            _ => None,
        }
    }

    /// The crate fn an expression calls (`f(..)`, `x.m(..)`, through `.await`).
    pub(super) fn called_fn(&self, expr: &Expr) -> Option<FnKey> {
        match self.call_target(expr)? {
            Target::Fn(f) => Some(f),
            _ => None,
        }
    }

    /// `tool(lib, args)` with `let Some(tool) = tools.get(name) else { .. }` over a map whose
    /// values are a crate type (`tools: &HashMap<&str, ToolFn>`): any of the crate fns the crate
    /// registers as that type ([`CrateCalls::registered_fns_of`]).
    pub(super) fn registry_entry(&self, callee: &Expr) -> Option<Target> {
        let Expr::Path(p) = callee else { return None };
        p.path.get_ident()?;
        let init = crate::syntax::through_unwrapping(
            self.let_init(callee)?,
            &[
                "ok_or",
                "ok_or_else",
                "cloned",
                "copied",
                "expect",
                "unwrap",
            ],
        );
        let Expr::MethodCall(get) = init else {
            return None;
        };
        if get.method != "get" || get.args.len() != 1 {
            return None;
        }
        // The map's declared type: a parameter of this fn, or a field of a crate type.
        let (map_ty, module) = match strip_refs(&get.receiver) {
            Expr::Path(m) => {
                let name = m.path.get_ident()?;
                let ty = self.body.sig?.inputs.iter().find_map(|input| match input {
                    syn::FnArg::Typed(t)
                        if crate::syntax::pat_ident(&t.pat).is_some_and(|n| name == &n) =>
                    {
                        Some(&*t.ty)
                    }
                    _ => None,
                })?;
                (ty, self.body.scope?.module)
            }
            Expr::Field(f) => {
                let owner = self.resolver.type_of(&f.base, &self.locals)?;
                (
                    self.declared_field_type(f)?,
                    self.calls.defs.item(owner).module,
                )
            }
            _ => return None,
        };
        let value = crate::syntax::last_type_argument(map_ty)?;
        let item = crate::model::callgraph::named_type_item(self.calls.defs, module, value)?;
        let fns = self.calls.registered_fns_of(item);
        (!fns.is_empty()).then(|| Target::Dispatch(fns.to_vec()))
    }

    /// `reg.insert("x", boxed(tools::x))` where `tools::x` is one of the fns registered as the
    /// wrapper's declared type ([`CrateCalls::registered_fns_of`]): the path registered.
    pub(super) fn registry_insert(
        &self,
        mc: &'a syn::ExprMethodCall,
    ) -> Option<*const syn::ExprPath> {
        let (w, f) = crate::model::callgraph::registry_insert_paths(mc)?;
        let (Target::Fn(w), Target::Fn(f_key)) = (
            self.resolver.path_target(w, &self.locals),
            self.resolver.path_target(f, &self.locals),
        ) else {
            return None;
        };
        let ty = self.calls.declared_return_item(w)?;
        self.calls
            .registered_fns_of(ty)
            .contains(&f_key)
            .then_some(f as *const syn::ExprPath)
    }

    /// Where the call an expression makes goes (`f(..)`, `x.m(..)`, through `.await`).
    pub(super) fn call_target(&self, expr: &Expr) -> Option<Target> {
        self.resolver.call_target(expr, &self.locals)
    }

    /// An edge with the failure path at the call; `failing` is the operation whose error the
    /// callee receives (the receiver of `.map_err(helper)`, the operand of `?`).
    pub(super) fn push_edge(
        &mut self,
        callee: Callee,
        span: Span,
        failing: Option<&'a Expr>,
        texts: &[MessageText],
    ) {
        // Calls inside a macro expansion are not edges (yet): the reach carries tool context
        // through any call, also one whose caller turns the callee's error into an isError
        // result (`.map_err(CallToolError::new)?`), and the expansion of a dispatch macro
        // would make every such helper tool code.
        if self.expanded_from.is_some() && !self.in_tool_expansion() {
            return;
        }
        if let Some(cause) = failing {
            self.frames.push(Frame::failing(cause));
        }
        let path = self.path_facts(&proc_macro2::TokenStream::new(), texts);
        if failing.is_some() {
            self.frames.pop();
        }
        self.facts.calls.push(CallEdge {
            from: self.body.id,
            callee,
            span,
            // A failure of the request before a tool is picked is none of a tool's.
            context_override: match path.request_failure {
                true => Some(SiteContext::OtherHandler),
                false => self.arm.clone(),
            },
            path,
            args: Vec::new(),
            variant: None,
            arm_variant: self.variant.clone(),
            errors_of: None,
            result_args: Vec::new(),
            in_result_arm: self.result_arm,
            passes: None,
            error_dropped: false,
            error_passed_to: None,
            continues_dispatch: false,
            known_names: false,
            hands_error: false,
            closure_calls: Vec::new(),
            shown_args: Vec::new(),
        });
    }

    /// Whether `.map_err(path)` with a `from` / `into` path converts into the protocol error:
    /// the path names that type (`McpError::from`), or is the bare trait conversion
    /// (`Into::into`, `From::from`, `into`) in a fn whose error is the protocol error.
    pub(super) fn converts_into_protocol_error(&self, p: &syn::ExprPath) -> bool {
        let mut ty = p.path.clone();
        ty.segments.pop();
        ty.segments.pop_punct();
        let trait_or_bare = match ty.segments.last() {
            None => true,
            Some(seg) => ty.segments.len() == 1 && (seg.ident == "Into" || seg.ident == "From"),
        };
        if trait_or_bare {
            return self.body.returns.err == ErrChannel::Protocol;
        }
        let ty = syn::Type::Path(syn::TypePath {
            qself: p.qself.clone(),
            path: ty,
        });
        self.dialect.is_protocol_error_type(&ty)
    }

    /// Whether the fn is declared to return the protocol error itself (`-> McpError`), not a
    /// `Result`: a helper that builds one.
    pub(super) fn returns_protocol_error_value(&self) -> bool {
        match self.body.sig.map(|s| &s.output) {
            Some(syn::ReturnType::Type(_, ty)) => self.dialect.is_protocol_error_type(ty),
            _ => false,
        }
    }

    /// A conversion of `operand`'s error through the crate's `From` impls (`?`,
    /// `.map_err(McpError::from)`), with the operand's error type and the fn whose error it is.
    pub(super) fn conversion_edge(&mut self, operand: &'a Expr, span: Span) {
        // `self.echo(t).await.map_err(ErrorData::from)` where `echo` never fails: no conversion.
        if self.never_fails(operand) {
            return;
        }
        let source = self.operand_error_type(operand);
        let replacing =
            matches!(&source, ErrorSource::Local(ty, _) if self.conversion_replaces(*ty));
        self.push_edge(Callee::FromImpls(source), span, Some(operand), &[]);
        let errors_of = self.errors_of(operand);
        if let Some(edge) = self.facts.calls.last_mut() {
            edge.errors_of = errors_of;
        }
        // `self.read(p).await.map_err(AppError::Mcp).map_err(ErrorData::from)` with a `From`
        // that builds a fresh protocol error of its own code: `read`'s own error goes nowhere.
        if replacing {
            let root = crate::syntax::through_methods(operand, &["map_err"]);
            self.settle_error_of(root, &[super::failure::ErrAnswer::Answered]);
        }
    }

    /// Whether the crate's `From<ty>` conversion into the protocol error is one SDK
    /// construction with a code of its own (`ErrorData::internal_error(err.to_string(), None)`),
    /// whatever the value converted: it replaces an error the value wraps.
    fn conversion_replaces(&self, ty: ItemId) -> bool {
        let [from] = self.calls.from_fns_of(ty)[..] else {
            return false;
        };
        let Some((block, ..)) = self.calls.blocks.get(&from) else {
            return false;
        };
        let [syn::Stmt::Expr(Expr::Call(call), None)] = &block.stmts[..] else {
            return false;
        };
        matches!(
            self.dialect
                .construction_of_call(call, self.index, &self.returns()),
            Some(Construction::ProtocolError { code: Some(_), .. })
        )
    }

    /// The last edge maps the error of `value` point-free (`.map_err(helper)`): it passes the
    /// error values `value` can hold, when every branch of it tells.
    pub(super) fn edge_passes_errors_of(&mut self, value: &'a Expr) {
        let mut leaves = Vec::new();
        value_leaves(value, &mut leaves, 0);
        let mut passed = PassedErrors::default();
        for leaf in leaves {
            match strip_await(leaf) {
                e if crate::syntax::is_ok_call(e) => {}
                Expr::Call(c)
                    if c.args.len() == 1
                        && matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Err")) =>
                {
                    match self.error_variant_of(&c.args[0]) {
                        Some(v) => passed.variants.push(v),
                        None => return,
                    }
                }
                other => match self.errors_of(other) {
                    Some(b) => passed.through.push(b),
                    None => return,
                },
            }
        }
        if let Some(edge) = self.facts.calls.last_mut() {
            edge.passes = Some(passed);
        }
    }

    /// `?` in a body whose error type is the protocol error: unless the operand already builds
    /// that type, the crate's `impl From<X> for` it does the conversion.
    pub(super) fn try_operand(&mut self, t: &'a syn::ExprTry) {
        let operand = strip_await(&t.expr);
        if self.body.returns.catches_protocol_error && self.closures.is_empty() {
            return self.caught_conversion_edge(operand, self.file.span_of(t));
        }
        if self.body.returns.err != ErrChannel::Protocol {
            return;
        }
        // `spawn_blocking(move || { repo.head()?; .. })`: the `?` returns from the closure, into
        // the error type it states (`-> anyhow::Result<_>`) or one the source does not tell.
        if let Some(closure_error) = self.closures.last() {
            let body_error = self
                .body
                .sig
                .and_then(|sig| crate::syntax::output_error_name(&sig.output));
            if closure_error.is_none() || closure_error != &body_error {
                return;
            }
        }
        // `x.map_err(McpError::from)?`: the conversion is the `map_err`'s (one edge there); the
        // `?` passes the protocol error on as it is.
        // (`rows.iter().map(|r| Ok(Row { .. })).collect::<Result<_, _>>()?` never fails.)
        if converted_by_path(operand).is_some_and(|p| self.converts_into_protocol_error(p))
            || collects_only_ok(operand)
        {
            return;
        }
        let tool_error = self.operand_error_is_tool_error(operand);
        let source = self.operand_error_type(operand);
        // `required(args, "query")?` in a fn failing with the same crate type: passed on as it
        // is (`From<T> for T`), no conversion.
        if matches!(source, ErrorSource::Local(t, _) if Some(t) == self.declared_error_type()) {
            return;
        }
        // A crate error value (`.map_err(|_| AppError::Busy)`) is converted by `From`.
        let crate_error = matches!(source, ErrorSource::Local(..));
        if !tool_error
            && !crate_error
            && (explicit_conversion(operand, self.dialect, self.index, &self.body.returns)
                || self.dialect.is_sdk_fallible_call(operand)
                || self.returns_protocol_error(operand))
        {
            return;
        }
        let span = self.file.span_of(t);
        let meaning = match self.dialect.try_meaning(&self.body.returns, tool_error) {
            // Only the crate itself can write `From<its own error> for` the SDK's error (the
            // orphan rule), so the SDK's own conversions never take a crate error value.
            // (jsoncall's blanket `impl<E: Error> From<E>` takes them when the crate has no
            // conversion of its own, which coherence forbids beside it.)
            TryMeaning::Protocol(_)
                if crate_error && !tool_error && !self.sdk_converts_crate_error(&source) =>
            {
                TryMeaning::FromImpls
            }
            // turbomcp 2.x's `From<serde_json::Error>`: -32602, not its other errors' -32002.
            TryMeaning::Protocol(code) => match &source {
                ErrorSource::External(name) => {
                    TryMeaning::Protocol(self.dialect.question_mark_code_of(name).unwrap_or(code))
                }
                _ => TryMeaning::Protocol(code),
            },
            meaning => meaning,
        };
        match meaning {
            TryMeaning::Nothing => {}
            TryMeaning::FromImpls => self.conversion_edge(operand, span),
            // The SDK's own conversion: the `?` is where the protocol error is made.
            TryMeaning::Protocol(code) => {
                self.sdk_conversion_site(t, span, Some(operand), code, Origin::QuestionMark)
            }
        }
    }

    /// `?` on a crate error in a tool whose protocol error the SDK answers as an isError
    /// result: the crate's `From` runs, but what it builds is not sent as a protocol error. The
    /// edge counts as a use outside tool context, so a conversion that an uncaught tool also
    /// reaches is judged at that tool's calls, not in its arms.
    fn caught_conversion_edge(&mut self, operand: &'a Expr, span: Span) {
        if !matches!(self.operand_error_type(operand), ErrorSource::Local(..)) {
            return;
        }
        let edges = self.facts.calls.len();
        self.conversion_edge(operand, span);
        for edge in &mut self.facts.calls[edges..] {
            edge.context_override = Some(SiteContext::OtherHandler);
        }
    }

    /// A protocol error of `code` that the SDK's own `From` makes of an error value at `node`
    /// (a `?`, an `Err(e.into())`), failing because `cause` did.
    pub(super) fn sdk_conversion_site(
        &mut self,
        node: &dyn quote::ToTokens,
        span: Span,
        cause: Option<&'a Expr>,
        code: i64,
        origin: Origin,
    ) {
        let content = ContentFacts {
            empty: false,
            texts: vec![MessageText::Opaque],
        };
        match cause {
            Some(cause) => self.with_frame(Frame::failing(cause), |w| {
                w.add_site(node, span, Channel::Protocol, Some(code), content, origin)
            }),
            None => self.add_site(node, span, Channel::Protocol, Some(code), content, origin),
        }
    }

    /// Whether the SDK's own `From` converts this crate error: it converts every crate error
    /// type (see `Dialect::converts_crate_errors`) and the crate writes no `From` of its own.
    pub(super) fn sdk_converts_crate_error(&self, source: &ErrorSource) -> bool {
        match source {
            ErrorSource::Local(ty, _) => {
                self.dialect.converts_crate_errors() && self.calls.from_fns_of(*ty).is_empty()
            }
            _ => false,
        }
    }

    /// Whether a written type is the SDK's per-request context (`Context`, `&RequestContext`),
    /// by what its path resolves to.
    pub(super) fn is_request_context_type(&self, ty: &syn::Type) -> bool {
        let ty = match ty {
            syn::Type::Reference(r) => &*r.elem,
            other => other,
        };
        // `parts: Option<&Parts>`: the request's value, when there is one.
        if let Some(inner) = crate::syntax::option_inner(ty) {
            return self.is_request_context_type(inner);
        }
        let (syn::Type::Path(p), Some(scope)) = (ty, self.body.scope) else {
            return false;
        };
        match self
            .calls
            .defs
            .resolve_path(scope.module, &p.path, Ns::Types)
        {
            Some(Def::External(path)) => self.dialect.is_request_context_type(&path),
            _ => false,
        }
    }

    /// A method call on the SDK's request context (`ctx.set(..).await`, `ctx.request.tenant()`,
    /// `peer.sample(..)` on a peer the context handed out): what it does is the server's own
    /// work (logging, progress, its request state, a round trip to the client), so its failure
    /// is not the tool's whatever the tool was asked; so is a crate fn's that gets nothing but
    /// the context (`answered_city(&extra)`). A context method that checks a value the tool
    /// passes in is the exception ([`Dialect::request_context_checks_argument`]).
    pub(super) fn calls_request_context(&self, expr: &Expr) -> bool {
        match strip_await(expr) {
            Expr::MethodCall(mc) if self.is_request_context(&mc.receiver) => !self
                .dialect
                .request_context_checks_argument(&mc.method.to_string()),
            // `ctx.peer.create_message(p).await.map(serde_json::to_value)`: `map` changes the
            // value, never the error.
            Expr::MethodCall(mc)
                if mc.method == "map" && self.calls_request_context(&mc.receiver) =>
            {
                true
            }
            // A local the `let` took from one of several values, all the request's
            // (`let (result, what) = match ask { A => (ctx.peer.x(..).await, ".."), .. }`).
            // (A candidate may name a local of the same name again: a few levels only.)
            Expr::Path(_) if self.let_init(expr).is_none() && self.candidate_depth.get() < 4 => {
                let Some(values) = self.let_candidates(expr) else {
                    return false;
                };
                self.candidate_depth.set(self.candidate_depth.get() + 1);
                let all = values.iter().all(|v| self.calls_request_context(v));
                self.candidate_depth.set(self.candidate_depth.get() - 1);
                all
            }
            // `on_request_extensions(&ctx.extensions).and_then(|e| e.get::<Claims>())`: an
            // `Option`/`Result` adapter over the request's value stays the request's.
            Expr::MethodCall(mc)
                if is_adapter(&mc.method.to_string())
                    && mc.args.iter().all(stays_on_closure_param)
                    && self.calls_request_context(&mc.receiver) =>
            {
                true
            }
            // `match presented { None => .. }` on a local the request's value was bound to.
            Expr::Path(_) if self.is_request_context(expr) => true,
            // `claims.role == "admin"`: a test of what the request carries.
            Expr::Binary(b) if is_comparison(&b.op) => {
                let side = |e: &Expr| {
                    let e = through_borrowing_calls(e);
                    self.is_request_context(e) || self.calls_request_context(e)
                };
                (side(&b.left) || side(&b.right))
                    && [&*b.left, &*b.right]
                        .iter()
                        .all(|e| side(e) || matches!(strip_refs(e), Expr::Lit(_)))
            }
            // `self.auth.authenticate(extra.auth_info.as_ref())`: the server's own state checking
            // what the request carries.
            Expr::MethodCall(mc) => {
                is_self_rooted(&mc.receiver) && self.only_request_arguments(mc.args.iter())
            }
            Expr::Call(c) => {
                matches!(&*c.func, Expr::Path(_)) && self.only_request_arguments(c.args.iter())
            }
            _ => false,
        }
    }

    /// The edge pushed at `edge` (if any) of a call given nothing but the request context and
    /// the server's own state (`self.callers.identify(&context)`, `claims_of(&ctx.extensions)`):
    /// it fails on the request (its credentials, its session) whichever handler asks, never on
    /// a tool's arguments or work, so no tool's context reaches the callee through it.
    /// In a `"tools/call"` route before any tool is picked, a call given nothing at all
    /// (`self.require_initialized()`) checks the server's own state: no tool's either.
    pub(super) fn request_only_call<'e>(
        &mut self,
        edge: usize,
        args: impl ExactSizeIterator<Item = &'e Expr>,
    ) {
        let state_check =
            args.len() == 0 && self.arm.as_ref().is_some_and(SiteContext::is_tool_call_arm);
        if self.facts.calls.len() > edge && (state_check || self.only_request_arguments(args)) {
            self.facts.calls[edge].context_override = Some(SiteContext::OtherHandler);
        }
    }

    /// At least one argument the request context (through borrowing calls:
    /// `extra.auth_info.as_ref()`), and each other a literal or the server's own state
    /// (`guard_depth(state.depth, self.max_depth)`).
    fn only_request_arguments<'e>(&self, mut args: impl Iterator<Item = &'e Expr>) -> bool {
        let mut any = false;
        args.all(|a| {
            let a = through_borrowing_calls(a);
            let request = self.is_request_context(a);
            any |= request;
            request || matches!(a, Expr::Lit(_)) || is_self_rooted(a)
        }) && any
    }

    /// The request context, a field of it (`ctx.request`), or a local bound from one of its
    /// methods (`let peer = extra.peer().ok_or_else(..)?`).
    pub(super) fn is_request_context(&self, expr: &Expr) -> bool {
        match strip_refs(expr) {
            Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|id| self.request_contexts.iter().any(|c| id == c)),
            Expr::Field(f) => self.is_request_context(&f.base),
            _ => false,
        }
    }

    /// `if let Some(claims) = on_request_extensions(&ctx.extensions)`: what the pattern binds
    /// from the request's value is the request's. Returns how many names it added, for the
    /// caller to drop at the end of their scope.
    pub(super) fn bind_request_pattern(&mut self, pat: &Pat, scrutinee: &Expr) {
        if let Some(name) = value_binding(pat).filter(|_| self.reads_request_value(scrutinee)) {
            self.request_contexts.push(name);
        }
    }

    /// A value the request carries: the context or a field of it, what its methods hand out,
    /// an adapter over that, or a fn given only the context (`claims_of(&ctx.extensions)`).
    /// Not what the server's own state answers about it (`self.plans.get(tenant)`).
    fn reads_request_value(&self, expr: &Expr) -> bool {
        match strip_await(expr) {
            Expr::Try(t) => self.reads_request_value(&t.expr),
            Expr::MethodCall(mc) if self.is_request_context(&mc.receiver) => true,
            Expr::MethodCall(mc) => {
                is_adapter(&mc.method.to_string())
                    && mc.args.iter().all(stays_on_closure_param)
                    && self.reads_request_value(&mc.receiver)
            }
            Expr::Call(c) => {
                matches!(&*c.func, Expr::Path(_)) && self.only_request_arguments(c.args.iter())
            }
            other => self.is_request_context(through_borrowing_calls(other)),
        }
    }

    /// `let peer = extra.peer().ok_or_else(..)?`: a value the request context hands out through
    /// its methods is the request's too. Any other binding of the name ends that.
    pub(super) fn bind_request_context(&mut self, local: &syn::Local) {
        // `let Some(parts) = ctx.extensions.get::<Parts>() else { .. }` binds the value too.
        let name = pat_ident(&local.pat).or_else(|| value_binding(&local.pat));
        let Some(name) = name else {
            return;
        };
        let mut from = local.init.as_ref().map(|i| &*i.expr);
        let mut through_method = false;
        while let Some(e) = from {
            from = match e {
                Expr::Try(t) => Some(&*t.expr),
                Expr::Await(a) => Some(&*a.base),
                Expr::MethodCall(mc) => {
                    through_method = true;
                    Some(&*mc.receiver)
                }
                _ => break,
            };
        }
        // `let state = read_guard_state(&extra).map_err(..)?`: a crate fn's answer on the context.
        let handed_out = from.is_some_and(|root| {
            (through_method && self.is_request_context(root)) || self.calls_request_context(root)
        });
        self.request_contexts.retain(|c| *c != name);
        if handed_out {
            self.request_contexts.push(name);
        }
    }

    /// `.map_err(CallToolError::new)`, or a crate fn declared to return the SDK's tool error
    /// type: `?` then goes through the SDK's conversion of that type.
    pub(super) fn operand_error_is_tool_error(&self, operand: &Expr) -> bool {
        match operand {
            Expr::MethodCall(mc) if mc.method == "map_err" => self.maps_to_tool_error(mc),
            _ => self.called_facts(operand).is_some_and(|f| f.tool_error),
        }
    }

    /// `.map_err(CallToolError::new)`, `.map_err(|e| CallToolError::new(e))`: the error becomes
    /// the SDK's tool error, an isError answer, whatever it was.
    pub(super) fn maps_to_tool_error(&self, map_err: &syn::ExprMethodCall) -> bool {
        let ctor = match map_err.args.first() {
            Some(Expr::Path(p)) => &p.path,
            Some(Expr::Closure(c)) => match crate::syntax::tail_expr(&c.body) {
                Expr::Call(call) => match &*call.func {
                    Expr::Path(p) => &p.path,
                    _ => return false,
                },
                _ => return false,
            },
            _ => return false,
        };
        let segs = path_segments(ctor);
        segs.len() >= 2 && self.dialect.is_tool_error_type_name(&segs[segs.len() - 2])
    }

    /// A call to a crate fn declared to return the protocol error type.
    pub(super) fn returns_protocol_error(&self, expr: &Expr) -> bool {
        self.called_facts(expr).is_some_and(|f| f.protocol)
    }

    /// Which variants of crate enum `e` reach an arm whose pattern is `pat`: the ones it names,
    /// or, for a catch-all, the ones no other arm names.
    pub(super) fn variant_tag(
        &self,
        e: ItemId,
        pat: &Pat,
        arms: &[syn::Arm],
    ) -> Option<VariantTag> {
        let named = |p: &Pat| -> Vec<String> {
            let mut out = Vec::new();
            let mut cases = vec![p];
            while let Some(p) = cases.pop() {
                match p {
                    Pat::Or(o) => cases.extend(o.cases.iter()),
                    // `e @ AppError::Locked(_)`, `e @ (A | B)`.
                    Pat::Ident(syn::PatIdent {
                        subpat: Some((_, sub)),
                        ..
                    }) => cases.push(sub),
                    Pat::Paren(inner) => cases.push(&inner.pat),
                    _ => {}
                }
                let path = crate::syntax::pat_path(p);
                if let Some(last) = path.and_then(|p| p.segments.last()) {
                    out.push(last.ident.to_string());
                }
            }
            out
        };
        if !matches!(self.calls.defs.item(e).syntax, syn::Item::Enum(_)) {
            return None;
        }
        let own = named(pat);
        if !own.is_empty() {
            return Some(VariantTag::Is(e, own));
        }
        let catch_all =
            matches!(pat, Pat::Wild(_)) || matches!(pat, Pat::Ident(i) if i.subpat.is_none());
        if !catch_all {
            return None;
        }
        let others: Vec<String> = arms.iter().flat_map(|a| named(&a.pat)).collect();
        Some(VariantTag::Otherwise(e, others))
    }

    /// `if callers_fault { .. } else { .. }` where `let callers_fault = match &err {
    /// Error::NotFound(_) | Error::File(_) => true, _ => false }` over a crate enum: the variants
    /// that reach each branch (an arm whose value is not a literal, or has a guard, reaches both).
    pub(super) fn flag_variant_tags(&self, cond: &Expr) -> Option<(VariantTag, VariantTag)> {
        let (flag, negated) = match strip_parens(cond) {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => (&*u.expr, true),
            other => (other, false),
        };
        let Some(Expr::Match(m)) = self.let_init(flag) else {
            return None;
        };
        let e = self.resolver.type_of(&m.expr, &self.locals)?;
        let mut named: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        // Per value (false, true): whether a catch-all arm may give it.
        let mut otherwise = [false, false];
        let mut has_catch_all = false;
        for arm in &m.arms {
            let value = match (&arm.guard, tail_expr(&arm.body)) {
                (
                    None,
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Bool(b),
                        ..
                    }),
                ) => Some(b.value),
                _ => None,
            };
            let takes = |v: bool| value.is_none_or(|x| x == v);
            match self.variant_tag(e, &arm.pat, &m.arms)? {
                VariantTag::Is(_, own) => {
                    for v in [false, true] {
                        if takes(v) {
                            named[usize::from(v)].extend(own.iter().cloned());
                        }
                    }
                }
                VariantTag::Otherwise(..) => {
                    has_catch_all = true;
                    for v in [false, true] {
                        otherwise[usize::from(v)] |= takes(v);
                    }
                }
            }
        }
        // The variants that can give `v`: those named for it, and the catch-all's when it can.
        let tag = |v: bool| -> VariantTag {
            let i = usize::from(v);
            if has_catch_all && otherwise[i] {
                // Every variant but those only named for the other value.
                let only_other = named[1 - i]
                    .iter()
                    .filter(|n| !named[i].contains(n))
                    .cloned()
                    .collect();
                VariantTag::Otherwise(e, only_other)
            } else {
                VariantTag::Is(e, named[i].clone())
            }
        };
        Some((tag(!negated), tag(negated)))
    }

    /// The error type of what `?` (or `.map_err(From::from)`) converts: the error type the
    /// called crate fn declares (`fn load_zone(..) -> Result<_, ZoneError>`), the variant a
    /// `.map_err(|_| AppError::X)` builds, else unknown.
    pub(super) fn operand_error_type(&self, operand: &Expr) -> ErrorSource {
        let operand = strip_await(operand);
        // `tokio::try_join!(a, b)?`: fails with the joined futures' error (one type for all).
        if let Expr::Macro(m) = operand {
            if crate::syntax::last_segment(&m.mac.path).as_deref() == Some("try_join") {
                if let Some(first) = self.macros.parsed(&m.mac).and_then(|args| args.first()) {
                    return self.operand_error_type(first);
                }
            }
        }
        if let Expr::MethodCall(mc) = operand {
            if mc.method == "map_err" || mc.method == "ok_or" || mc.method == "ok_or_else" {
                let value = match mc.args.first() {
                    Some(Expr::Closure(c)) => Some(tail_expr(&c.body)),
                    // `.map_err(AppError::Io)`: the variant's constructor, point-free.
                    Some(arg @ Expr::Path(p)) if mc.method == "map_err" => {
                        match self.resolver.path_target(p, &self.locals) {
                            Target::Variant(e, v) => return ErrorSource::Local(e, Some(v)),
                            // `.map_err(classify)` with `fn classify(e: DbError) -> NoteError`:
                            // the crate type the mapper returns, as `|e| classify(e)` would.
                            Target::Fn(f) => {
                                if let Some(id) = self.calls.types.return_type(self.calls.defs, f) {
                                    return ErrorSource::Local(id, None);
                                }
                            }
                            _ => {}
                        }
                        // `.map_err(DocError::from)`: the crate type the conversion names, in
                        // the variant whose `#[from]` field takes the receiver's error.
                        if let Some(ty) = self.conversion_target(p) {
                            let inner = self.operand_error_type(&mc.receiver);
                            return ErrorSource::Local(ty, self.variant_wrapping(ty, &inner));
                        }
                        // `let file_error = |e| Error::File(..); .. .map_err(file_error)?`.
                        match self.let_init(arg) {
                            Some(Expr::Closure(c)) => Some(tail_expr(&c.body)),
                            _ => None,
                        }
                    }
                    Some(other) if mc.method == "ok_or" => Some(other),
                    _ => None,
                };
                if let Some(v) = value {
                    return self.error_value_source(v);
                }
            }
        }
        let Some(f) = self.called_fn(operand) else {
            return self
                .external_call_error(operand)
                .map_or(ErrorSource::Unknown, |e| {
                    ErrorSource::External(e.to_string())
                });
        };
        let Some(scope) = self.calls.types.scope_of(f) else {
            return ErrorSource::Unknown;
        };
        // SAFETY of the deref: `FnKey`s point into syntax trees that outlive the analysis.
        let sig = unsafe { &*f };
        let syn::ReturnType::Type(_, ty) = &sig.output else {
            return ErrorSource::Unknown;
        };
        let ty = unwrap_future(ty);
        let Some((err, module)) = declared_result_error(self.calls.defs, scope.module, ty) else {
            // `-> io::Result<String>`.
            return match external_error_name(self.calls.defs, scope.module, ty) {
                Some(name) if name == "std::io::Error" => ErrorSource::External(name),
                _ => ErrorSource::Unknown,
            };
        };
        let self_ty = self.calls.types.self_type(scope);
        match resolve_type_item(self.calls.defs, module, err, self_ty) {
            Some(id) => ErrorSource::Local(id, None),
            None => external_error_name(self.calls.defs, module, err)
                .map_or(ErrorSource::Unknown, ErrorSource::External),
        }
    }

    /// The error type of a call into std's or serde_json's fallible fns, by the path name
    /// resolution finds for it (`fs::read_to_string(path)` fails with `std::io::Error`,
    /// `serde_json::from_str(..)` with `serde_json::Error`), through `.await`.
    fn external_call_error(&self, call: &Expr) -> Option<&'static str> {
        let path = self.external_fn(strip_await(call))?;
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        match path[..] {
            ["std" | "tokio", "fs", ..] => Some("std::io::Error"),
            ["serde_json", "from_str" | "from_slice" | "from_value" | "from_reader" | "to_string"
            | "to_string_pretty" | "to_vec" | "to_vec_pretty" | "to_value" | "to_writer"] => {
                Some("serde_json::Error")
            }
            _ => None,
        }
    }

    /// `T` of a `T::from` path, when `T` is a crate type.
    fn conversion_target(&self, p: &syn::ExprPath) -> Option<ItemId> {
        self.resolver
            .type_item(&crate::syntax::assoc_fn_owner(&p.path, "from")?)
    }

    /// The variant of crate enum `ty` whose `#[from]` field takes errors of `source`
    /// (`Upstream(#[from] UpstreamError)`), when exactly one does.
    pub(super) fn variant_wrapping(&self, ty: ItemId, source: &ErrorSource) -> Option<String> {
        let item = self.calls.defs.item(ty);
        let syn::Item::Enum(e) = item.syntax else {
            return None;
        };
        let takes = |field_ty: &syn::Type| match source {
            ErrorSource::Local(id, _) => {
                resolve_type_item(self.calls.defs, item.module, field_ty, None) == Some(*id)
            }
            ErrorSource::External(name) => {
                resolve_type_item(self.calls.defs, item.module, field_ty, None).is_none()
                    && external_error_name(self.calls.defs, item.module, field_ty).as_deref()
                        == Some(name.as_str())
            }
            ErrorSource::Unknown => false,
        };
        let mut found = e.variants.iter().filter(|v| {
            v.fields
                .iter()
                .any(|f| f.attrs.iter().any(|a| a.path().is_ident("from")) && takes(&f.ty))
        });
        match (found.next(), found.next()) {
            (Some(v), None) => Some(v.ident.to_string()),
            _ => None,
        }
    }

    /// The error type of a value given to `Err(..)` / `.into()` / `From::from(..)`.
    pub(super) fn error_value_source(&self, value: &Expr) -> ErrorSource {
        let value = converted_value(value);
        if let Some((e, v)) = self.error_variant_of(value) {
            return ErrorSource::Local(e, Some(v));
        }
        match self.resolver.type_of(value, &self.locals) {
            Some(id) => ErrorSource::Local(id, None),
            None => ErrorSource::Unknown,
        }
    }
}

/// What `e.into()` / `McpError::from(e)` converts (`e`); any other expression itself.
pub(super) fn converted_value(value: &Expr) -> &Expr {
    match value {
        Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() => &m.receiver,
        Expr::Call(c) if c.args.len() == 1 && is_from_conversion(value) => &c.args[0],
        other => other,
    }
}

/// `e.into()`, `McpError::from(e)`, `From::from(e)`.
pub(super) fn is_from_conversion(expr: &Expr) -> bool {
    match expr {
        Expr::MethodCall(m) => m.method == "into" && m.args.is_empty(),
        Expr::Call(c) => {
            c.args.len() == 1
                && matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "from"))
        }
        _ => false,
    }
}

/// `x.map_err(T::from)` / `.map_err(Into::into)`: the path the error is converted by.
fn converted_by_path(operand: &Expr) -> Option<&syn::ExprPath> {
    let Expr::MethodCall(mc) = operand else {
        return None;
    };
    match mc.args.first() {
        Some(Expr::Path(p))
            if mc.method == "map_err"
                && matches!(
                    last_segment(&p.path).as_deref(),
                    Some("from") | Some("into")
                ) =>
        {
            Some(p)
        }
        _ => None,
    }
}

/// `.map_err(|e| McpError::..)` / `.ok_or(McpError::..)` / `.ok_or_else(|| ..)`: an explicit
/// construction of the error type, so `?` converts nothing.
pub(super) fn explicit_conversion(
    expr: &Expr,
    dialect: &dyn Dialect,
    index: &Index<'_>,
    returns: &ReturnFacts,
) -> bool {
    let Expr::MethodCall(mc) = expr else {
        return false;
    };
    let method = mc.method.to_string();
    if !matches!(
        method.as_str(),
        "map_err" | "ok_or" | "ok_or_else" | "or_else"
    ) {
        return false;
    }
    let Some(arg) = mc.args.first() else {
        return false;
    };
    let value = match arg {
        Expr::Closure(c) => tail_expr(&c.body),
        // A helper fn: its own body is linted through the call map.
        Expr::Path(p) => {
            let last = last_segment(&p.path);
            return !matches!(last.as_deref(), Some("from") | Some("into"));
        }
        other => other,
    };
    match value {
        Expr::Call(c) => {
            dialect.construction_of_call(c, index, returns).is_some()
                || !matches!(&*c.func, Expr::Path(p) if p.path.segments.len() >= 2 && index.local_types.contains(&p.path.segments[p.path.segments.len() - 2].ident.to_string()))
        }
        Expr::Struct(s) => dialect.construction_of_struct(s, index).is_some(),
        // `.map_err(|e| anyhow!("..: {e}"))`: another crate's error value, which the `?`
        // still has to convert.
        Expr::Macro(m) => !matches!(
            last_segment(&m.mac.path).as_deref(),
            Some("anyhow" | "eyre")
        ),
        _ => true,
    }
}

/// The leaves of the value an expression evaluates to (block tails, both branches of an `if`,
/// every arm of a `match`), diverging ones left out.
pub(super) fn value_leaves<'e>(expr: &'e Expr, out: &mut Vec<&'e Expr>, depth: usize) {
    if depth > 64 {
        return out.push(expr);
    }
    // A block's value: its tail, nothing when it leaves early (`return ..;`), else unknown.
    let block = |b: &'e syn::Block, out: &mut Vec<&'e Expr>| match b.stmts.last() {
        Some(syn::Stmt::Expr(e, None)) => value_leaves(e, out, depth + 1),
        Some(syn::Stmt::Expr(Expr::Return(_) | Expr::Break(_) | Expr::Continue(_), Some(_))) => {}
        Some(syn::Stmt::Macro(m)) if super::returns::diverges(&m.mac) => {}
        _ => out.push(expr),
    };
    match expr {
        Expr::Block(b) => block(&b.block, out),
        Expr::Paren(p) => value_leaves(&p.expr, out, depth + 1),
        Expr::Group(g) => value_leaves(&g.expr, out, depth + 1),
        Expr::If(i) => {
            block(&i.then_branch, out);
            match &i.else_branch {
                Some((_, e)) => value_leaves(e, out, depth + 1),
                None => out.push(expr),
            }
        }
        Expr::Match(m) => {
            for arm in &m.arms {
                value_leaves(&arm.body, out, depth + 1);
            }
        }
        Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => {}
        other => out.push(other),
    }
}

/// `self`, or a field path on it (`self.auth_middleware`).
pub(super) fn is_self_rooted(expr: &Expr) -> bool {
    match strip_refs(expr) {
        Expr::Path(p) => p.path.is_ident("self"),
        Expr::Field(f) => is_self_rooted(&f.base),
        _ => false,
    }
}

/// `Ok(..)` (`true`) or `Err(..)` (`false`), written at the call.
fn result_literal(arg: &Expr) -> Option<bool> {
    let Expr::Call(c) = strip_refs(arg) else {
        return None;
    };
    let Expr::Path(p) = &*c.func else {
        return None;
    };
    match p.path.get_ident()?.to_string().as_str() {
        "Ok" => Some(true),
        "Err" => Some(false),
        _ => None,
    }
}

/// `Option`/`Result` adapters that keep the value they are called on (`and_then`, `ok`, `get`).
fn is_adapter(method: &str) -> bool {
    matches!(
        method,
        "and_then"
            | "map"
            | "ok"
            | "flatten"
            | "filter"
            | "get"
            | "to_str"
            | "as_str"
            | "as_ref"
            | "as_deref"
            | "cloned"
            | "copied"
            | "clone"
    )
}

fn is_comparison(op: &syn::BinOp) -> bool {
    use syn::BinOp::{Eq, Ge, Gt, Le, Lt, Ne};
    matches!(op, Eq(_) | Ne(_) | Lt(_) | Le(_) | Gt(_) | Ge(_))
}

/// An adapter's argument that works only on the value it is given: a literal, or a closure
/// whose body is a chain of calls and fields on its own parameter (`|e| e.get::<Claims>()`,
/// `|v| v.to_str().ok()`) with literal arguments.
fn stays_on_closure_param(arg: &Expr) -> bool {
    fn rooted_at(e: &Expr, param: &str) -> bool {
        match strip_await(e) {
            Expr::Path(p) => p.path.is_ident(param),
            // `p.headers.get(AUTHORIZATION)`: literals and constants (SCREAMING_CASE by Rust's
            // naming) are the server's own, not the request's.
            Expr::MethodCall(mc) => {
                mc.args.iter().all(|a| {
                    let a = strip_refs(a);
                    matches!(a, Expr::Lit(_)) || crate::syntax::is_const_path(a)
                }) && rooted_at(&mc.receiver, param)
            }
            Expr::Field(f) => rooted_at(&f.base, param),
            Expr::Reference(r) => rooted_at(&r.expr, param),
            Expr::Unary(u) => rooted_at(&u.expr, param),
            Expr::Paren(p) => rooted_at(&p.expr, param),
            Expr::Try(t) => rooted_at(&t.expr, param),
            _ => false,
        }
    }
    match arg {
        Expr::Lit(_) => true,
        // `.map(str::trim)`: a method path applied to the value alone.
        Expr::Path(p) => p.path.segments.len() >= 2,
        Expr::Closure(c) => match (c.inputs.len(), c.inputs.first().and_then(pat_ident)) {
            (1, Some(param)) => rooted_at(&c.body, &param),
            _ => false,
        },
        _ => false,
    }
}

impl<'a> Walker<'a, '_> {
    /// `(self.handler)(args)`: a call of a closure stored in a Fn-typed field of a crate struct
    /// that a constructor fills from its parameter.
    pub(super) fn slot_target(&self, func: &Expr) -> Option<Target> {
        let mut func = func;
        while let Expr::Paren(p) = func {
            func = &p.expr;
        }
        let Expr::Field(f) = func else { return None };
        let syn::Member::Named(name) = &f.member else {
            return None;
        };
        let ty = self.resolver.type_of(&f.base, &self.locals)?;
        let name = name.to_string();
        self.calls
            .types
            .is_closure_slot(ty, &name)
            .then_some(Target::Slot(ty, name))
    }

    /// The closures a call to a crate constructor hands it to store in a Fn-typed field
    /// (`RuchyMCPTool::new(name, desc, move |args| ..)`), by argument index (receiver not
    /// counted), with that field.
    pub(super) fn slot_closures<'x>(
        &self,
        target: &Target,
        args: impl Iterator<Item = &'x Expr>,
    ) -> Vec<(usize, (ItemId, String))> {
        let Target::Fn(f) = target else {
            return Vec::new();
        };
        args.enumerate()
            .filter(|(_, a)| matches!(a, Expr::Closure(_)))
            .filter_map(|(i, _)| Some((i, self.calls.types.closure_slot(*f, i)?.clone())))
            .collect()
    }
}

/// The name `Some(x)` or `Ok(x)` binds.
fn value_binding(pat: &Pat) -> Option<String> {
    ["Some", "Ok"]
        .iter()
        .find_map(|v| variant_binding(pat, v))
        .flatten()
}

/// `params.get("name").and_then(Value::as_str).unwrap_or("")`, `params["name"].as_str()`: the
/// request's `name` member read out of its JSON, through the adapters that unwrap it.
fn json_name_member(init: &Expr) -> bool {
    let mut e = init;
    loop {
        e = match e {
            Expr::MethodCall(m) if m.method == "get" && m.args.len() == 1 => {
                return crate::syntax::str_literal(&m.args[0]).is_some_and(|s| s == "name");
            }
            Expr::Index(i) => {
                return crate::syntax::str_literal(&i.index).is_some_and(|s| s == "name");
            }
            Expr::MethodCall(m) => &m.receiver,
            Expr::Reference(r) => &r.expr,
            Expr::Paren(p) => &p.expr,
            Expr::Try(t) => &t.expr,
            _ => return false,
        };
    }
}

/// `.map_err(|e| CoreError::Other(e.message.to_string()))`: the closure builds a new error value
/// of its own from the error's text, so the error's code does not go on (the new value's code is
/// chosen where it is answered). Not when it hands the error on whole (`AppError::Mcp(e)`,
/// `anyhow!(e)`) or keeps its code (`ErrorData::new(e.code, ..)`).
pub(super) fn replaces_error(map_err: &syn::ExprMethodCall) -> bool {
    let Some(Expr::Closure(c)) = map_err.args.first() else {
        return false;
    };
    let (Some(Pat::Ident(binding)), 1) = (c.inputs.first(), c.inputs.len()) else {
        return false;
    };
    let binding = binding.ident.to_string();
    let args: Vec<&Expr> = match tail_expr(&c.body) {
        Expr::Call(call) if matches!(&*call.func, Expr::Path(_)) => call.args.iter().collect(),
        Expr::Struct(s) => s.fields.iter().map(|f| &f.expr).collect(),
        _ => return false,
    };
    let whole = |a: &Expr| {
        let a = crate::syntax::through_methods(strip_refs(a), &["into", "clone"]);
        matches!(a, Expr::Path(p) if p.path.is_ident(&binding))
    };
    let keeps_code = |a: &Expr| {
        matches!(strip_refs(a), Expr::Field(f)
            if matches!(&f.member, syn::Member::Named(n) if n == "code")
                && matches!(&*f.base, Expr::Path(p) if p.path.is_ident(&binding)))
    };
    !args.is_empty() && !args.iter().any(|a| whole(a) || keeps_code(a))
}

/// A closure handed to a crate fn's Fn-typed parameter, as the call tells it.
pub(super) struct ClosureArg {
    /// The call's edge, by index in the body's calls (checked against its span).
    edge: usize,
    span: Span,
    /// The parameter's index (receiver not counted).
    param: usize,
    /// The crate types the parameter's Fn bound says the closure is called with.
    inputs: Vec<Option<ItemId>>,
}

impl<'a> Walker<'a, '_> {
    /// The closures among the arguments of a call of a crate fn, noted for when the walk reaches
    /// them: each is called with what the fn's parameter declares (`op: impl FnOnce(Storage)
    /// -> R`, `F: Fn(&Client) -> R`), and the crate fn it calls for its value is what the fn's
    /// `op(..)` returns (recorded on the call's edge, the one pushed at index `edge`). In a path
    /// call of a method (`Self::run(self, op)`) the receiver is an argument too.
    pub(super) fn note_closure_args(
        &mut self,
        target: &Target,
        args: &'a syn::punctuated::Punctuated<Expr, syn::Token![,]>,
        edge: usize,
        path_call: bool,
    ) {
        let Target::Fn(f) = target else { return };
        let Some(&(.., sig)) = self.calls.blocks.get(f) else {
            return;
        };
        let shift = usize::from(path_call && sig.receiver().is_some());
        let params: Vec<&syn::Type> = sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                syn::FnArg::Typed(t) => Some(&*t.ty),
                syn::FnArg::Receiver(_) => None,
            })
            .collect();
        let scope = self.calls.types.scope_of(*f);
        for (i, arg) in args.iter().enumerate() {
            let Expr::Closure(c) = strip_parens(arg) else {
                continue;
            };
            let Some(param) = i.checked_sub(shift) else {
                continue;
            };
            let Some(inputs) = params.get(param).and_then(|ty| fn_bound_inputs(sig, ty)) else {
                continue;
            };
            let inputs = inputs
                .iter()
                .map(|ty| {
                    let scope = scope?;
                    resolve_type_item(
                        self.calls.defs,
                        scope.module,
                        ty,
                        self.calls.types.self_type(scope),
                    )
                })
                .collect();
            let span = self.file.span_of(arg);
            self.closure_args.insert(
                c as *const syn::ExprClosure,
                ClosureArg {
                    edge,
                    span,
                    param,
                    inputs,
                },
            );
        }
    }

    /// A closure handed to a crate fn's parameter calls a crate fn for its value (`|s|
    /// s.get(&id)`, `move |c| async move { c.fetch(url).await }`): that fn's errors are what the
    /// parameter's call returns in the callee for this call.
    pub(super) fn closure_called(&mut self, c: &'a syn::ExprClosure) {
        let Some(passed) = self.closure_args.get(&(c as *const syn::ExprClosure)) else {
            return;
        };
        let (edge, span, param) = (passed.edge, passed.span, passed.param);
        let mut value = &*c.body;
        for _ in 0..4 {
            value = match strip_await(tail_expr(value)) {
                Expr::Async(a) => crate::syntax::tail_of(&a.block).unwrap_or(value),
                Expr::Try(t) => &t.expr,
                other => other,
            };
        }
        let Some(called) = self.called_body(strip_await(tail_expr(value))) else {
            return;
        };
        // The call's own edge (a macro expansion pushes none).
        if let Some(e) = self.facts.calls.get_mut(edge) {
            if e.span.start <= span.start
                && span.end <= e.span.end
                && !e.closure_calls.contains(&(param, called))
            {
                e.closure_calls.push((param, called));
            }
        }
    }

    /// The crate types a closure handed to a crate fn's Fn-typed parameter is called with (see
    /// [`Walker::note_closure_args`]); empty for any other closure.
    pub(super) fn closure_inputs(&self, c: &syn::ExprClosure) -> Vec<Option<ItemId>> {
        self.closure_args
            .get(&(c as *const syn::ExprClosure))
            .map(|p| p.inputs.clone())
            .unwrap_or_default()
    }
}

/// The argument types a Fn-typed parameter says its closure is called with: `impl FnOnce(A, B)
/// -> R`, a type parameter bounded by `Fn(A)` in the generics or the `where` clause, `Box<dyn
/// Fn(A)>`, through references.
fn fn_bound_inputs<'t>(sig: &'t syn::Signature, ty: &'t syn::Type) -> Option<Vec<&'t syn::Type>> {
    let bounds: Vec<&syn::TypeParamBound> = match crate::types::through_wrappers(ty) {
        syn::Type::ImplTrait(t) => t.bounds.iter().collect(),
        syn::Type::TraitObject(t) => t.bounds.iter().collect(),
        syn::Type::Path(p) if p.qself.is_none() => {
            crate::model::callgraph::param_bounds(&sig.generics, p.path.get_ident()?)
        }
        _ => return None,
    };
    bounds.into_iter().find_map(|b| {
        let syn::TypeParamBound::Trait(t) = b else {
            return None;
        };
        let last = t.path.segments.last()?;
        if !matches!(last.ident.to_string().as_str(), "Fn" | "FnMut" | "FnOnce") {
            return None;
        }
        match &last.arguments {
            syn::PathArguments::Parenthesized(p) => Some(p.inputs.iter().collect()),
            _ => None,
        }
    })
}

/// What a read starts from: the receiver of its method calls, the base of its fields and
/// indexes, through `&`, parentheses, `?`, `.await` and a `match` on it (`request` of
/// `match request.get("params")?`).
pub(super) fn read_root(e: &Expr) -> &Expr {
    read_steps(e).last().unwrap_or(e)
}

/// The read itself and each expression it passes through to [`read_root`], outermost first
/// (`req.params.as_ref()`, `req.params`, `req`).
pub(super) fn read_steps(e: &Expr) -> impl Iterator<Item = &Expr> {
    std::iter::successors(Some(e), |e| match e {
        Expr::MethodCall(m) => Some(&*m.receiver),
        Expr::Index(i) => Some(&*i.expr),
        Expr::Field(f) => Some(&*f.base),
        Expr::Reference(r) => Some(&*r.expr),
        Expr::Paren(p) => Some(&*p.expr),
        Expr::Try(t) => Some(&*t.expr),
        Expr::Await(a) => Some(&*a.base),
        Expr::Match(m) => Some(&*m.expr),
        _ => None,
    })
}

/// `items.iter().map(|x| Ok(..)).collect()`: a collect into a `Result` whose every item is
/// `Ok`, which cannot fail.
fn collects_only_ok(operand: &Expr) -> bool {
    let Expr::MethodCall(collect) = operand else {
        return false;
    };
    let Expr::MethodCall(map) = &*collect.receiver else {
        return false;
    };
    if collect.method != "collect" || map.method != "map" {
        return false;
    }
    let Some(Expr::Closure(c)) = map.args.first() else {
        return false;
    };
    let mut leaves = Vec::new();
    value_leaves(&c.body, &mut leaves, 0);
    !leaves.is_empty() && leaves.iter().all(|l| crate::syntax::is_ok_call(l))
}
