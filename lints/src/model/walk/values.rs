//! Values a body computes before it builds an error: a code picked by a `match` over a crate
//! enum into a local (`let code = match &e { Error::Validation(_) => INVALID_PARAMS, _ =>
//! INTERNAL_ERROR };`, or one element of a tuple, `let (code, msg) = match e { .. }`). A
//! construction that takes such a local as its code is one site per arm, each with the arm's
//! code and the variants that reach the arm, so a call that passes one variant gets its code.
//! A code picked by an `if` chain (`if s.contains("rate limit") { -32002 } else { -32603 }`)
//! is one of its branches' codes, for no variant the source can tell.

use syn::{Expr, Pat};

use super::{ArmCode, Walker};
use crate::model::callgraph::Target;
use crate::syntax::{strip_parens, tail_expr};
use crate::types::FnKey;

impl<'a> Walker<'a, '_> {
    /// `let PAT = match scrutinee { .. }`: records the names of PAT whose value is a code in
    /// every arm that yields one; any other `let` forgets the names it rebinds.
    pub(super) fn code_local(&mut self, local: &'a syn::Local) {
        let names = code_names(&local.pat);
        for (name, _) in &names {
            self.code_locals.remove(name);
        }
        let init = local.init.as_ref().map(|i| strip_parens(&i.expr));
        // `let (code, message) = map_error(&e);`: the codes a crate fn returns per variant.
        if let Some(call @ (Expr::Call(_) | Expr::MethodCall(_))) = init {
            if let Some(Target::Fn(f)) = self.resolver.call_target(call, &self.locals) {
                for (name, element) in names {
                    if let Some(arms) = self.arm_codes_returned_by(f, element) {
                        self.code_locals.insert(name, arms);
                    }
                }
            }
            return;
        }
        // The mapping's branches: the arms of a `match`, or the whole `if` chain as one branch
        // of no known variant (`let (code, message) = if s.contains("rate limit") { (-32002,
        // ..) } else { (-32603, ..) }`: the source cannot tell which branch an error takes).
        let (branches, all_arms, e): (Vec<(Option<&syn::Arm>, &Expr)>, &[syn::Arm], _) = match init
        {
            Some(Expr::Match(m)) => (
                m.arms.iter().map(|a| (Some(a), &*a.body)).collect(),
                &m.arms[..],
                self.resolver.type_of(&m.expr, &self.locals),
            ),
            Some(chain @ Expr::If(i)) if i.else_branch.is_some() => {
                (vec![(None, chain)], &[], None)
            }
            _ => return,
        };
        // Only a scrutinee of a crate enum says which variant reaches which arm; for another
        // crate's value (`match &e { OrgError::InvalidTag(_) => INVALID_PARAMS, _ =>
        // INTERNAL_ERROR }`) each arm's code is one the local can hold.
        'names: for (name, element) in names {
            let mut arms = Vec::new();
            let mut one_of = Vec::new();
            for &(arm, body) in &branches {
                if diverges(body) {
                    continue;
                }
                let tag = match (e, arm) {
                    (Some(e), Some(arm)) => match self.variant_tag(e, &arm.pat, all_arms) {
                        Some(tag) => Some(tag),
                        None => continue 'names,
                    },
                    _ => None,
                };
                // `Error::Rpc { code, .. } => match *code { -32700 => PARSE_ERROR, _ =>
                // INTERNAL_ERROR }`: each value the arm can yield is a code its variant may get.
                for value in arm_values(body) {
                    let Some(value) = element_of(value, element) else {
                        continue 'names;
                    };
                    let Some(code) = self.dialect.code_use(value, self.index) else {
                        continue 'names;
                    };
                    if tag.is_none() && !one_of.contains(&code.value) {
                        one_of.push(code.value);
                    }
                    // Whether another crate's variant is about an argument's value the source
                    // does not tell: its -32602 is left alone.
                    if e.is_none() && code.value == crate::codes::INVALID_PARAMS {
                        continue;
                    }
                    arms.push(ArmCode {
                        variant: tag.clone(),
                        value: code.value,
                        written: code.written,
                        span: self.file.span_of(value),
                        written_in: None,
                        one_of: Vec::new(),
                    });
                }
            }
            // Untagged branches with different codes: each site holds one code of several.
            if one_of.len() > 1 {
                for arm in arms.iter_mut().filter(|a| a.variant.is_none()) {
                    arm.one_of = one_of.clone();
                }
            }
            if !arms.is_empty() {
                self.code_locals.insert(name, arms);
            }
        }
    }

    /// The arm codes of the code local a construction's arguments name, or of the method that
    /// returns the code (`ErrorCode(e.rpc_code())`, `error(id, e.to_mcp_code(), ..)`), if any.
    pub(super) fn arm_codes_of(&self, expr: &Expr) -> Option<Vec<ArmCode>> {
        // `ErrorData { code: error_code, message, data }`: the code field.
        let code_args: Vec<&Expr> = match expr {
            Expr::Call(c) => c.args.iter().collect(),
            Expr::Struct(s) => crate::syntax::field_value(s, "code").into_iter().collect(),
            _ => return None,
        };
        code_args
            .into_iter()
            .find_map(|a| self.arm_codes_of_code(a))
    }

    /// The arm codes of a code expression: a code local (`code`), the method that returns the
    /// code per variant (`e.rpc_code()`), either inside a newtype (`ErrorCode(code)`).
    pub(super) fn arm_codes_of_code(&self, code: &Expr) -> Option<Vec<ArmCode>> {
        let code = match strip_parens(code) {
            Expr::Call(w) if w.args.len() == 1 => strip_parens(&w.args[0]),
            other => other,
        };
        match code {
            Expr::Path(p) => {
                let id = p.path.get_ident()?.to_string();
                self.code_locals.get(&id).cloned()
            }
            Expr::MethodCall(m) if m.args.is_empty() => self.returned_arm_codes(m),
            _ => None,
        }
    }

    /// A constructor that takes its code as an argument, given a method that returns one per
    /// variant there (`McpResponse::error(id, e.to_mcp_code(), e.to_string())`).
    pub(super) fn construction_with_returned_code(
        &self,
        call: &'a syn::ExprCall,
    ) -> Option<crate::sdk::Construction<'a>> {
        // Only JSON-RPC error codes make the argument a code (`log_error(e.severity(), ..)`
        // with severities 1..3 is no error response).
        let code_at = || {
            call.args.iter().position(|a| {
                matches!(strip_parens(a), Expr::MethodCall(m)
                if m.args.is_empty() && self.returned_arm_codes(m).is_some_and(|arms| {
                    arms.iter().all(|arm| (-32768..=-32000).contains(&arm.value))
                }))
            })
        };
        self.dialect.construction_with_code_at(call, &code_at)
    }

    /// `e.rpc_code()` where the crate method is `fn rpc_code(&self) -> i32 { match self {
    /// Error::NotFound(_) => -32001, .. } }`: per arm, the code and the variants that get it.
    fn returned_arm_codes(&self, m: &syn::ExprMethodCall) -> Option<Vec<ArmCode>> {
        let Target::Fn(f) =
            self.resolver
                .method_target(&m.receiver, &m.method.to_string(), &self.locals)
        else {
            return None;
        };
        self.arm_codes_returned_by(f, None)
    }

    /// The codes crate fn `f` returns per variant of the enum it matches: `fn rpc_code(&self) ->
    /// i32 { match self { .. } }`, or `fn map_error(e: &Error) -> (i32, String) { match e { ..
    /// } }` with `element` the tuple element that is the code. Per arm, the code and the
    /// variants that get it.
    fn arm_codes_returned_by(&self, f: FnKey, element: Option<usize>) -> Option<Vec<ArmCode>> {
        let types = self.calls.types;
        let syn::ReturnType::Type(_, ret) = types.return_syntax(f)? else {
            return None;
        };
        let is_code_type = |t: &syn::Type| {
            crate::syntax::type_name(t)
                .is_some_and(|n| matches!(n.as_str(), "i16" | "i32" | "i64" | "isize"))
        };
        let integer = match (element, &**ret) {
            (None, t) => is_code_type(t),
            (Some(i), syn::Type::Tuple(t)) => t.elems.iter().nth(i).is_some_and(is_code_type),
            _ => false,
        };
        let scope = types.scope_of(f)?;
        let (block, file, _) = *self.calls.blocks.get(&f)?;
        let Some(syn::Stmt::Expr(Expr::Match(mm), None)) = block.stmts.last() else {
            return None;
        };
        if !integer {
            return None;
        }
        // The enum matched: `self` in a method of it, or the fn's one parameter.
        let scrutinee = strip_self_refs(&mm.expr);
        let e = if crate::syntax::is_self(scrutinee) {
            types.self_type(scope)?
        } else {
            // SAFETY of the deref: `FnKey`s point into syntax trees that outlive the analysis.
            let sig = unsafe { &*f };
            let [syn::FnArg::Typed(param)] = sig.inputs.iter().collect::<Vec<_>>()[..] else {
                return None;
            };
            let (Pat::Ident(name), Expr::Path(p)) = (&*param.pat, scrutinee) else {
                return None;
            };
            if !p.path.is_ident(&name.ident) {
                return None;
            }
            let ty = match &*param.ty {
                syn::Type::Reference(r) => &*r.elem,
                other => other,
            };
            crate::types::resolve_type_item(self.calls.defs, scope.module, ty, None)?
        };
        self.read_from(file);
        let body = self.calls.body(f)?;
        let source = self.calls.sources.get(file.0)?.as_ref()?;
        let mut arms = Vec::new();
        for arm in &mm.arms {
            let variant = self.variant_tag(e, &arm.pat, &mm.arms)?;
            for value in arm_values(&arm.body) {
                let Some(value) = element_of(value, element) else {
                    continue;
                };
                // The fn returns a plain integer: each arm's value is the code as written (a
                // literal or a const), whatever the SDK wraps codes in. An arm whose code the
                // source does not state (`Error::Rpc { code, .. } => *code`) gives no site.
                let Some(code) = self.index.eval_int(value) else {
                    continue;
                };
                arms.push(ArmCode {
                    variant: Some(variant.clone()),
                    value: code,
                    written: crate::syntax::TokensString::to_token_stream_string(value),
                    span: source.span_of(value),
                    written_in: Some((file, body)),
                    one_of: Vec::new(),
                });
            }
        }
        (!arms.is_empty()).then_some(arms)
    }
}

/// `self`, `*self`, `&self`.
fn strip_self_refs(expr: &Expr) -> &Expr {
    match expr {
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => strip_self_refs(&u.expr),
        Expr::Reference(r) => strip_self_refs(&r.expr),
        Expr::Paren(p) => strip_self_refs(&p.expr),
        other => other,
    }
}

/// The names a `let` pattern binds directly or as a tuple element (`code`, `(code, msg)`).
fn code_names(pat: &Pat) -> Vec<(String, Option<usize>)> {
    match pat {
        Pat::Ident(i) if i.subpat.is_none() => vec![(i.ident.to_string(), None)],
        Pat::Type(t) => code_names(&t.pat),
        Pat::Tuple(t) => t
            .elems
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p {
                Pat::Ident(id) if id.subpat.is_none() => Some((id.ident.to_string(), Some(i))),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The value itself, or its tuple element `element` (`(code, message)`), when it has one.
fn element_of(value: &Expr, element: Option<usize>) -> Option<&Expr> {
    match (element, value) {
        (None, v) => Some(v),
        (Some(i), Expr::Tuple(t)) => t.elems.iter().nth(i),
        _ => None,
    }
}

/// The values an arm's body can yield: its tail, or the tails of a `match` or `if .. else` it
/// ends in, through nested ones (an arm that diverges yields none).
fn arm_values(body: &Expr) -> Vec<&Expr> {
    match tail_expr(body) {
        Expr::Match(m) => m
            .arms
            .iter()
            .filter(|a| !diverges(&a.body))
            .flat_map(|a| arm_values(&a.body))
            .collect(),
        Expr::If(i) => match &i.else_branch {
            Some((_, otherwise)) => {
                // A `then` block without a tail value yields no code: the `if` itself stands
                // for it, which is none, so the local is not a code.
                let mut values = match i.then_branch.stmts.last() {
                    Some(syn::Stmt::Expr(e, None)) if diverges(e) => Vec::new(),
                    Some(syn::Stmt::Expr(e, None)) => arm_values(e),
                    _ => vec![tail_expr(body)],
                };
                if !diverges(otherwise) {
                    values.extend(arm_values(otherwise));
                }
                values
            }
            None => vec![tail_expr(body)],
        },
        other => vec![other],
    }
}

/// An arm that yields no value to the `let`: it returns, breaks, continues or panics.
fn diverges(body: &Expr) -> bool {
    match body {
        Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => true,
        Expr::Macro(m) => super::returns::diverges(&m.mac),
        Expr::Block(b) => matches!(
            b.block.stmts.last(),
            Some(syn::Stmt::Expr(e, _)) if diverges(e)
        ),
        _ => false,
    }
}
