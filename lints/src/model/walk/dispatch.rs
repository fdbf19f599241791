//! Tool-name dispatch: a dispatcher's `match name { "add" => .., other => .. }` or
//! `if name == "add" { .. } else { .. }` gives each arm the tool it answers, and the catch-all
//! the unknown-tool context, as does the miss of a registry lookup by the tool's name
//! (`self.tools.get(&request.name)`); a failed tool-enum conversion (`Tools::try_from(params)?`)
//! is the unknown-tool answer itself.

use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use super::failure::{calls_any, is_lookup, lookup_call};
use super::Walker;
use crate::model::site::{Channel, Origin, SiteContext};
use crate::sdk::{ContentFacts, ErrChannel, HandlerKind, TryMeaning};
use crate::syntax::{
    const_name, is_const_name, last_segment, mentions_ident, str_literal, strip_await, tail_expr,
    TokensString,
};
use crate::text::MessageText;

impl<'a> Walker<'a, '_> {
    /// The tool-name `match` of a dispatcher: literal arms are tools, the catch-all is the
    /// unknown-tool branch.
    pub(super) fn dispatch_match(&mut self, m: &'a syn::ExprMatch) -> bool {
        if self.tool_enum_match(m) {
            return true;
        }
        let Some(scrutinee) = self.tool_dispatch(m) else {
            return false;
        };
        self.visit_expr(&m.expr);
        for arm in &m.arms {
            // `other => if let Some(t) = extra.find(other) { .. } else { .. }`, or a `match` on
            // that lookup: see `visit_unknown_tool_branch`.
            if let (None, Some(binding), None) = (
                literal_names(&arm.pat),
                catch_all_binding(&arm.pat),
                &arm.guard,
            ) {
                if second_lookup(&arm.body, &binding).is_some()
                    || second_lookup_match(&arm.body, &binding).is_some()
                {
                    let in_tool_call_arm = std::mem::replace(&mut self.in_tool_call_arm, false);
                    self.visit_unknown_tool_branch(binding, &arm.body);
                    self.in_tool_call_arm = in_tool_call_arm;
                    continue;
                }
            }
            let context = match (literal_names(&arm.pat), catch_all_binding(&arm.pat)) {
                (Some(names), _) => Some(SiteContext::Tool {
                    tools: names.into_iter().map(|n| self.tool_name_text(n)).collect(),
                    helper: None,
                }),
                // `name if is_git_tool(name) => git_tools(params)`: a group of tools the guard
                // picks, routed on; the tool is not picked yet (the arm keeps the dispatch's
                // context), so the callee that gets the request continues the dispatch.
                (None, Some(_)) if routes_tool_group(arm, &scrutinee) => None,
                // A guard before the dispatch answered every unknown name already
                // (`ensure!(NAMES.iter().any(|t| *t == name), ..)`).
                (None, Some(_)) if self.name_guarded_before(m) => Some(SiteContext::Unreached),
                (None, Some(binding)) => Some(SiteContext::UnknownToolArm {
                    binding: if binding == "_" {
                        name_expression(&scrutinee)
                    } else {
                        binding
                    },
                }),
                _ => continue,
            };
            let picked = context.is_some();
            let outer = context.map(|c| self.arm.replace(c));
            let inside = self.in_tool_call_arm && !picked;
            let in_tool_call_arm = std::mem::replace(&mut self.in_tool_call_arm, inside);
            let known_names =
                std::mem::replace(&mut self.known_names_arm, !picked && tests_known_names(arm));
            if let Some((_, guard)) = &arm.guard {
                self.visit_expr(guard);
            }
            self.visit_expr(&arm.body);
            if let Some(outer) = outer {
                self.arm = outer;
            }
            self.in_tool_call_arm = in_tool_call_arm;
            self.known_names_arm = known_names;
        }
        true
    }

    /// `let tool = Tools::try_from(params)?; match tool { Tools::GitShow(t) => .. }` in a
    /// dispatcher: the conversion answered the unknown tool, and each arm is the tool its
    /// variant holds.
    fn tool_enum_match(&mut self, m: &'a syn::ExprMatch) -> bool {
        let converted = self.let_init(strip_await(&m.expr)).is_some_and(|init| {
            let init = match init {
                Expr::Try(t) => &*t.expr,
                other => other,
            };
            self.converts_to_tool_enum(init)
        });
        let variants: Option<Vec<String>> = m
            .arms
            .iter()
            .map(|a| match &a.pat {
                Pat::TupleStruct(ts) if ts.path.segments.len() >= 2 => {
                    Some(ts.path.segments.last()?.ident.to_string())
                }
                _ => None,
            })
            .collect();
        let (true, Some(variants)) = (converted, variants) else {
            return false;
        };
        self.visit_expr(&m.expr);
        for (arm, variant) in m.arms.iter().zip(variants) {
            let outer = self.arm.replace(SiteContext::Tool {
                tools: vec![variant],
                helper: None,
            });
            let in_tool_call_arm = std::mem::replace(&mut self.in_tool_call_arm, false);
            self.visit_arm(arm);
            self.arm = outer;
            self.in_tool_call_arm = in_tool_call_arm;
        }
        true
    }

    /// Whether `m` is a tool-name dispatch here (literal arms for tools and a catch-all for
    /// the unknown one): its scrutinee's text when it is.
    fn tool_dispatch(&self, m: &syn::ExprMatch) -> Option<String> {
        let dispatcher = self.body.kind == Some(HandlerKind::Dispatcher) && self.arm.is_none();
        let scrutinee = m.expr.to_token_stream_string();
        // A helper routing by a tool name of its own (`match tool { "lint" => .., other => .. }`).
        let tool_router = self.arm.is_none()
            && self.body.kind != Some(HandlerKind::Other)
            && (mentions_ident(&scrutinee, "tool") || mentions_ident(&scrutinee, "tool_name"));
        if !dispatcher && !self.in_tool_call_arm && !tool_router {
            return None;
        }
        if !scrutinee.contains("name") && !tool_router {
            return None;
        }
        let literal_arms = m
            .arms
            .iter()
            .filter(|a| literal_names(&a.pat).is_some())
            .count();
        let catch_all = m
            .arms
            .iter()
            .any(|a| catch_all_binding(&a.pat).is_some() && !routes_tool_group(a, &scrutinee));
        // A helper's `match tool_name` routes when a tool's arm runs crate code; one whose arms
        // only word a text (`"search" => "Search completed".to_string()`) picks no tool.
        let routes = dispatcher
            || self.in_tool_call_arm
            || m.arms
                .iter()
                .filter(|a| literal_names(&a.pat).is_some())
                .any(|a| self.calls_crate_fn(&a.body));
        (literal_arms > 0 && catch_all && routes).then_some(scrutinee)
    }

    /// Whether `e` calls a fn or method of the crate (by its path or receiver type).
    fn calls_crate_fn(&self, e: &Expr) -> bool {
        struct Calls<'w, 'a, 'm> {
            walker: &'w Walker<'a, 'm>,
            found: bool,
        }
        impl<'v> Visit<'v> for Calls<'_, '_, '_> {
            fn visit_expr(&mut self, e: &'v Expr) {
                if self.found {
                    return;
                }
                if matches!(e, Expr::Call(_) | Expr::MethodCall(_)) {
                    self.found = self
                        .walker
                        .call_target(e)
                        .and_then(|t| self.walker.callee(t))
                        .is_some();
                }
                visit::visit_expr(self, e);
            }
            fn visit_item(&mut self, _: &'v syn::Item) {}
        }
        let mut calls = Calls {
            walker: self,
            found: false,
        };
        calls.visit_expr(e);
        calls.found
    }

    /// `let result = match name { "a" => .., _ => Err(format!("unknown tool: {name}")) };
    /// match result { .., Err(e) => tool_error(id, &e) }`: the dispatch's catch-all gives an
    /// `Err` value that the later `Err` arm answers. That value and its unknown-tool context.
    pub(super) fn unknown_tool_err_value(
        &self,
        value: &'a Expr,
    ) -> Option<(&'a Expr, SiteContext)> {
        let Expr::Match(d) = value else {
            return None;
        };
        let scrutinee = self.tool_dispatch(d)?;
        let arm = d
            .arms
            .iter()
            .find(|a| catch_all_binding(&a.pat).is_some() && !routes_tool_group(a, &scrutinee))?;
        let tail = arm_value(&arm.body)?;
        crate::syntax::err_payload(tail)?;
        if self.name_guarded_before(d) {
            return None;
        }
        let binding = match catch_all_binding(&arm.pat)? {
            b if b == "_" => name_expression(&scrutinee),
            b => b,
        };
        Some((tail, SiteContext::UnknownToolArm { binding }))
    }

    /// `ensure!(NAMES.iter().any(|t| *t == name), "unknown tool; use tools/list")` before a
    /// tool is picked: the error this body fails with when the name is none of the server's
    /// is the unknown tool's answer.
    pub(super) fn unknown_name_ensured(&mut self, mac: &'a syn::Macro) {
        if !self.picking_tool() || self.arm.is_some() || self.returned.error_enum.is_some() {
            return;
        }
        let Some(cond) = self.macros.get(mac).first() else {
            return;
        };
        let Some(binding) = known_name_test(cond) else {
            return;
        };
        let span = self.file.span_of(mac);
        let origin = Origin::ReturnedUnknownTool { variant: None };
        self.answered_elsewhere_at(span, origin, SiteContext::UnknownToolArm { binding });
    }

    /// `if !is_tool_available(tool_name, ..) { return Err(method_not_found(tool_name)); }` before
    /// the dispatch `d`, at the top of the body: the names the dispatch's catch-all could get
    /// were answered already, so the catch-all is likely unreachable (the source cannot tell).
    fn name_guarded_before(&self, d: &syn::ExprMatch) -> bool {
        let crate::model::bodies::BodyCode::Block(block) = self.body.code else {
            return false;
        };
        let scrutinee = d.expr.to_token_stream_string();
        let Some(name) = scrutinee
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .find(|w| w.contains("name") || *w == "tool")
        else {
            return false;
        };
        let at = self.file.span_of(d).start;
        block.stmts.iter().any(|stmt| match stmt {
            // (`if name == "connect" { return connect(..) }` runs one tool early: no guard.)
            syn::Stmt::Expr(Expr::If(i), _) => {
                self.file.span_of(i).end <= at
                    && tool_name_test(&i.cond).is_none()
                    && !routes_known_names(&i.cond)
                    && mentions_ident(&i.cond.to_token_stream_string(), name)
                    && (matches!(
                        i.then_branch.stmts.last(),
                        Some(syn::Stmt::Expr(Expr::Return(_), _))
                    ) || i
                        .then_branch
                        .stmts
                        .iter()
                        .any(|s| bail_statement(s).is_some()))
            }
            // `ensure!(NAMES.iter().any(|t| *t == name), ..)`.
            syn::Stmt::Macro(m) => {
                last_segment(&m.mac.path).as_deref() == Some("ensure")
                    && self.file.span_of(&m.mac).end <= at
                    && self
                        .macros
                        .get(&m.mac)
                        .first()
                        .and_then(known_name_test)
                        .is_some_and(|n| mentions_ident(&n, name))
            }
            _ => false,
        })
    }

    /// `match response { .., Err(e) => .. }` where `let response = match method { "tools/call"
    /// => self.call_tool(req).await, .. }`, or `match process_request(&req).await { .., Err(e)
    /// => .. }` where `process_request` holds that dispatch: the `Err` arm answers the tool
    /// call's failures too (the mapping sits after the dispatch), so it is walked as part of
    /// the tool-call arm. `Some(errors_of)`: the body whose errors the arm receives, when a
    /// crate fn returned them (its variants are the ones that reach the arm).
    pub(super) fn answers_after_dispatch(
        &self,
        m: &syn::ExprMatch,
        value: &Expr,
    ) -> Option<Option<crate::model::ids::BodyId>> {
        if self.arm.is_some() {
            return None;
        }
        match strip_await(value) {
            Expr::Match(d) if !std::ptr::eq(value, &*m.expr) => {
                let tool_call = d
                    .arms
                    .iter()
                    .find(|a| self.dialect.is_tool_call_arm(&a.pat))?;
                // The errors of the fn the tool-call arm calls, when it calls one.
                Some(self.called_body(tail_expr(&tool_call.body)))
            }
            call @ (Expr::Call(_) | Expr::MethodCall(_)) => {
                match self.resolver.call_target(call, &self.locals) {
                    Some(crate::model::callgraph::Target::Fn(f))
                        if self.dialect.routes_tool_calls_in(f)
                            && !self.tool_call_arms_never_fail(f) =>
                    {
                        Some(self.calls.body_of.get(&f).copied())
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether every tool-call arm of the `match`es in crate fn `f` is `Ok(..)` on every path
    /// (`"tools/call" => { let r = handle_tool_call(..).await; Ok(Some(respond(id, r))) }`): the
    /// `Err` its callers answer is never a tool's. `false` when `f` routes tool calls otherwise.
    fn tool_call_arms_never_fail(&self, f: crate::types::FnKey) -> bool {
        struct Arms<'d, 'v> {
            dialect: &'d dyn crate::sdk::Dialect,
            arms: Vec<&'v syn::Arm>,
        }
        impl<'v> syn::visit::Visit<'v> for Arms<'_, 'v> {
            fn visit_arm(&mut self, arm: &'v syn::Arm) {
                if self.dialect.is_tool_call_arm(&arm.pat) {
                    self.arms.push(arm);
                }
                syn::visit::visit_arm(self, arm);
            }
            fn visit_expr_closure(&mut self, _: &'v syn::ExprClosure) {}
            fn visit_item(&mut self, _: &'v syn::Item) {}
        }
        let Some((block, file, _)) = self.calls.blocks.get(&f) else {
            return false;
        };
        let mut found = Arms {
            dialect: self.dialect,
            arms: Vec::new(),
        };
        syn::visit::Visit::visit_block(&mut found, block);
        self.read_from(*file);
        !found.arms.is_empty()
            && found
                .arms
                .iter()
                .all(|a| super::returns::value_never_fails(&a.body))
    }

    /// Walks `f` as the tool-call arm of a request handler.
    pub(super) fn in_tool_call_answer(&mut self, f: impl FnOnce(&mut Self)) {
        let outer = self.arm.replace(SiteContext::Tool {
            tools: vec![crate::model::site::TOOL_CALL_ARM.to_string()],
            helper: None,
        });
        let in_arm = std::mem::replace(&mut self.in_tool_call_arm, true);
        f(self);
        self.in_tool_call_arm = in_arm;
        self.arm = outer;
    }

    /// The text of a tool's name written as a constant (`TOOL_NAME` where `const TOOL_NAME: &str
    /// = "run_command"`), resolved where this body is; else the name as written.
    fn tool_name_text(&self, name: String) -> String {
        let Some(scope) = self.body.scope else {
            return name;
        };
        let Ok(ident) = syn::parse_str::<syn::Ident>(&name) else {
            return name;
        };
        let path = syn::Path::from(ident);
        match self
            .calls
            .defs
            .resolve_path(scope.module, &path, crate::resolve::Ns::Values)
        {
            Some(crate::resolve::Def::Item(id)) => match self.calls.defs.item(id).syntax {
                syn::Item::Const(c) => str_literal(&c.expr).unwrap_or(name),
                _ => name,
            },
            _ => name,
        }
    }

    /// `if name == "a" { .. } else if name == "b" { .. } else { unknown }` in a dispatcher.
    pub(super) fn dispatch_if(&mut self, i: &'a syn::ExprIf) -> bool {
        let dispatcher = self.body.kind == Some(HandlerKind::Dispatcher) && self.arm.is_none();
        if !(dispatcher || self.in_tool_call_arm) {
            return false;
        }
        // `if name != "export" { unknown }`: a guard before the one tool's code.
        if let Some((_, name)) = tool_name_guard(&i.cond) {
            self.visit_expr(&i.cond);
            let context = SiteContext::UnknownToolArm { binding: name };
            let outer = self.arm.replace(context.clone());
            self.visit_block(&i.then_branch);
            self.arm = outer;
            // `if !KNOWN.contains(&name) { anyhow::bail!("unknown tool: {name}") }`: the error
            // this body fails with there.
            if self.returned.error_enum.is_none() {
                if let Some(bail) = i.then_branch.stmts.iter().find_map(bail_statement) {
                    let span = self.file.span_of(bail);
                    let origin = Origin::ReturnedUnknownTool { variant: None };
                    self.answered_elsewhere_at(span, origin, context);
                }
            }
            match &i.else_branch {
                Some((_, e)) => self.visit_expr(e),
                // `if !WarehouseTools::tools().iter().any(..) { return Err(..) }`: what follows
                // never sees an unknown name.
                None if returns_at_end(&i.then_branch) => self.unknown_names_answered = true,
                None => {}
            }
            return true;
        }
        if tool_name_test(&i.cond).is_none() {
            return false;
        }
        let mut branch = i;
        loop {
            let Some((literal, name)) = tool_name_test(&branch.cond) else {
                // An `else if` that tests something else: not a plain dispatch; visit normally.
                visit::visit_expr_if(self, branch);
                return true;
            };
            self.visit_expr(&branch.cond);
            let outer = self.arm.replace(SiteContext::Tool {
                tools: vec![self.tool_name_text(literal)],
                helper: None,
            });
            let in_arm = std::mem::replace(&mut self.in_tool_call_arm, false);
            self.visit_block(&branch.then_branch);
            match branch.else_branch.as_ref().map(|(_, e)| &**e) {
                Some(Expr::If(next)) => {
                    self.arm = outer;
                    self.in_tool_call_arm = in_arm;
                    branch = next;
                }
                Some(last) => {
                    self.arm = Some(SiteContext::UnknownToolArm { binding: name });
                    self.visit_expr(last);
                    self.arm = outer;
                    self.in_tool_call_arm = in_arm;
                    return true;
                }
                None => {
                    self.arm = outer;
                    self.in_tool_call_arm = in_arm;
                    return true;
                }
            }
        }
    }

    /// A dispatcher's lookup of the tool by the request's name in a registry
    /// (`self.tools.get(&request.name)`, `.get(name.as_ref())`): its miss is the unknown-tool
    /// branch. The name expression, for the answer's message.
    pub(super) fn tool_registry_lookup(&self, scrutinee: &Expr) -> Option<String> {
        // Before a tool is picked: a dispatcher, or a router's `"tools/call"` branch.
        if !self.picking_tool() {
            return None;
        }
        let key_text = if is_lookup(scrutinee) {
            super::failure::lookup_key(lookup_call(scrutinee)?).to_token_stream_string()
        } else if let Some(key) = registry_find_key(scrutinee) {
            key.to_token_stream_string()
        } else {
            // `index.dispatch_for(name)`: a crate fn whose value is a lookup of that argument.
            let at = usize::from(self.called_facts(scrutinee)?.lookup_of_param?);
            let args = match strip_await(scrutinee) {
                Expr::Call(c) => &c.args,
                Expr::MethodCall(mc) => &mc.args,
                _ => return None,
            };
            args.iter().nth(at)?.to_token_stream_string()
        };
        key_text
            .contains("name")
            .then(|| name_expression(&key_text))
    }

    /// Visits `branch` as the dispatcher's unknown-tool branch for the tool named `name`.
    pub(super) fn visit_unknown_tool_branch(&mut self, name: String, branch: &'a Expr) {
        // `other => if let Some(t) = self.extra.iter().find(|t| t.name == other) { run(t) }
        // else { Err(..) }`: a second lookup by the name. What it finds is a tool; only its
        // miss is the unknown tool.
        if let Some(i) = second_lookup(branch, &name) {
            self.with_if_bindings(&i.cond, |w| {
                w.visit_expr(&i.cond);
                w.visit_block(&i.then_branch);
            });
            if let Some((_, missed)) = &i.else_branch {
                self.visit_unknown_tool_branch(name, missed);
            }
            return;
        }
        // `other => match self.presets.get(other) { Some(p) => run(p), None => Err(..) }`.
        if let Some(m) = second_lookup_match(branch, &name) {
            self.visit_expr(&m.expr);
            for arm in &m.arms {
                if matches!(&arm.pat, Pat::TupleStruct(ts) if ts.path.is_ident("Some")) {
                    self.visit_expr(&arm.body);
                } else {
                    self.visit_unknown_tool_branch(name.clone(), &arm.body);
                }
            }
            return;
        }
        let outer = self
            .arm
            .replace(SiteContext::UnknownToolArm { binding: name });
        let in_arm = std::mem::replace(&mut self.in_tool_call_arm, false);
        self.visit_expr(branch);
        self.arm = outer;
        self.in_tool_call_arm = in_arm;
    }

    /// A conversion of the request into the tool enum in a dispatcher (`MyTools::try_from(params)`),
    /// which fails exactly for an unknown tool.
    pub(super) fn converts_to_tool_enum(&self, expr: &Expr) -> bool {
        let dispatching = (self.body.kind == Some(HandlerKind::Dispatcher) && self.arm.is_none())
            || self.in_tool_call_arm;
        dispatching
            && !self.unknown_names_answered
            && calls_any(strip_await(expr), &["try_from", "try_into"])
    }

    /// Whether an arm of `m` before `arm` is guarded by a test that the name is none of the
    /// server's tools (`Err(_) if !MyTools::tools().iter().any(|t| t.name == name) =>`): it
    /// answers the unknown names, so `arm` never sees one.
    pub(super) fn unknown_names_answered_before(&self, m: &syn::ExprMatch, arm: &syn::Arm) -> bool {
        m.arms
            .iter()
            .take_while(|a| !std::ptr::eq(*a, arm))
            .any(|a| {
                a.guard
                    .as_ref()
                    .is_some_and(|(_, g)| tool_name_guard(g).is_some())
            })
    }

    /// `MyTools::try_from(params)` where no crate item is `MyTools`: an enum a macro generates
    /// (rust-mcp-sdk's `tool_box!`), whose conversion fails with the SDK's tool error.
    fn converts_to_generated_enum(&self, operand: &Expr) -> bool {
        let Expr::Call(call) = operand else {
            return false;
        };
        let Expr::Path(p) = &*call.func else {
            return false;
        };
        crate::syntax::assoc_fn_owner(&p.path, "try_from")
            .is_some_and(|ty| self.resolver.type_item(&ty).is_none())
    }

    /// `MyTools::try_from(params).map_err(CallToolError::new)?` in a dispatcher: the tool-enum
    /// conversion (rust-mcp-sdk's `tool_box!`) fails exactly for an unknown tool, so the `?` is
    /// the unknown-tool answer.
    pub(super) fn unknown_tool_conversion(&mut self, t: &'a syn::ExprTry) -> bool {
        let operand = strip_await(&t.expr);
        if !self.converts_to_tool_enum(operand) {
            return false;
        }
        // `.map_err(|_| CallToolError::unknown_tool(name))`: that constructor is this answer.
        let closure_ctor = match operand {
            Expr::MethodCall(mc) if mc.method == "map_err" => match mc.args.first() {
                Some(Expr::Closure(c)) => self.tool_error_constructor(tail_expr(&c.body)),
                _ => None,
            },
            _ => None,
        };
        let (channel, code) = match self.body.returns.err {
            ErrChannel::ToolError => (Channel::ToolError, None),
            ErrChannel::Protocol => {
                let tool_error = self.operand_error_is_tool_error(operand)
                    || closure_ctor.is_some()
                    || self.converts_to_generated_enum(operand);
                match self.dialect.try_meaning(&self.body.returns, tool_error) {
                    TryMeaning::Protocol(code) => (Channel::Protocol, Some(code)),
                    _ => return false,
                }
            }
            ErrChannel::Unknown => return false,
        };
        if let Some(call) = closure_ctor {
            self.consumed.insert(call as *const syn::ExprCall);
        }
        let span = self.file.span_of(t);
        let outer = self.arm.replace(SiteContext::UnknownToolArm {
            binding: "params.name".to_string(),
        });
        let content = ContentFacts {
            empty: false,
            texts: vec![MessageText::Opaque],
        };
        self.add_site(t, span, channel, code, content, Origin::QuestionMark);
        self.arm = outer;
        true
    }
}

/// A block whose last statement leaves the fn: `return ..;`, `bail!(..)`.
fn returns_at_end(block: &syn::Block) -> bool {
    match block.stmts.last() {
        Some(syn::Stmt::Expr(Expr::Return(_), _)) => true,
        Some(syn::Stmt::Macro(m)) => super::returns::diverges(&m.mac),
        _ => false,
    }
}

/// The value an arm gives its `match` (a block's tail); `None` when it returns instead.
fn arm_value(expr: &Expr) -> Option<&Expr> {
    match expr {
        Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => arm_value(e),
            _ => None,
        },
        Expr::Return(_) => None,
        Expr::Paren(p) => arm_value(&p.expr),
        other => Some(other),
    }
}

/// String-literal arm patterns (`"add" | "sum"`), and constants named in their place
/// (`TOOL_NAME =>`, `tools::ECHO =>`; by Rust's naming, SCREAMING_CASE, not a binding).
pub(super) fn literal_names(pat: &Pat) -> Option<Vec<String>> {
    match pat {
        Pat::Lit(l) => match &l.lit {
            syn::Lit::Str(s) => Some(vec![s.value()]),
            _ => None,
        },
        Pat::Ident(i) if i.subpat.is_none() && is_const_name(&i.ident.to_string()) => {
            Some(vec![i.ident.to_string()])
        }
        Pat::Path(p) if p.qself.is_none() && p.path.segments.len() > 1 => {
            const_name(&p.path).map(|n| vec![n])
        }
        Pat::Or(o) => {
            let mut names = Vec::new();
            for case in &o.cases {
                names.extend(literal_names(case)?);
            }
            Some(names)
        }
        // `Some("add")` when matching on `params["name"].as_str()`.
        Pat::TupleStruct(ts) if ts.path.is_ident("Some") && ts.elems.len() == 1 => {
            literal_names(&ts.elems[0])
        }
        _ => None,
    }
}

/// `name if is_git_tool(name) =>`, `_ if is_builtin(name) =>`: a catch-all arm whose guard tests
/// the name (the one it binds, or the scrutinee's) routes a group of tools on; `other if
/// self.lenient =>`, whose guard does not, is a catch-all.
fn routes_tool_group(arm: &syn::Arm, scrutinee: &str) -> bool {
    let (Some((_, guard)), Some(binding)) = (&arm.guard, catch_all_binding(&arm.pat)) else {
        return false;
    };
    let name = if binding == "_" {
        let expression = name_expression(scrutinee);
        match expression.rsplit('.').next() {
            Some(last) if !last.is_empty() && !last.contains('(') => last.to_string(),
            _ => return false,
        }
    } else {
        binding
    };
    mentions_ident(&guard.to_token_stream_string(), &name)
}

/// `_ if is_builtin(name) =>`, `n if KNOWN.contains(&n) =>`: a group arm whose guard tests the
/// name against known tools (not a prefix, as `name.starts_with("git_")` is): unknown names go
/// on to the arms after it, so the callee it hands the name to never sees one.
fn tests_known_names(arm: &syn::Arm) -> bool {
    let Some((_, guard)) = &arm.guard else {
        return false;
    };
    let text = guard.to_token_stream_string();
    let affix = ["starts_with", "ends_with", "strip_prefix", "strip_suffix"];
    !affix.iter().any(|a| mentions_ident(&text, a))
}

/// `_`, a plain binding or `Some(other)`: the catch-all arm.
pub(super) fn catch_all_binding(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Wild(_) => Some("_".to_string()),
        Pat::Ident(i)
            if i.subpat.is_none() && i.ident != "None" && !is_const_name(&i.ident.to_string()) =>
        {
            Some(i.ident.to_string())
        }
        Pat::TupleStruct(ts) if ts.path.is_ident("Some") && ts.elems.len() == 1 => {
            catch_all_binding(&ts.elems[0])
        }
        _ => None,
    }
}

/// `name != "export"`: the literal and the name expression.
pub(super) fn tool_name_guard(cond: &Expr) -> Option<(String, String)> {
    match cond {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Ne(_)) => literal_comparison(b),
        // `!NAMES.iter().any(|t| *t == name)`, `!TOOLS.contains(&name)`: the name is none of
        // the server's.
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
            membership_test(&u.expr).map(|name| (String::new(), name))
        }
        Expr::Paren(p) => tool_name_guard(&p.expr),
        _ => None,
    }
}

/// What an `ensure!` of the requested name asserts, as a membership test or a comparison with
/// one tool's name (`ensure!(name == "search", ..)`): the name expression.
fn known_name_test(cond: &Expr) -> Option<String> {
    membership_test(cond).or_else(|| tool_name_test(cond).map(|(_, name)| name))
}

/// A test that the requested name is one of the server's tools: `NAMES.iter().any(|t| *t ==
/// name)`, `self.tools().iter().any(|t| t.name == name)`, `KNOWN.contains(&name)`,
/// `tools.contains_key(name.as_str())`. The name expression.
pub(super) fn membership_test(cond: &Expr) -> Option<String> {
    let Expr::MethodCall(m) = cond else {
        return None;
    };
    let method = m.method.to_string();
    match (method.as_str(), m.args.first()) {
        ("any", Some(Expr::Closure(c))) if m.args.len() == 1 && c.inputs.len() == 1 => {
            let param = crate::syntax::pat_ident(&c.inputs[0]).or_else(|| match &c.inputs[0] {
                Pat::Reference(r) => crate::syntax::pat_ident(&r.pat),
                _ => None,
            })?;
            let Expr::Binary(b) = crate::syntax::strip_refs(&c.body) else {
                return None;
            };
            if !matches!(b.op, syn::BinOp::Eq(_)) {
                return None;
            }
            let sides = [&*b.left, &*b.right].map(|e| e.to_token_stream_string());
            let [left, right] = &sides;
            let other = match (mentions_ident(left, &param), mentions_ident(right, &param)) {
                (true, false) => right,
                (false, true) => left,
                _ => return None,
            };
            names_the_tool(other)
        }
        ("contains" | "contains_key", Some(arg)) if m.args.len() == 1 => {
            names_the_tool(&arg.to_token_stream_string())
        }
        _ => None,
    }
}

/// The name expression of `tokens` when it reads a tool's name (`name`, `request.name`,
/// `&tool_name`; not `server_name`).
fn names_the_tool(tokens: &str) -> Option<String> {
    let name = name_expression(tokens);
    let last = name.rsplit('.').next()?;
    (last == "name" || last.contains("tool")).then_some(name)
}

/// `name == "add"` / `request.tool_name() == "add"` / `params.name.eq(&SayHello::tool_name())`:
/// the tool's name and the name expression.
pub(super) fn tool_name_test(cond: &Expr) -> Option<(String, String)> {
    match cond {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Eq(_)) => literal_comparison(b),
        Expr::MethodCall(m) if m.method == "eq" && m.args.len() == 1 => {
            named_comparison(&m.receiver, &m.args[0])
        }
        _ => None,
    }
}

/// One side a tool's name, the other an expression mentioning a name.
pub(super) fn literal_comparison(b: &syn::ExprBinary) -> Option<(String, String)> {
    named_comparison(&b.left, &b.right)
}

fn named_comparison(left: &Expr, right: &Expr) -> Option<(String, String)> {
    let (tool, other) = match (tool_name_value(left), tool_name_value(right)) {
        (Some(l), None) => (l, right),
        (None, Some(r)) => (r, left),
        _ => return None,
    };
    let tokens = other.to_token_stream_string();
    tokens
        .contains("name")
        .then(|| (tool, name_expression(&tokens)))
}

/// A tool's name as the source writes it: a string literal, or the name fn rust-mcp-sdk's
/// `#[mcp_tool]` gives the tool's struct (`&SayHelloTool::tool_name()`, told by the struct's name).
fn tool_name_value(expr: &Expr) -> Option<String> {
    let expr = crate::syntax::strip_refs(expr);
    if let Some(literal) = str_literal(expr) {
        return Some(literal);
    }
    // `name != TOOL_NAME`: a constant holding the name.
    if let Expr::Path(p) = expr {
        if p.qself.is_none() {
            return const_name(&p.path);
        }
    }
    let Expr::Call(c) = expr else { return None };
    let Expr::Path(p) = &*c.func else { return None };
    match p.path.segments.iter().rev().collect::<Vec<_>>().as_slice() {
        [f, ty, ..] if c.args.is_empty() && f.ident == "tool_name" => Some(ty.ident.to_string()),
        _ => None,
    }
}

/// `tools.iter().find(|t| t.name() == name)`: the value the entries are compared with (`name`).
fn registry_find_key(expr: &Expr) -> Option<&Expr> {
    let Expr::MethodCall(find) = strip_await(expr) else {
        return None;
    };
    let over_entries = find.method == "find"
        && matches!(&*find.receiver, Expr::MethodCall(i) if i.method == "iter" || i.method == "values");
    over_entries
        .then(|| super::failure::searched_key(find))
        .flatten()
}

/// `request.name.as_ref()` → `request.name`, for `format!("Unknown tool: {}", ..)`.
pub(super) fn name_expression(scrutinee: &str) -> String {
    let compact = scrutinee.replace(' ', "");
    let trimmed = compact
        .trim_start_matches('&')
        .trim_start_matches('*')
        .trim_end_matches(".as_ref()")
        .trim_end_matches(".as_str()")
        .trim_end_matches(".to_string()")
        .trim_end_matches(".as_ref()");
    trimmed.to_string()
}

/// The position of the parameter `f`'s value is a lookup of (`self.dispatch.get(name)`), or
/// whose `None` is one's miss (`let s =
/// map.get_mut(id).filter(..)?;` in a fn returning `Option`), the receiver not counted.
pub(crate) fn lookup_of_param(f: &crate::index::FnItem<'_>) -> Option<u8> {
    let Some(syn::Stmt::Expr(tail, None)) = f.block.stmts.last() else {
        return None;
    };
    // Not `Ok(uploads.remove(handle))`: its caller's `Err` arm is the fn's failure, not the
    // miss (the `Ok(None)` of a service is read where `?` unwraps it).
    let tail = tail_expr(tail);
    let returns_option = matches!(&f.sig.output, syn::ReturnType::Type(_, ty)
        if crate::syntax::option_inner(crate::syntax::unwrap_future(ty)).is_some());
    // A `let` whose lookup's miss returns the fn's `None` through `?`.
    let early = || {
        f.block.stmts.iter().find_map(|s| match s {
            syn::Stmt::Local(syn::Local {
                init: Some(init), ..
            }) => match &*init.expr {
                Expr::Try(t) if is_lookup(&t.expr) => Some(&*t.expr),
                _ => None,
            },
            _ => None,
        })
    };
    let lookup = if is_lookup(tail) {
        tail
    } else if returns_option {
        early()?
    } else {
        return None;
    };
    let key = crate::syntax::strip_refs(super::failure::lookup_key(lookup_call(lookup)?));
    let Expr::Path(p) = key else {
        return None;
    };
    let key = p.path.get_ident()?;
    f.sig
        .inputs
        .iter()
        .filter_map(|i| match i {
            syn::FnArg::Typed(t) => Some(&t.pat),
            syn::FnArg::Receiver(_) => None,
        })
        .position(|pat| crate::syntax::pat_ident(pat).is_some_and(|n| key == &n))
        .and_then(|i| u8::try_from(i).ok())
}

/// The `if let Some(x) = <lookup by the requested name> { .. } else { .. }` an unknown-tool
/// branch is (alone in its block), when it is one.
fn second_lookup<'e>(branch: &'e Expr, name: &str) -> Option<&'e syn::ExprIf> {
    let Expr::If(i) = only_expr(branch) else {
        return None;
    };
    let Expr::Let(l) = &*i.cond else {
        return None;
    };
    let some = matches!(&*l.pat, Pat::TupleStruct(ts) if ts.path.is_ident("Some"));
    let by_name = super::failure::names_local(&l.expr, name);
    (some && by_name && i.else_branch.is_some()).then_some(i)
}

/// The same as a `match` on the lookup, with `Some(..)` arms and a `None` (or `_`) arm.
fn second_lookup_match<'e>(branch: &'e Expr, name: &str) -> Option<&'e syn::ExprMatch> {
    let Expr::Match(m) = only_expr(branch) else {
        return None;
    };
    let some = |p: &Pat| matches!(p, Pat::TupleStruct(ts) if ts.path.is_ident("Some"));
    let none =
        |p: &Pat| matches!(p, Pat::Wild(_)) || matches!(p, Pat::Ident(i) if i.ident == "None");
    let by_name = super::failure::names_local(strip_await(&m.expr), name);
    let shaped = m.arms.iter().all(|a| some(&a.pat) || none(&a.pat))
        && m.arms.iter().any(|a| some(&a.pat))
        && m.arms.iter().any(|a| none(&a.pat));
    (by_name && shaped).then_some(m)
}

/// A block of one expression, as that expression.
fn only_expr(branch: &Expr) -> &Expr {
    match branch {
        Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
            syn::Stmt::Expr(e, None) => e,
            _ => branch,
        },
        other => other,
    }
}

/// `anyhow::bail!(..);` as a statement.
fn bail_statement(stmt: &syn::Stmt) -> Option<&syn::Macro> {
    let mac = match stmt {
        syn::Stmt::Macro(m) => &m.mac,
        syn::Stmt::Expr(Expr::Macro(m), _) => &m.mac,
        _ => return None,
    };
    (last_segment(&mac.path).as_deref() == Some("bail")).then_some(mac)
}

/// `self.tool_router.has_route(name)`, `TOOLS.contains(&name)`: a test that the name is known,
/// so an early `return` under it routes the known names away and the unknown ones go on.
fn routes_known_names(cond: &Expr) -> bool {
    let method = match crate::syntax::strip_parens(cond) {
        Expr::MethodCall(m) => m.method.to_string(),
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => last_segment(&p.path).unwrap_or_default(),
            _ => return false,
        },
        _ => return false,
    };
    method.starts_with("has_") || method == "contains" || method == "contains_key"
}
