//! The error values a body returns, for a fn declared to fail with one of the crate's enums
//! (`fn find(..) -> Result<_, StoreError>`): the variants it builds in return position
//! (`Err(StoreError::Missing(..))`, `.map_err(|_| StoreError::Stale(..))?`) and the fns whose
//! errors of that enum it passes on (`load(..)?`, a tail call). Anything else in return position
//! may be any variant. The summaries close this over the call graph, so a `?` on a call of `find`
//! reaches only the arms of the variants `find` can return.

use std::collections::HashSet;

use syn::{Expr, Stmt};

use super::Walker;
use crate::model::callgraph::{CrateCalls, Locals, OwnFailures, Resolver, Target};
use crate::model::ids::{BodyId, ItemId};
use crate::model::site::{ErrorSource, Origin, SiteContext};
use crate::syntax::{err_payload, ok_payload, strip_await};

/// The leaves of the value an expression evaluates to: the tails of blocks, both branches of an
/// `if`, every arm of a `match`.
pub(super) fn tails(expr: &Expr, out: &mut HashSet<*const Expr>, depth: usize) {
    leaves_from(
        expr,
        &mut |leaf| {
            out.insert(leaf);
        },
        depth,
    );
}

pub(super) fn block_tails(block: &syn::Block, out: &mut HashSet<*const Expr>, depth: usize) {
    for e in crate::syntax::block_values(block) {
        tails(e, out, depth);
    }
}

/// Each leaf of the value `expr` evaluates to ([`tails`]), handed to `found`.
pub(super) fn leaves<'e>(expr: &'e Expr, found: &mut dyn FnMut(&'e Expr)) {
    leaves_from(expr, found, 0);
}

fn leaves_from<'e>(expr: &'e Expr, found: &mut dyn FnMut(&'e Expr), depth: usize) {
    if depth > 64 {
        return found(expr);
    }
    let block = |b: &'e syn::Block, found: &mut dyn FnMut(&'e Expr)| {
        for e in crate::syntax::block_values(b) {
            leaves_from(e, found, depth + 1);
        }
    };
    match expr {
        Expr::Block(b) => block(&b.block, found),
        Expr::Unsafe(u) => block(&u.block, found),
        Expr::Paren(p) => leaves_from(&p.expr, found, depth + 1),
        Expr::Group(g) => leaves_from(&g.expr, found, depth + 1),
        Expr::If(i) => {
            block(&i.then_branch, found);
            if let Some((_, e)) = &i.else_branch {
                leaves_from(e, found, depth + 1);
            }
        }
        Expr::Match(m) => {
            for arm in &m.arms {
                leaves_from(&arm.body, found, depth + 1);
            }
        }
        other => found(other),
    }
}

/// Macros that never return a value.
pub(super) fn diverges(mac: &syn::Macro) -> bool {
    mac.path.segments.last().is_some_and(|s| {
        matches!(
            s.ident.to_string().as_str(),
            "panic" | "todo" | "unimplemented" | "unreachable"
        )
    })
}

/// `bail!(..)` (anyhow, eyre) as a value: it returns `Err` of its message.
pub(super) fn is_bail(expr: &Expr) -> bool {
    matches!(expr, Expr::Macro(m) if m.mac.path.segments.last().is_some_and(|s| s.ident == "bail"))
}

/// Macros that neither return from the fn nor hold a `?` of its own: formatting, logging,
/// assertions (which panic, not fail).
const NON_RETURNING_MACROS: &[&str] = &[
    "format",
    "format_args",
    "vec",
    "json",
    "println",
    "eprintln",
    "print",
    "eprint",
    "debug",
    "info",
    "warn",
    "error",
    "trace",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "matches",
    "concat",
    "stringify",
    "write",
    "writeln",
    "panic",
    "todo",
    "unimplemented",
    "unreachable",
    "event",
    "span",
    "include_str",
    "env",
];

/// How the fn body `block` can fail ([`OwnFailures`]): from the operands of its `?`, its `return`s
/// and its tail leaves, with no macro that could return (`bail!`). `own_fault_call` says whether
/// a call fails only on server faults (a crate fn's own [`OwnFailures`]). Closures, `async` blocks
/// and nested items have their own returns and are not looked into.
pub(super) fn own_failures(
    block: &syn::Block,
    own_fault_call: &dyn Fn(&Expr) -> bool,
) -> OwnFailures {
    let mut r = Returns {
        other: false,
        fails: false,
        own_fault_call,
    };
    match block.stmts.last() {
        // A `return ..;` last: the visit checks its value.
        Some(Stmt::Expr(Expr::Return(_), Some(_))) => {}
        Some(Stmt::Expr(e, None)) => r.returned(e),
        _ => r.other = true,
    }
    syn::visit::Visit::visit_block(&mut r, block);
    r.failures()
}

/// Whether `value`, a branch of a fn's body (a `match` arm), is `Ok(..)` on every path: no `?`,
/// no `return` of anything else, and `Ok(..)` at every leaf.
pub(super) fn value_never_fails(value: &Expr) -> bool {
    let mut r = Returns {
        other: false,
        fails: false,
        own_fault_call: &|_| false,
    };
    r.returned(value);
    syn::visit::Visit::visit_expr(&mut r, value);
    r.failures() == OwnFailures::Never
}

/// What [`own_failures`] finds, visiting a body.
struct Returns<'c> {
    other: bool,
    fails: bool,
    own_fault_call: &'c dyn Fn(&Expr) -> bool,
}

impl Returns<'_> {
    /// A value returned: `Ok(..)` at every leaf, or a call that fails only on a server
    /// fault (`serde_json::to_string_pretty(doc)` as the tail).
    fn returned(&mut self, value: &Expr) {
        let mut leaves = Vec::new();
        super::calls::value_leaves(value, &mut leaves, 0);
        for l in leaves {
            let l = strip_await(l);
            if matches!(l, Expr::Call(c) if matches!(&*c.func, Expr::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == "Ok")))
            {
                continue;
            }
            if self.fails_on_server_fault(l) {
                self.fails = true;
            } else {
                self.other = true;
            }
        }
    }

    /// Through `.map_err(..)`: `self.entries.read().map_err(|_| "poisoned".to_string())?` fails
    /// as the lock does.
    fn fails_on_server_fault(&self, e: &Expr) -> bool {
        let e = through_mappings(e);
        super::failure::is_serializing_call(e) || takes_lock(e) || (self.own_fault_call)(e)
    }

    fn failures(&self) -> OwnFailures {
        match (self.other, self.fails) {
            (true, _) => OwnFailures::Other,
            (false, true) => OwnFailures::ServerFaultOnly,
            (false, false) => OwnFailures::Never,
        }
    }
}

impl<'v> syn::visit::Visit<'v> for Returns<'_> {
    fn visit_expr_try(&mut self, t: &'v syn::ExprTry) {
        if self.fails_on_server_fault(&t.expr) {
            self.fails = true;
        } else {
            self.other = true;
        }
        syn::visit::visit_expr_try(self, t);
    }
    fn visit_expr_return(&mut self, r: &'v syn::ExprReturn) {
        match r.expr.as_deref() {
            Some(v) => self.returned(v),
            None => self.other = true,
        }
        syn::visit::visit_expr_return(self, r);
    }
    fn visit_macro(&mut self, m: &'v syn::Macro) {
        let known = m
            .path
            .segments
            .last()
            .is_some_and(|s| NON_RETURNING_MACROS.contains(&s.ident.to_string().as_str()));
        self.other |= !known;
    }
    fn visit_expr_closure(&mut self, _: &'v syn::ExprClosure) {}
    fn visit_expr_async(&mut self, _: &'v syn::ExprAsync) {}
    fn visit_item(&mut self, _: &'v syn::Item) {}
}

/// `self.entries.write()`, `self.state.lock()`: taking a std lock, which fails only when
/// poisoned.
fn takes_lock(expr: &Expr) -> bool {
    matches!(strip_await(expr), Expr::MethodCall(m) if m.args.is_empty()
        && matches!(m.method.to_string().as_str(), "lock" | "read" | "write"))
}

/// `operand` through the methods that keep its failure (`.map_err(..)`, `.map(..)`).
fn through_mappings(operand: &Expr) -> &Expr {
    crate::syntax::through_methods(operand, &["map_err", "map", "inspect", "inspect_err"])
}

/// [`own_failures`] of a crate fn's body, the crate fns it calls resolved in its own scope
/// and read uncached a few levels deep (no two fns wait on each other's cached answer).
fn callee_failures(
    calls: &CrateCalls<'_, '_>,
    block: &syn::Block,
    sig: &syn::Signature,
    depth: usize,
) -> OwnFailures {
    const MAX_DEPTH: usize = 3;
    let resolver = Resolver {
        defs: calls.defs,
        types: calls.types,
        scope: calls.defs.fn_scope(sig),
    };
    let fails_on_server_fault = |call: &Expr| {
        if depth >= MAX_DEPTH {
            return false;
        }
        let Some(Target::Fn(f)) = resolver.call_target(through_mappings(call), &Locals::default())
        else {
            return false;
        };
        calls.blocks.get(&f).is_some_and(|(b, _, s)| {
            !std::ptr::eq(*b, block)
                && callee_failures(calls, b, s, depth + 1) == OwnFailures::ServerFaultOnly
        })
    };
    own_failures(block, &fails_on_server_fault)
}

impl<'a> Walker<'a, '_> {
    /// Whether the call at the root of `operand` (through `.await`, `.map_err(..)`, `.map(..)`)
    /// is of a crate fn that returns `Ok(..)` on every path but a server fault
    /// ([`own_failures`]): its error, and any conversion or mapping of it, is no tool failure.
    pub(super) fn never_fails(&self, operand: &Expr) -> bool {
        self.own_failures_of(operand) != OwnFailures::Other
    }

    /// [`Self::never_fails`] for a crate fn that can fail at all: its failure is a server fault.
    /// One that returns `Ok` on every path is not: the arm that answers its error is dead code,
    /// which says nothing of what it would be.
    pub(super) fn fails_only_on_server_fault(&self, operand: &Expr) -> bool {
        self.own_failures_of(operand) == OwnFailures::ServerFaultOnly
    }

    /// [`own_failures`] of the crate fn called at the root of `operand`, found once per fn.
    fn own_failures_of(&self, operand: &Expr) -> OwnFailures {
        let Some(f) = self.called_fn(through_mappings(operand)) else {
            return OwnFailures::Other;
        };
        let (Some(body), Some((block, file, sig))) =
            (self.calls.body(f), self.calls.blocks.get(&f))
        else {
            return OwnFailures::Other;
        };
        if body == self.body.id {
            return OwnFailures::Other;
        }
        self.read_from(*file);
        *self.calls.never_errs[body.0].get_or_init(|| callee_failures(self.calls, block, sig, 1))
    }

    /// The crate type (enum or struct) a body's signature says it fails with.
    pub(super) fn declared_error_type(&self) -> Option<ItemId> {
        self.resolver.declared_error_item(self.body.sig?)
    }

    /// A leaf of a value this body returns.
    pub(super) fn returned_value(&mut self, expr: &'a Expr) {
        if self.fails_with_text {
            self.returned_text_leaf(expr);
        }
        let Some(e) = self.returned.error_enum else {
            // `other => Err(format!("unknown tool: {other}"))` of a fn failing with text, or
            // `other => anyhow::bail!("unknown tool: {other}")`.
            if err_payload(strip_await(expr)).is_some() || is_bail(expr) {
                self.unknown_tool_value(expr, None, self.arm.clone());
            } else if ok_payload(strip_await(expr)).is_none() {
                self.text_errors_through(expr);
            }
            return;
        };
        match strip_await(expr) {
            e if crate::syntax::is_ok_call(e) => {}
            Expr::Call(c)
                if c.args.len() == 1
                    && matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Err")) =>
            {
                match self.error_variant_of(&c.args[0]) {
                    Some((id, v)) if id == e => {
                        self.unknown_tool_value(expr, Some((id, v.clone())), self.arm.clone());
                        self.returned_variant(v)
                    }
                    _ => self.returned.unknown = true,
                }
            }
            Expr::Macro(m) if diverges(&m.mac) => {}
            Expr::Return(_) | Expr::Loop(_) | Expr::While(_) | Expr::ForLoop(_) => {}
            other => self.returned_operand(other),
        }
    }

    /// A value whose error this body passes on (the operand of `?`, a returned call).
    pub(super) fn returned_operand(&mut self, operand: &'a Expr) {
        let source = self.operand_error_type(operand);
        let error_enum = self.returned.error_enum;
        // `self.tools.get(name).ok_or_else(|| ..)?`: the registry's miss is the unknown tool's
        // answer, as `let Some(i) = .. else { return Err(..) }` is.
        if let Some((name, miss_value)) = self.registry_miss(operand) {
            let context = Some(SiteContext::UnknownToolArm { binding: name });
            match (error_enum, &source) {
                // `Error::Tool(format!("Unknown tool: .."))`: that variant, where the miss
                // builds it.
                (Some(e), ErrorSource::Local(id, Some(v))) if *id == e => {
                    self.unknown_tool_value(miss_value, Some((*id, v.clone())), context)
                }
                // A fn failing with text or a crate struct: at the error value the miss gives
                // (`format!("unknown tool '{name}'")`).
                (None, _) => self.unknown_tool_value(miss_value, None, context),
                _ => {}
            }
        }
        match source {
            ErrorSource::Local(id, Some(v)) if Some(id) == error_enum => self.returned_variant(v),
            // `self.registry.resolve(&request.name)?` in a fn failing with the same crate type
            // (enum or struct): its errors are passed on as they are.
            ErrorSource::Local(id, None) if Some(id) == self.declared_error => {
                match self.called_fn(operand).and_then(|f| self.calls.body(f)) {
                    Some(b) => {
                        if !self.returned.through.contains(&b) {
                            self.returned.through.push(b);
                        }
                    }
                    None => self.returned.unknown = true,
                }
            }
            // `fs::read_to_string(path)?` in a fn failing with the crate enum: the variant its
            // `From<std::io::Error>` builds.
            ErrorSource::External(name) if error_enum.is_some() => {
                match error_enum
                    .and_then(|e| Some((e, self.external_conversion_variant(e, &name)?)))
                {
                    Some((e, v)) => {
                        self.variant_converted(operand, e, v.clone());
                        self.returned_variant(v)
                    }
                    None => self.returned.unknown = true,
                }
            }
            // `self.http.get(url).send().await?`: another crate's error, of a type the source
            // does not name: one of the variants the enum's conversions of such errors build.
            ErrorSource::Unknown if error_enum.is_some() && self.of_another_crate(operand) => {
                match error_enum.and_then(|e| self.external_conversion_variants(e)) {
                    Some(vs) => vs.into_iter().for_each(|v| self.returned_variant(v)),
                    None => self.returned.unknown = true,
                }
            }
            _ => {
                self.text_errors_through(operand);
                self.returned.unknown = true;
            }
        }
    }

    /// A call of another crate's fn (`tokio::fs::read(p)`), or a method chain on a value of
    /// another crate's type (`self.http.get(url).send()`, `OpenOptions::new().open(p)`, a local
    /// bound to one): what it fails with is never this crate's type, unless a crate method in
    /// the chain may be called.
    fn of_another_crate(&self, operand: &Expr) -> bool {
        self.of_another_crate_depth(operand, 0)
    }

    fn of_another_crate_depth(&self, operand: &Expr, depth: usize) -> bool {
        if depth > 4 {
            return false;
        }
        let mut root = strip_await(operand);
        loop {
            match root {
                Expr::MethodCall(mc) => {
                    let method = mc.method.to_string();
                    match self
                        .resolver
                        .method_target(&mc.receiver, &method, &self.locals)
                    {
                        Target::NotCrateFn | Target::Unknown => {}
                        // By name only: a crate method of another type is not called here.
                        Target::Candidates(fns)
                            if fns.iter().all(|f| {
                                self.calls
                                    .types
                                    .scope_of(*f)
                                    .and_then(|s| self.calls.types.self_type(s))
                                    .is_some()
                            }) => {}
                        _ => return false,
                    }
                    if self.resolver.of_external_type(&mc.receiver, &self.locals) {
                        return true;
                    }
                    root = strip_await(&mc.receiver);
                }
                Expr::Path(p) if p.path.get_ident().is_some() => {
                    return self.let_init(root).is_some_and(|init| {
                        self.of_another_crate_depth(init, depth + 1)
                            || self.returns_external_value(init)
                    });
                }
                Expr::Try(t) => root = strip_await(&t.expr),
                _ => return self.external_fn(root).is_some(),
            }
        }
    }

    /// `check_status(resp).await?` of a crate fn declared `-> Result<reqwest::Response, ..>`:
    /// its value is of another crate's type.
    fn returns_external_value(&self, init: &Expr) -> bool {
        let call = match strip_await(init) {
            Expr::Try(t) => &t.expr,
            other => other,
        };
        let Some(f) = self.called_fn(call) else {
            return false;
        };
        let (Some((_, _, sig)), Some(scope)) =
            (self.calls.blocks.get(&f), self.calls.types.scope_of(f))
        else {
            return false;
        };
        let syn::ReturnType::Type(_, ty) = &sig.output else {
            return false;
        };
        let syn::Type::Path(p) = &**ty else {
            return false;
        };
        crate::syntax::result_error_type(ty).is_some()
            && p.path
                .segments
                .last()
                .and_then(|s| crate::syntax::type_arguments(&s.arguments).next())
                .is_some_and(|ok| {
                    crate::types::names_external_type(self.calls.defs, scope.module, ok)
                })
    }

    /// Every variant of crate enum `e` that a conversion of another crate's error builds (its
    /// `#[from]` fields and `fn from(e: reqwest::Error) -> Self { Self::Http(e) }`), when the
    /// source says each.
    fn external_conversion_variants(&self, e: ItemId) -> Option<Vec<String>> {
        let syn::Item::Enum(item) = self.calls.defs.item(e).syntax else {
            return None;
        };
        let module = self.calls.defs.item(e).module;
        let mut variants: Vec<String> = item
            .variants
            .iter()
            .filter(|v| {
                v.fields.iter().any(|f| {
                    f.attrs.iter().any(|a| a.path().is_ident("from"))
                        && crate::types::resolve_type_item(self.calls.defs, module, &f.ty, None)
                            .is_none()
                })
            })
            .map(|v| v.ident.to_string())
            .collect();
        for f in self.calls.external_from_fns_into(e) {
            variants.push(self.variant_from_builds(f, e)?);
        }
        variants.sort();
        variants.dedup();
        (!variants.is_empty()).then_some(variants)
    }

    /// The variant of crate enum `e` that its one `From<name>` builds (`fn from(e: io::Error)
    /// -> Self { AppError::Io(e) }`, or a `#[from]` field), when the source says.
    fn external_conversion_variant(&self, e: ItemId, name: &str) -> Option<String> {
        let source = ErrorSource::External(name.to_string());
        if let Some(v) = self.variant_wrapping(e, &source) {
            return Some(v);
        }
        let f = self
            .calls
            .only_from_fn_into(self.calls.external_from_fns_of(name), e)?;
        self.variant_from_builds(f, e)
    }

    /// The variant of crate enum `e` that `fn from` `f` ends in (`Self::Io(e)`).
    fn variant_from_builds(&self, f: crate::types::FnKey, e: ItemId) -> Option<String> {
        match self.tail_variant(f) {
            Some((id, v)) if id == e => Some(v),
            _ => None,
        }
    }

    /// The variant of a crate enum that crate fn `f`'s body ends in (`Self::Io(e)`,
    /// `AppError::Invalid { field, reason: reason.into() }`).
    fn tail_variant(&self, f: crate::types::FnKey) -> Option<(ItemId, String)> {
        let (block, _, _) = self.calls.blocks.get(&f)?;
        let resolver = Resolver {
            defs: self.calls.defs,
            types: self.calls.types,
            scope: self.calls.types.scope_of(f),
        };
        resolver.variant_of(crate::syntax::tail_of(block)?, &Locals::default())
    }

    /// The variant of a crate enum an error value is: built in place (`AppError::NotFound(..)`),
    /// or by a crate constructor whose body ends in one (`AppError::invalid(field, ..)` with
    /// `fn invalid(..) -> Self { AppError::Invalid { .. } }`).
    pub(super) fn error_variant_of(&self, value: &Expr) -> Option<(ItemId, String)> {
        if let Some(found) = self.resolver.variant_of(value, &self.locals) {
            return Some(found);
        }
        let Expr::Call(c) = value else { return None };
        if !matches!(&*c.func, Expr::Path(_)) {
            return None;
        }
        self.tail_variant(self.called_fn(value)?)
    }

    /// `call_tool(name, params)` (returned, or with `?`) in a fn failing with text: what the
    /// crate fn fails with reaches this fn's callers as it is (the unknown tool's
    /// `Err(format!(..))` among it), for no variant.
    fn text_errors_through(&mut self, operand: &Expr) {
        if !self.fails_with_text {
            return;
        }
        if let Some(b) = self.called_fn(operand).and_then(|f| self.calls.body(f)) {
            if b != self.body.id && !self.returned.through.contains(&b) {
                self.returned.through.push(b);
            }
        }
    }

    /// `registry.get(name).ok_or_else(|| ..)` (also through `.map(..)` / `.copied()` /
    /// `.cloned()` on the found entry): the name of the tool a registry lookup misses, and the
    /// error value the miss gives (the closure's body, or `ok_or`'s argument).
    fn registry_miss(&self, operand: &'a Expr) -> Option<(String, &'a Expr)> {
        let Expr::MethodCall(mc) = strip_await(operand) else {
            return None;
        };
        if !mc.method.to_string().starts_with("ok_or") {
            return None;
        }
        let mut found = &*mc.receiver;
        while let Expr::MethodCall(inner) = found {
            if !matches!(
                inner.method.to_string().as_str(),
                "map" | "copied" | "cloned"
            ) {
                break;
            }
            found = &inner.receiver;
        }
        let name = self.tool_registry_lookup(found)?;
        let value = match mc.args.first() {
            Some(Expr::Closure(c)) => &*c.body,
            Some(other) => other,
            None => operand,
        };
        Some((name, value))
    }

    /// In the unknown-tool branch (`context`), the `Err` returned (a variant of the crate's error
    /// enum, or other error text) is that answer (see [`Origin::ReturnedUnknownTool`]).
    fn unknown_tool_value(
        &mut self,
        value: &Expr,
        variant: Option<(ItemId, String)>,
        context: Option<SiteContext>,
    ) {
        let Some(context @ SiteContext::UnknownToolArm { .. }) = context else {
            return;
        };
        self.answered_elsewhere(value, Origin::ReturnedUnknownTool { variant }, context);
    }

    fn returned_variant(&mut self, v: String) {
        if !self.returned.variants.contains(&v) {
            self.returned.variants.push(v);
        }
    }

    /// The body whose error value a `?` operand (or `.map_err(From::from)` receiver) converts,
    /// when it is a call of a crate fn declared to fail with a crate type.
    pub(super) fn errors_of(&self, operand: &Expr) -> Option<BodyId> {
        match self.operand_error_type(operand) {
            ErrorSource::Local(_, None) => self.called_fn(operand).and_then(|f| self.calls.body(f)),
            _ => None,
        }
    }
}
