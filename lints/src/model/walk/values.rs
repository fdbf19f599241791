//! Values a body computes before it builds an error: a code picked by a `match` over a crate
//! enum into a local (`let code = match &e { Error::Validation(_) => INVALID_PARAMS, _ =>
//! INTERNAL_ERROR };`, or one element of a tuple, `let (code, msg) = match e { .. }`). A
//! construction that takes such a local as its code is one site per arm, each with the arm's
//! code and the variants that reach the arm, so a call that passes one variant gets its code.

use syn::{Expr, Pat};

use super::{ArmCode, Walker};
use crate::syntax::tail_expr;

impl<'a> Walker<'a, '_> {
    /// `let PAT = match scrutinee { .. }`: records the names of PAT whose value is a code in
    /// every arm that yields one; any other `let` forgets the names it rebinds.
    pub(super) fn code_local(&mut self, local: &'a syn::Local) {
        let names = code_names(&local.pat);
        for (name, _) in &names {
            self.code_locals.remove(name);
        }
        let Some(Expr::Match(m)) = local.init.as_ref().map(|i| strip_parens(&i.expr)) else {
            return;
        };
        // Only a scrutinee of a crate enum says which variant reaches which arm.
        let Some(e) = self.resolver.type_of(&m.expr, &self.locals) else {
            return;
        };
        'names: for (name, element) in names {
            let mut arms = Vec::new();
            for arm in &m.arms {
                if diverges(&arm.body) {
                    continue;
                }
                let value = tail_expr(&arm.body);
                let value = match (element, value) {
                    (None, v) => v,
                    (Some(i), Expr::Tuple(t)) => match t.elems.iter().nth(i) {
                        Some(v) => v,
                        None => continue 'names,
                    },
                    _ => continue 'names,
                };
                let (Some(tag), Some(code)) = (
                    self.variant_tag(e, &arm.pat, &m.arms),
                    self.dialect.code_use(value, self.index),
                ) else {
                    continue 'names;
                };
                arms.push(ArmCode {
                    variant: tag,
                    value: code.value,
                    written: code.written,
                    span: self.file.span_of(value),
                });
            }
            if !arms.is_empty() {
                self.code_locals.insert(name, arms);
            }
        }
    }

    /// The arm codes of the code local a construction's arguments name, if any.
    pub(super) fn arm_codes_of(&self, expr: &Expr) -> Option<Vec<ArmCode>> {
        let Expr::Call(c) = expr else {
            return None;
        };
        c.args.iter().find_map(|a| {
            let Expr::Path(p) = strip_parens(a) else {
                return None;
            };
            let id = p.path.get_ident()?.to_string();
            self.code_locals.get(&id).cloned()
        })
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

fn strip_parens(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(p) => strip_parens(&p.expr),
        Expr::Group(g) => strip_parens(&g.expr),
        other => other,
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
