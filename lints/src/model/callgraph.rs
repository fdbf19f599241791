//! The call graph. [`Resolver`]: which fn a call in a body goes to, a path call by its path,
//! imports and `Self`; a method call by its receiver's type where the source states it (`self`,
//! a field, a typed parameter or `let`, a constructor's `-> Self`); a name bound locally (a
//! closure in a `let`) is not a crate fn. When the source cannot tell, the candidates are
//! returned as such, never merged here. The walk records each call as a [`CallEdge`];
//! [`CallGraph`] resolves the edges of the whole crate to bodies once, for the summaries and
//! the reach.
//!
//! The resolver lives here rather than in the walk because it is the one place that decides
//! what a call means: the walk asks it, and so does nothing else.

use std::collections::HashMap;

use quote::ToTokens;

use syn::{Expr, Pat, Type};

use crate::index::{FnItem, Index, Owner};
use crate::model::bodies::BodyInfo;
use crate::model::ids::BodyId;
use crate::model::site::{
    CallEdge, Callee, ErrorConstructor, ErrorSource, FnFacts, ResultFlag, ResultHelper,
};
use crate::model::summary::{BodyCall, ErrorVariants};
use crate::resolve::{Container, Def, DefMap, FnScope, ItemId, ItemKind, Ns};
use crate::sdk::{Construction, Dialect};
use crate::syntax::{
    field_value, is_self, mentions_ident, path_segments, strip_await, strip_parens, strip_refs,
    tail_expr, TokensString,
};
use crate::types::{resolve_type_item, FnKey, Types};

/// Where a call goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// One crate fn.
    Fn(FnKey),
    /// One of these crate methods: the receiver's type is not written anywhere.
    Candidates(Vec<FnKey>),
    /// Any of these: a call on a trait object (`dyn Trait`) runs one impl or another.
    Dispatch(Vec<FnKey>),
    /// A variant of a crate enum (`AppError::NotFound(..)`), by enum and variant name.
    Variant(ItemId, String),
    /// `(self.handler)(args)`: the closures constructors store in this Fn-typed field.
    Slot(ItemId, String),
    /// Another crate's fn, a local closure, a tuple struct's constructor: not a crate fn.
    NotCrateFn,
    /// Nothing the source names.
    Unknown,
}

/// Method names too common to resolve to the crate's own methods when the receiver's type is
/// unknown: they are mostly std's or another crate's.
const COMMON_METHODS: &[&str] = &[
    "new",
    "get",
    "get_mut",
    "set",
    "insert",
    "remove",
    "call",
    "send",
    "run",
    "len",
    "is_empty",
    "clone",
    "from",
    "into",
    "to_string",
    "default",
    "build",
    "with",
    "iter",
    "map",
    "lock",
    "read",
    "write",
    "parse",
    "push",
    "contains",
    "take",
    "await",
    "unwrap",
    "expect",
    "as_ref",
    "as_str",
    "execute",
    "handle",
    "process",
    "next",
    "flush",
    "close",
    "start",
    "stop",
    "update",
    "delete",
    "list",
    "query",
    "fetch",
    "load",
    "save",
    "open",
];

/// The locals in scope while a body is walked, innermost last, with their type when the source
/// states it; and the fn items the enclosing blocks declare (a block's items are in scope in the
/// whole block, a `let` after them shadows them).
#[derive(Default)]
pub struct Locals {
    names: Vec<(String, Binding)>,
    marks: Vec<usize>,
}

#[derive(Clone, Copy, Debug)]
enum Binding {
    /// A local value, with its crate type when known.
    Value(Option<ItemId>),
    /// A parameter of a generic type known only by its bound (`t: &T` with `T: Tool`, `b: impl
    /// Backend`): which impl it is the source does not say.
    Bounded(ItemId),
    /// A fn declared in an enclosing block.
    Fn(FnKey),
    /// An `Option` or `Result` of a crate type (`scroll: Option<&ScrollArg>`): no value of that
    /// type itself, but its `Some(s)` / `Ok(s)` is one.
    Optional(ItemId),
    /// A value declared with another crate's type (`http: &reqwest::Client`): its methods are
    /// that crate's.
    External,
    /// A collection (or a guard of one) whose elements are of a crate type (`let sessions =
    /// self.sessions.lock().await` over `HashMap<Id, Arc<Session>>`).
    Elements(ItemId),
}

impl Locals {
    pub fn push_scope(&mut self) {
        self.marks.push(self.names.len());
    }

    pub fn pop_scope(&mut self) {
        if let Some(m) = self.marks.pop() {
            self.names.truncate(m);
        }
    }

    pub fn bind(&mut self, name: String, ty: Option<ItemId>) {
        self.names.push((name, Binding::Value(ty)));
    }

    /// A local declared `Option<T>` / `Result<T, _>` of a crate type `T`.
    pub fn bind_optional(&mut self, name: String, payload: ItemId) {
        self.names.push((name, Binding::Optional(payload)));
    }

    /// The crate type inside the `Option` / `Result` local `name` holds, unless shadowed.
    pub fn payload_of(&self, name: &str) -> Option<ItemId> {
        match self.lookup(name)? {
            Binding::Optional(t) => Some(t),
            _ => None,
        }
    }

    /// A local holding a collection of a crate type's values.
    pub fn bind_elements(&mut self, name: String, element: ItemId) {
        self.names.push((name, Binding::Elements(element)));
    }

    /// The crate type of the elements of the collection local `name` holds, unless shadowed.
    pub fn elements_of(&self, name: &str) -> Option<ItemId> {
        match self.lookup(name)? {
            Binding::Elements(t) => Some(t),
            _ => None,
        }
    }

    /// A local or parameter declared with another crate's type.
    pub fn bind_external(&mut self, name: String) {
        self.names.push((name, Binding::External));
    }

    /// Whether `name` was declared with another crate's type, unless shadowed.
    pub fn is_external(&self, name: &str) -> bool {
        matches!(self.lookup(name), Some(Binding::External))
    }

    /// A parameter whose type is a crate trait's generic (`T: Tool`, `impl Tool`).
    pub fn bind_bounded(&mut self, name: String, tr: ItemId) {
        self.names.push((name, Binding::Bounded(tr)));
    }

    /// The fn items written as statements of a block, in scope in all of it.
    pub fn bind_fns<'f>(&mut self, fns: impl IntoIterator<Item = &'f syn::ItemFn>) {
        for f in fns {
            self.names
                .push((f.sig.ident.to_string(), Binding::Fn(&f.sig)));
        }
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, b)| *b)
    }

    /// `Some(type)` when `name` is a local (its type `None` when unknown), or a fn of an
    /// enclosing block (no value of a crate type).
    pub fn get(&self, name: &str) -> Option<Option<ItemId>> {
        self.lookup(name).map(|b| match b {
            Binding::Value(ty) => ty,
            Binding::Bounded(_)
            | Binding::Fn(_)
            | Binding::Optional(_)
            | Binding::External
            | Binding::Elements(_) => None,
        })
    }

    /// The fn an enclosing block declares by this name, unless a local shadows it.
    pub fn block_fn(&self, name: &str) -> Option<FnKey> {
        match self.lookup(name)? {
            Binding::Fn(f) => Some(f),
            _ => None,
        }
    }

    /// The crate trait bounding a generic parameter of this name, unless a local shadows it.
    pub fn bound_of(&self, name: &str) -> Option<ItemId> {
        match self.lookup(name)? {
            Binding::Bounded(tr) => Some(tr),
            _ => None,
        }
    }
}

/// Resolves the calls of one body.
pub struct Resolver<'r, 'a> {
    pub defs: &'r DefMap<'a>,
    pub types: &'r Types<'a>,
    pub scope: Option<FnScope>,
}

impl<'a> Resolver<'_, 'a> {
    /// The type of `Self` in this body.
    pub fn self_type(&self) -> Option<ItemId> {
        self.scope.and_then(|s| self.types.self_type(s))
    }

    fn self_trait(&self) -> Option<ItemId> {
        match self.scope?.container {
            Container::Trait(t) => Some(t),
            _ => None,
        }
    }

    /// In a blanket impl (`impl<T: Tool> DynTool for T`), the crate traits `Self` is bounded
    /// by, in the impl's generics and its `where` clause.
    fn self_bounds(&self) -> Vec<ItemId> {
        let Some(FnScope {
            module,
            container: Container::Impl(i),
        }) = self.scope
        else {
            return Vec::new();
        };
        let imp = self.defs.impls[i].syntax;
        let Type::Path(self_ty) = &*imp.self_ty else {
            return Vec::new();
        };
        let Some(param) = self_ty.path.get_ident() else {
            return Vec::new();
        };
        self.crate_traits(module, param_bounds(&imp.generics, param))
    }

    /// The crate traits among `bounds`, resolved in `module`.
    fn crate_traits<'b>(
        &self,
        module: crate::resolve::ModuleId,
        bounds: impl IntoIterator<Item = &'b syn::TypeParamBound>,
    ) -> Vec<ItemId> {
        bounds
            .into_iter()
            .filter_map(|b| match b {
                syn::TypeParamBound::Trait(t) => {
                    match self.defs.resolve_path(module, &t.path, Ns::Types) {
                        Some(Def::Item(id)) if self.defs.item(id).kind == ItemKind::Trait => {
                            Some(id)
                        }
                        _ => None,
                    }
                }
                _ => None,
            })
            .collect()
    }

    /// The crate trait a parameter's type is known by when it is generic: `impl Backend`, or a
    /// type parameter of the fn (or of its `impl`) bounded by it (`T: Backend`, `where T:
    /// Backend`), through references and `Box`/`Arc`/`Rc`. The first crate trait when there
    /// are several.
    pub fn param_bound(&self, sig: &syn::Signature, ty: &Type) -> Option<ItemId> {
        let module = self.scope?.module;
        match ty {
            Type::Reference(r) => self.param_bound(sig, &r.elem),
            Type::Paren(p) => self.param_bound(sig, &p.elem),
            Type::Group(g) => self.param_bound(sig, &g.elem),
            Type::ImplTrait(t) => self.crate_traits(module, &t.bounds).first().copied(),
            Type::Path(p) if p.qself.is_none() => {
                if let Some(param) = p.path.get_ident() {
                    let mut bounds = param_bounds(&sig.generics, param);
                    if let Some(Container::Impl(i)) = self.scope.map(|s| s.container) {
                        bounds.extend(param_bounds(&self.defs.impls[i].syntax.generics, param));
                    }
                    return self.crate_traits(module, bounds).first().copied();
                }
                let last = p.path.segments.last()?;
                if !matches!(last.ident.to_string().as_str(), "Box" | "Arc" | "Rc") {
                    return None;
                }
                let inner = crate::syntax::type_arguments(&last.arguments).next()?;
                self.param_bound(sig, inner)
            }
            _ => None,
        }
    }

    /// `receiver.method(..)` on a parameter known only by its crate trait bound: the trait's
    /// default body is what the source says runs (an impl may override it, but which impl it is
    /// the source does not say); an abstract method, or a method the trait does not declare,
    /// goes nowhere the source names.
    fn bounded_target(&self, receiver: &Expr, method: &str, locals: &Locals) -> Option<Target> {
        let tr = match strip_refs(receiver) {
            Expr::Path(p) => locals.bound_of(&p.path.get_ident()?.to_string())?,
            Expr::Field(f) => self.field_bound(f, locals)?,
            _ => return None,
        };
        Some(
            self.types
                .trait_default(tr, method)
                .map_or(Target::Unknown, Target::Fn),
        )
    }

    /// What a call of `method` on a trait object (or a value only known by its trait bounds)
    /// may run, when one of the traits has it.
    fn dispatch_through(&self, traits: &[ItemId], method: &str) -> Option<Target> {
        traits
            .iter()
            .find_map(|tr| match self.types.dispatch(*tr, method).as_slice() {
                [] => None,
                [one] => Some(Target::Fn(*one)),
                many => Some(Target::Dispatch(many.to_vec())),
            })
    }

    /// The crate type `T` of a declared `Option<T>` / `Result<T, _>` (through references).
    pub fn optional_payload(&self, ty: &Type) -> Option<ItemId> {
        let Type::Path(tp) = strip_type_refs(ty) else {
            return None;
        };
        let last = tp.path.segments.last()?;
        if last.ident != "Option" && last.ident != "Result" {
            return None;
        }
        self.type_item(crate::syntax::type_arguments(&last.arguments).next()?)
    }

    /// The crate type (enum or struct) a fn's signature says it fails with: `Result<_, E>`, or
    /// an alias's (`-> AppResult<T>`), resolved where the alias is.
    pub fn declared_error_item(&self, sig: &syn::Signature) -> Option<ItemId> {
        let syn::ReturnType::Type(_, ty) = &sig.output else {
            return None;
        };
        let ty = crate::syntax::unwrap_future(ty);
        match crate::syntax::result_error_type(ty) {
            Some(err) => self.type_item(err),
            None => {
                let (err, module) =
                    crate::types::declared_result_error(self.defs, self.scope?.module, ty)?;
                resolve_type_item(self.defs, module, err, None)
            }
        }
    }

    /// The crate type a written type names, in this body's module.
    pub fn type_item(&self, ty: &Type) -> Option<ItemId> {
        let scope = self.scope?;
        if let Some(assoc) = self.associated_type(ty) {
            return resolve_type_item(self.defs, scope.module, assoc, self.self_type());
        }
        resolve_type_item(self.defs, scope.module, ty, self.self_type())
    }

    /// `Self::RequestArgs` in an impl that says `type RequestArgs = CargoFmtRequest;`: the type
    /// the impl gives it (through a reference).
    fn associated_type(&self, ty: &Type) -> Option<&'a Type> {
        let ty = match ty {
            Type::Reference(r) => &*r.elem,
            other => other,
        };
        let Type::Path(p) = ty else { return None };
        let [first, name] = [p.path.segments.first()?, p.path.segments.last()?];
        if p.qself.is_some() || p.path.segments.len() != 2 || first.ident != "Self" {
            return None;
        }
        let Container::Impl(i) = self.scope?.container else {
            return None;
        };
        self.defs.impls[i]
            .syntax
            .items
            .iter()
            .find_map(|item| match item {
                syn::ImplItem::Type(t) if t.ident == name.ident => Some(&t.ty),
                _ => None,
            })
    }

    /// Where a call of the path `p` goes (`foo(..)`, `m::foo(..)`, `Self::foo(..)`,
    /// `Type::method(..)`, `<T as Trait>::m(..)`), or a path passed as a fn (`.map_err(helper)`).
    /// Where the call an expression makes goes (`f(..)` by its path, `x.m(..)` by the
    /// receiver's type), through `.await`; `None` when it is no call of a path or method.
    pub fn call_target(&self, expr: &Expr, locals: &Locals) -> Option<Target> {
        Some(match strip_await(expr) {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => self.path_target(p, locals),
                _ => return None,
            },
            Expr::MethodCall(m) => self.method_target(&m.receiver, &m.method.to_string(), locals),
            _ => return None,
        })
    }

    pub fn path_target(&self, p: &syn::ExprPath, locals: &Locals) -> Target {
        let Some(scope) = self.scope else {
            return Target::Unknown;
        };
        let segs = path_segments(&p.path);
        if let Some(q) = &p.qself {
            // `<T as Trait>::m`, `<T>::m`.
            let Some(last) = segs.last() else {
                return Target::Unknown;
            };
            return match self.type_item(&q.ty) {
                Some(ty) => self
                    .types
                    .method(ty, last)
                    .map_or(Target::Unknown, Target::Fn),
                None => Target::Unknown,
            };
        }
        if segs.len() == 1 {
            if let Some(f) = locals.block_fn(&segs[0]) {
                return Target::Fn(f);
            }
            if locals.get(&segs[0]).is_some() {
                return Target::NotCrateFn;
            }
        }
        if segs.first().is_some_and(|s| s == "Self") {
            let Some(rest) = segs.get(1) else {
                return Target::NotCrateFn;
            };
            if segs.len() != 2 {
                return Target::Unknown;
            }
            if let Some(ty) = self.self_type() {
                if self.is_variant(ty, rest) {
                    return Target::Variant(ty, rest.clone());
                }
                return self
                    .types
                    .method(ty, rest)
                    .map_or(Target::Unknown, Target::Fn);
            }
            if let Some(tr) = self.self_trait() {
                return self
                    .types
                    .trait_default(tr, rest)
                    .map_or(Target::Unknown, Target::Fn);
            }
            return Target::Unknown;
        }
        match self.defs.resolve_path(scope.module, &p.path, Ns::Values) {
            Some(Def::Item(id)) => match self.defs.item(id).kind {
                ItemKind::Fn => match self.defs.item(id).syntax {
                    syn::Item::Fn(f) => Target::Fn(&f.sig),
                    _ => Target::Unknown,
                },
                _ => Target::NotCrateFn,
            },
            Some(Def::Variant(e, v)) => Target::Variant(e, v),
            Some(Def::Assoc(owner, name)) => self.assoc_target(owner, &name),
            Some(Def::External(_)) | Some(Def::Module(_)) => Target::NotCrateFn,
            Some(Def::Ambiguous) | None => Target::Unknown,
        }
    }

    fn is_variant(&self, ty: ItemId, name: &str) -> bool {
        matches!(self.defs.item(ty).syntax, syn::Item::Enum(e) if e.variants.iter().any(|v| v.ident == name))
    }

    /// `Type::name` or `Trait::name` for a crate type or trait.
    fn assoc_target(&self, owner: ItemId, name: &str) -> Target {
        let item = self.defs.item(owner);
        match item.kind {
            ItemKind::Trait => self
                .types
                .trait_default(owner, name)
                .map_or(Target::Unknown, Target::Fn),
            ItemKind::TypeAlias => match item.syntax {
                syn::Item::Type(alias) => {
                    match resolve_type_item(self.defs, item.module, &alias.ty, None) {
                        Some(ty) => self
                            .types
                            .method(ty, name)
                            .map_or(Target::Unknown, Target::Fn),
                        None => Target::NotCrateFn,
                    }
                }
                _ => Target::Unknown,
            },
            _ => self
                .types
                .method(owner, name)
                .map_or(Target::Unknown, Target::Fn),
        }
    }

    /// Whether `ty` names another crate's type where this body is
    /// ([`crate::types::names_external_type`]).
    pub fn names_external_type(&self, ty: &syn::Type) -> bool {
        self.scope
            .is_some_and(|s| crate::types::names_external_type(self.defs, s.module, ty))
    }

    /// Where `receiver.method(..)` goes.
    pub fn method_target(&self, receiver: &Expr, method: &str, locals: &Locals) -> Target {
        if self.scope.is_none() {
            return Target::Unknown;
        }
        if is_self(receiver) {
            if let Some(ty) = self.self_type() {
                return self
                    .types
                    .method(ty, method)
                    .map_or(Target::NotCrateFn, Target::Fn);
            }
            if let Some(tr) = self.self_trait() {
                if let Some(f) = self.types.trait_default(tr, method) {
                    return Target::Fn(f);
                }
            }
            // `self.call(args)` in `impl<T: Tool> DynTool for T`: every `impl Tool`'s `call`.
            if let Some(target) = self.dispatch_through(&self.self_bounds(), method) {
                return target;
            }
        }
        if let Some(target) = self.bounded_target(receiver, method, locals) {
            return target;
        }
        if let Some(ty) = self.type_of(receiver, locals) {
            if self.defs.item(ty).kind == ItemKind::Trait {
                return self
                    .dispatch_through(&[ty], method)
                    .unwrap_or(Target::NotCrateFn);
            }
            return self
                .types
                .method(ty, method)
                .map_or(Target::NotCrateFn, Target::Fn);
        }
        if self.of_external_type(receiver, locals) {
            return Target::NotCrateFn;
        }
        if COMMON_METHODS.contains(&method) {
            return Target::Unknown;
        }
        // By name only within the caller's own package: another package's method is reached
        // through a receiver whose type says so.
        let package = |module| self.defs.module(module).package;
        let own = self.scope.map(|s| package(s.module));
        let named: Vec<FnKey> = self
            .types
            .methods_named(method)
            .iter()
            .copied()
            .filter(|k| self.defs.fn_scope_at(*k).map(|s| package(s.module)) == own)
            .collect();
        match named.as_slice() {
            [] => Target::NotCrateFn,
            many => Target::Candidates(many.to_vec()),
        }
    }

    /// `self.memory` declared `memory: Arc<memsdk::Client>`, `http` declared `http:
    /// &reqwest::Client`: a field, parameter or local whose declared type is another crate's,
    /// so no method of this crate is called on it.
    pub fn of_external_type(&self, receiver: &Expr, locals: &Locals) -> bool {
        let f = match crate::syntax::strip_refs(receiver) {
            Expr::Field(f) => f,
            Expr::Path(p) => {
                return p
                    .path
                    .get_ident()
                    .is_some_and(|i| locals.is_external(&i.to_string()))
            }
            _ => return false,
        };
        let syn::Member::Named(name) = &f.member else {
            return false;
        };
        let Some(base) = self.type_of(&f.base, locals) else {
            return false;
        };
        let Some((owner, ty)) = self.field_syntax(base, &name.to_string(), 0) else {
            return false;
        };
        crate::types::names_external_type(self.defs, self.defs.item(owner).module, ty)
    }

    /// The crate trait a field of a generic type is known by (`backend: B` in `struct
    /// Server<B: Backend>`, or in `impl<B: Backend> Server<B>` around this body), through
    /// references and `Box`/`Arc`/`Rc`.
    fn field_bound(&self, f: &syn::ExprField, locals: &Locals) -> Option<ItemId> {
        let base = self.type_of(&f.base, locals)?;
        let syn::Member::Named(name) = &f.member else {
            return None;
        };
        let (owner, ty) = self.field_syntax(base, &name.to_string(), 0)?;
        let syn::Item::Struct(s) = self.defs.item(owner).syntax else {
            return None;
        };
        let param = generic_param_of(ty)?;
        let module = self.defs.item(owner).module;
        if let Some(tr) = self
            .crate_traits(module, param_bounds(&s.generics, param))
            .first()
        {
            return Some(*tr);
        }
        // `impl<X: Backend> Server<X>`: the impl's argument in the struct parameter's place.
        let Some(FnScope {
            module,
            container: Container::Impl(i),
        }) = self.scope
        else {
            return None;
        };
        let imp = self.defs.impls[i].syntax;
        if self.types.impl_self(i) != Some(owner) {
            return None;
        }
        let position = s.generics.type_params().position(|t| t.ident == *param)?;
        let Type::Path(self_ty) = &*imp.self_ty else {
            return None;
        };
        let arg = crate::syntax::type_arguments(&self_ty.path.segments.last()?.arguments)
            .nth(position)?;
        let Type::Path(arg) = arg else { return None };
        let impl_param = arg.path.get_ident()?;
        self.crate_traits(module, param_bounds(&imp.generics, impl_param))
            .first()
            .copied()
    }

    /// The crate type an expression has, where the source states it.
    /// The crate type of a static's value, through the cells that hold a value set once
    /// (`static RATES: OnceLock<RateTable>`, `LazyLock<..>`, `Lazy<..>`, `OnceCell<..>`).
    fn static_value_type(&self, id: ItemId) -> Option<ItemId> {
        let item = self.defs.item(id);
        let syn::Item::Static(s) = item.syntax else {
            return None;
        };
        let mut ty = &*s.ty;
        if let syn::Type::Path(p) = ty {
            let last = p.path.segments.last()?;
            if ["OnceLock", "OnceCell", "LazyLock", "Lazy"]
                .contains(&last.ident.to_string().as_str())
            {
                ty = crate::syntax::type_arguments(&last.arguments).next()?;
            }
        }
        crate::types::resolve_type_item(self.defs, item.module, ty, None)
    }

    /// Whether `expr` names a crate static (not a local of that name).
    fn names_static(&self, expr: &Expr, locals: &Locals) -> bool {
        let (Expr::Path(p), Some(scope)) = (expr, self.scope) else {
            return false;
        };
        p.path
            .get_ident()
            .is_none_or(|i| i != "self" && locals.get(&i.to_string()).is_none())
            && matches!(self.defs.resolve_path(scope.module, &p.path, Ns::Values),
                Some(Def::Item(id)) if self.defs.item(id).kind == ItemKind::Static)
    }

    pub fn type_of(&self, expr: &Expr, locals: &Locals) -> Option<ItemId> {
        self.type_of_depth(expr, locals, 0)
    }

    fn type_of_depth(&self, expr: &Expr, locals: &Locals, depth: usize) -> Option<ItemId> {
        if depth > 16 {
            return None;
        }
        let again = |e: &Expr| self.type_of_depth(e, locals, depth + 1);
        match expr {
            Expr::Path(_) if is_self(expr) => self.self_type(),
            Expr::Path(p) => {
                let ident = p.path.get_ident()?.to_string();
                match locals.get(&ident) {
                    Some(ty) => ty,
                    // A unit struct's value (`Build.run(args)`), a static's (`static RATES:
                    // LazyLock<RateTable>`).
                    None => match self
                        .defs
                        .resolve_path(self.scope?.module, &p.path, Ns::Values)?
                    {
                        Def::Item(id) if self.defs.item(id).kind == ItemKind::Struct => Some(id),
                        Def::Item(id) => self.static_value_type(id),
                        _ => None,
                    },
                }
            }
            Expr::Paren(p) => again(&p.expr),
            Expr::Group(g) => again(&g.expr),
            Expr::Reference(r) => again(&r.expr),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => again(&u.expr),
            Expr::Await(a) => again(&a.base),
            Expr::Try(t) => again(&t.expr),
            Expr::Field(f) => {
                let base = again(&f.base)?;
                let name = match &f.member {
                    syn::Member::Named(id) => id.to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                self.field_type(base, &name, 0)
            }
            // Reaching the value inside a lock, a cell or a smart pointer keeps its type.
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && matches!(
                        m.method.to_string().as_str(),
                        "lock"
                            | "read"
                            | "write"
                            | "borrow"
                            | "borrow_mut"
                            | "clone"
                            | "as_ref"
                            | "as_mut"
                            | "unwrap"
                            | "deref"
                            | "try_lock"
                            | "value"
                            | "value_mut"
                            | "as_deref"
                    ) =>
            {
                again(&m.receiver)
            }
            // Error mapping keeps the value's type (`Client::builder().build().map_err(..)?`).
            Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "expect"
                        | "map_err"
                        | "ok_or"
                        | "ok_or_else"
                        | "context"
                        | "with_context"
                        | "wrap_err"
                        | "wrap_err_with"
                        // tower-mcp's `ResultExt`.
                        | "tool_err"
                        | "tool_context"
                ) =>
            {
                again(&m.receiver)
            }
            // An element of a map or list field: its value type (`self.plugins.get(&name)`
            // with `plugins: DashMap<Name, Arc<dyn Plugin>>`).
            Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "get" | "get_mut" | "remove" | "first" | "last" | "pop"
                ) =>
            {
                // `RATES.get()` of `static RATES: OnceLock<RateTable>`: the value set at
                // start-up.
                if m.method == "get" && m.args.is_empty() && self.names_static(&m.receiver, locals)
                {
                    return again(&m.receiver);
                }
                // A crate type's own method (`self.registry.get(name)` with `registry:
                // Registry`) says what it returns.
                match self.method_target(&m.receiver, &m.method.to_string(), locals) {
                    Target::Fn(f) => self.types.return_type(self.defs, f),
                    _ => self.element_of_field(&m.receiver, locals, depth),
                }
            }
            // `Arc::clone(&tool)`, `Rc::clone(..)`: the same value.
            Expr::Call(c)
                if c.args.len() == 1
                    && matches!(&*c.func, Expr::Path(p)
                        if matches!(path_segments(&p.path).iter().map(String::as_str).collect::<Vec<_>>().as_slice(),
                            ["Arc" | "Rc", "clone"] | ["std", "sync", "Arc", "clone"] | ["std", "rc", "Rc", "clone"])) =>
            {
                again(&c.args[0])
            }
            Expr::MethodCall(m) => {
                match self.method_target(&m.receiver, &m.method.to_string(), locals) {
                    Target::Fn(f) => self.types.return_type(self.defs, f),
                    _ => None,
                }
            }
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => match self.path_target(p, locals) {
                    Target::Fn(f) => self.types.return_type(self.defs, f),
                    Target::Variant(e, _) => Some(e),
                    _ => None,
                },
                _ => None,
            },
            Expr::Struct(s) => {
                if s.path.is_ident("Self") {
                    return self.self_type();
                }
                match self
                    .defs
                    .resolve_path(self.scope?.module, &s.path, Ns::Types)?
                {
                    Def::Item(id) => Some(id),
                    Def::Variant(e, _) => Some(e),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The element type of a map or list field (`self.plugins` with `plugins:
    /// DashMap<Name, Arc<dyn Plugin>>`): its last type argument.
    fn element_of_field(&self, field: &Expr, locals: &Locals, depth: usize) -> Option<ItemId> {
        let f = match strip_refs(field) {
            Expr::Field(f) => f,
            // A local holding the collection (`let sessions = self.sessions.lock().await;`).
            Expr::Path(p) => return locals.elements_of(&p.path.get_ident()?.to_string()),
            _ => return None,
        };
        let base = self.type_of_depth(&f.base, locals, depth + 1)?;
        let syn::Member::Named(name) = &f.member else {
            return None;
        };
        let (owner, ty) = self.field_syntax(base, &name.to_string(), 0)?;
        let module = self.defs.item(owner).module;
        crate::types::element_type(self.defs, module, ty, Some(owner))
    }

    /// The crate type of the elements of the collection a field holds, read through its lock or
    /// a clone (`self.sessions.lock().await`), or of the collection local `expr` names.
    pub fn collection_elements(&self, expr: &Expr, locals: &Locals) -> Option<ItemId> {
        let mut e = strip_refs(expr);
        for _ in 0..6 {
            match e {
                Expr::Await(a) => e = strip_refs(&a.base),
                Expr::Try(t) => e = strip_refs(&t.expr),
                Expr::MethodCall(m)
                    if m.args.is_empty()
                        && matches!(
                            m.method.to_string().as_str(),
                            "lock" | "read" | "write" | "clone" | "unwrap" | "blocking_lock"
                        ) =>
                {
                    e = strip_refs(&m.receiver)
                }
                _ => break,
            }
        }
        self.element_of_field(e, locals, 0)
    }

    /// The value type of `field.method(..)` (`self.tools.get_key_value(name)`), through `?`
    /// and the `Option` adapters that keep the value (`.ok_or(..)`, `.ok_or_else(..)`,
    /// `.unwrap()`, `.expect(..)`).
    pub fn map_value_of(&self, expr: &Expr, method: &str, locals: &Locals) -> Option<ItemId> {
        match expr {
            Expr::Try(t) => self.map_value_of(&t.expr, method, locals),
            Expr::Paren(p) => self.map_value_of(&p.expr, method, locals),
            Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "ok_or" | "ok_or_else" | "unwrap" | "expect"
                ) =>
            {
                self.map_value_of(&m.receiver, method, locals)
            }
            Expr::MethodCall(m) if m.method == method => {
                self.element_of_field(&m.receiver, locals, 0)
            }
            _ => None,
        }
    }

    /// The crate type inside the `Option<T>` / `Result<T, _>` a field is declared as, read
    /// directly or borrowed (`&self.search`, `self.search.as_ref()`): what `Some(t)` / `Ok(t)`
    /// binds when matched against it.
    pub fn payload_of(&self, expr: &Expr, locals: &Locals) -> Option<ItemId> {
        let Expr::Field(f) = through_borrowing_calls(expr) else {
            return None;
        };
        let base = self.type_of(&f.base, locals)?;
        let name = match &f.member {
            syn::Member::Named(id) => id.to_string(),
            syn::Member::Unnamed(i) => i.index.to_string(),
        };
        let (owner, ty) = self.field_syntax(base, &name, 0)?;
        let Type::Path(tp) = strip_type_refs(ty) else {
            return None;
        };
        let last = tp.path.segments.last()?;
        if last.ident != "Option" && last.ident != "Result" {
            return None;
        }
        let inner = crate::syntax::type_arguments(&last.arguments).next()?;
        let module = self.defs.item(owner).module;
        resolve_type_item(self.defs, module, inner, Some(owner))
    }

    /// Whether `expr` reads a request field that the tool's generated input schema leaves
    /// optional (see [`Resolver::optional_schema_field`]), as `req.field`, read directly or
    /// through `as_ref()`, `as_deref()`, `clone()` and the like.
    pub fn reads_optional_schema_field(&self, expr: &Expr, locals: &Locals) -> bool {
        self.reads_request_field(expr, locals, Self::optional_schema_field)
    }

    /// Whether `expr` is `base.field` (through borrowing calls) with `is(type of base, field)`.
    fn reads_request_field(
        &self,
        expr: &Expr,
        locals: &Locals,
        is: fn(&Self, ItemId, &str) -> bool,
    ) -> bool {
        let Expr::Field(f) = through_borrowing_calls(expr) else {
            return false;
        };
        let syn::Member::Named(name) = &f.member else {
            return false;
        };
        self.type_of(&f.base, locals)
            .is_some_and(|base| is(self, base, &name.to_string()))
    }

    /// Whether field `name` of crate struct `ty` is optional in the input schema generated from
    /// it: the struct derives `JsonSchema` and declares the field `Option<..>` (schemars does not
    /// list it under `required`). A request without it matched the schema, so a failure for its
    /// absence is a rule on argument values.
    pub fn optional_schema_field(&self, ty: ItemId, name: &str) -> bool {
        let Some((owner, field_ty)) = self.field_syntax(ty, name, 0) else {
            return false;
        };
        self.derives_schema(owner)
            && crate::syntax::type_name(field_ty).as_deref() == Some("Option")
    }

    /// Whether crate item `ty` is a struct whose input schema is generated (`derive(JsonSchema)`).
    fn derives_schema(&self, ty: ItemId) -> bool {
        let syn::Item::Struct(s) = self.defs.item(ty).syntax else {
            return false;
        };
        s.attrs
            .iter()
            .filter(|a| a.path().is_ident("derive") || a.path().is_ident("cfg_attr"))
            .any(|a| a.meta.to_token_stream().to_string().contains("JsonSchema"))
    }

    /// Whether `expr` is a request field (`req.params`) that the tool's generated input schema
    /// describes as any JSON (see [`Resolver::free_form_schema_field`]).
    pub fn reads_free_form_schema_field(&self, expr: &Expr, locals: &Locals) -> bool {
        self.reads_request_field(expr, locals, Self::free_form_schema_field)
    }

    /// Whether field `name` of crate struct `ty` is free-form JSON in the input schema generated
    /// from it (`params: Option<serde_json::Value>`, a `serde_json::Map`, rmcp's `JsonObject`):
    /// schemars writes it as any value, so the schema checks nothing inside it, and a member
    /// missing there, or of another JSON type, breaks a rule on the argument's value.
    pub fn free_form_schema_field(&self, ty: ItemId, name: &str) -> bool {
        let Some((owner, field_ty)) = self.field_syntax(ty, name, 0) else {
            return false;
        };
        if !self.derives_schema(owner) {
            return false;
        }
        let Type::Path(p) = crate::syntax::option_inner(field_ty).unwrap_or(field_ty) else {
            return false;
        };
        let module = self.defs.item(owner).module;
        match self.defs.resolve_path(module, &p.path, Ns::Types) {
            Some(Def::External(path)) => {
                let (first, last) = (
                    path.first().map(String::as_str),
                    path.last().map(String::as_str),
                );
                matches!(
                    (first, last),
                    (Some("serde_json"), Some("Value" | "Map"))
                        | (Some("rmcp"), Some("JsonObject"))
                )
            }
            _ => false,
        }
    }

    /// `expr.name` where `expr`'s crate struct declares every field of `fields`.
    pub fn reads_field_of_struct_with(
        &self,
        expr: &Expr,
        locals: &Locals,
        names: &[&str],
        fields: &[&str],
    ) -> bool {
        let Expr::Field(f) = through_borrowing_calls(expr) else {
            return false;
        };
        let syn::Member::Named(name) = &f.member else {
            return false;
        };
        names.iter().any(|n| name == n)
            && self
                .type_of(&f.base, locals)
                .is_some_and(|ty| fields.iter().all(|n| self.field_syntax(ty, n, 0).is_some()))
    }

    /// The crate type of field `name` of `ty`.
    fn field_type(&self, ty: ItemId, name: &str, depth: usize) -> Option<ItemId> {
        let (owner, field) = self.field_syntax(ty, name, depth)?;
        let module = self.defs.item(owner).module;
        resolve_type_item(self.defs, module, field, Some(owner))
    }

    /// Field `name` of `ty` as written, with the struct that declares it: a newtype
    /// (`struct Service(Arc<Inner>)`, which derefs to its field) passes field access through.
    fn field_syntax(&self, ty: ItemId, name: &str, depth: usize) -> Option<(ItemId, &'a Type)> {
        if let Some(f) = self.types.field(ty, name) {
            return Some((ty, f));
        }
        let syn::Item::Struct(s) = self.defs.item(ty).syntax else {
            return None;
        };
        if depth > 4 || s.fields.len() != 1 || !matches!(s.fields, syn::Fields::Unnamed(_)) {
            return None;
        }
        let inner = self.field_type(ty, "0", depth + 1)?;
        self.field_syntax(inner, name, depth + 1)
    }

    /// The variant an expression builds directly (`AppError::NotFound(..)`, `Error::Timeout`,
    /// `Self::Busy { .. }`), by enum and variant name.
    pub fn variant_of(&self, expr: &Expr, locals: &Locals) -> Option<(ItemId, String)> {
        match expr {
            Expr::Paren(p) => self.variant_of(&p.expr, locals),
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => match self.path_target(p, locals) {
                    Target::Variant(e, v) => Some((e, v)),
                    _ => None,
                },
                _ => None,
            },
            Expr::Path(p) => match self.path_target(p, locals) {
                Target::Variant(e, v) => Some((e, v)),
                _ => None,
            },
            Expr::Struct(s) => {
                let segs = path_segments(&s.path);
                if segs.len() == 2 && segs[0] == "Self" {
                    let ty = self.self_type()?;
                    return self.is_variant(ty, &segs[1]).then(|| (ty, segs[1].clone()));
                }
                match self
                    .defs
                    .resolve_path(self.scope?.module, &s.path, Ns::Types)?
                {
                    Def::Variant(e, v) => Some((e, v)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The fields a struct or variant pattern destructures, with the module their types are
/// written in.
pub struct PatternFields<'a> {
    /// `None`: the one field of a macro-generated variant named after a crate struct.
    fields: Option<&'a syn::Fields>,
    module: crate::resolve::ModuleId,
    self_ty: Option<ItemId>,
}

impl PatternFields<'_> {
    fn field(&self, resolver: &Resolver<'_, '_>, name: &str) -> Option<ItemId> {
        let Some(fields) = self.fields else {
            // A variant that wraps the struct it is named after.
            return (name == "0").then_some(self.self_ty).flatten();
        };
        let ty = fields.iter().enumerate().find_map(|(i, f)| {
            let matches = match &f.ident {
                Some(id) => id == name,
                None => i.to_string() == name,
            };
            matches.then_some(&f.ty)
        })?;
        resolve_type_item(resolver.defs, self.module, ty, self.self_ty)
    }
}

impl<'a> Resolver<'_, 'a> {
    /// What `Path(..)` / `Path { .. }` in a pattern destructures: a crate struct or variant.
    pub fn pattern_fields(&self, path: &syn::Path) -> Option<PatternFields<'a>> {
        let scope = self.scope?;
        let segs = path_segments(path);
        let def = if segs.first().is_some_and(|s| s == "Self") {
            let ty = self.self_type()?;
            match segs.get(1) {
                Some(v) => Def::Variant(ty, v.clone()),
                None => Def::Item(ty),
            }
        } else {
            match self.defs.resolve_path(scope.module, path, Ns::Types) {
                Some(d) => d,
                // `Tools::ReadFile(t)` of an enum a macro generates (rust-mcp-sdk's
                // `tool_box!(Tools, [ReadFile, ..])`): a variant named after a crate struct wraps it.
                // The macro names the struct where it is invoked: the module the enum is
                // imported from, or this one.
                None if segs.len() == 2 => {
                    let home = self
                        .defs
                        .dangling_import(scope.module, &segs[0])
                        .unwrap_or(scope.module);
                    let name = syn::Path::from(path.segments.last()?.ident.clone());
                    return match self.defs.resolve_path(home, &name, Ns::Types)? {
                        Def::Item(id) if self.defs.item(id).kind == ItemKind::Struct => {
                            Some(PatternFields {
                                fields: None,
                                module: scope.module,
                                self_ty: Some(id),
                            })
                        }
                        _ => None,
                    };
                }
                None => return None,
            }
        };
        let (item, variant) = match def {
            Def::Item(id) => (id, None),
            Def::Variant(id, v) => (id, Some(v)),
            _ => return None,
        };
        let data = self.defs.item(item);
        let fields = match (data.syntax, variant) {
            (syn::Item::Struct(s), None) => &s.fields,
            (syn::Item::Enum(e), Some(v)) => &e.variants.iter().find(|x| x.ident == v)?.fields,
            _ => return None,
        };
        Some(PatternFields {
            fields: Some(fields),
            module: data.module,
            self_ty: Some(item),
        })
    }
}

/// Bind the names `pat` introduces, declared with the written type `written` (`ty` its crate
/// type when known). A name declared `Option<T>` / `Result<T, _>` of a crate type, or with
/// another crate's type (`http: &reqwest::Client`), is bound as such.
pub fn bind_declared(
    resolver: &Resolver<'_, '_>,
    locals: &mut Locals,
    pat: &Pat,
    written: &Type,
    ty: Option<ItemId>,
    depth: usize,
) {
    if let (None, Pat::Ident(i)) = (ty, pat) {
        if let Some(payload) = resolver.optional_payload(written) {
            return locals.bind_optional(i.ident.to_string(), payload);
        }
        if resolver.names_external_type(written) {
            return locals.bind_external(i.ident.to_string());
        }
    }
    bind_pattern(resolver, locals, pat, ty, depth);
}

/// Bind the names a pattern introduces; `ty` is the type of the whole value when known (given
/// to a plain binding, `x: T` annotations win).
pub fn bind_pattern(
    resolver: &Resolver<'_, '_>,
    locals: &mut Locals,
    pat: &Pat,
    ty: Option<ItemId>,
    depth: usize,
) {
    if depth > 64 {
        return;
    }
    match pat {
        Pat::Ident(i) => {
            locals.bind(i.ident.to_string(), ty);
            if let Some((_, sub)) = &i.subpat {
                bind_pattern(resolver, locals, sub, ty, depth + 1);
            }
        }
        Pat::Type(t) => {
            let declared = resolver.type_item(&t.ty).or(ty);
            bind_declared(resolver, locals, &t.pat, &t.ty, declared, depth + 1);
        }
        Pat::Reference(r) => bind_pattern(resolver, locals, &r.pat, ty, depth + 1),
        Pat::Paren(p) => bind_pattern(resolver, locals, &p.pat, ty, depth + 1),
        Pat::Tuple(t) => {
            for p in &t.elems {
                bind_pattern(resolver, locals, p, None, depth + 1);
            }
        }
        // `Some(x)` / `Ok(x)` of a value whose inner type is known.
        Pat::TupleStruct(t)
            if t.elems.len() == 1
                && (t.path.is_ident("Some") || t.path.is_ident("Ok"))
                && ty.is_some() =>
        {
            bind_pattern(resolver, locals, &t.elems[0], ty, depth + 1);
        }
        Pat::TupleStruct(t) => {
            let fields = resolver.pattern_fields(&t.path);
            for (i, p) in t.elems.iter().enumerate() {
                let ty = fields
                    .as_ref()
                    .and_then(|f| f.field(resolver, &i.to_string()));
                bind_pattern(resolver, locals, p, ty, depth + 1);
            }
        }
        Pat::Struct(s) => {
            let fields = resolver.pattern_fields(&s.path);
            for f in &s.fields {
                let name = match &f.member {
                    syn::Member::Named(id) => id.to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                let ty = fields.as_ref().and_then(|fs| fs.field(resolver, &name));
                bind_pattern(resolver, locals, &f.pat, ty, depth + 1);
            }
        }
        Pat::Slice(s) => {
            for p in &s.elems {
                bind_pattern(resolver, locals, p, None, depth + 1);
            }
        }
        Pat::Or(o) => {
            if let Some(first) = o.cases.first() {
                bind_pattern(resolver, locals, first, ty, depth + 1);
            }
        }
        _ => {}
    }
}

/// Bind the names a pattern matched against `scrutinee` introduces: `Some(t)` / `Ok(t)` over
/// a field declared `Option<T>` / `Result<T, _>` binds `t` to `T`; otherwise as
/// [`bind_pattern`] with the scrutinee's type.
pub fn bind_scrutinee(
    resolver: &Resolver<'_, '_>,
    locals: &mut Locals,
    pat: &Pat,
    scrutinee: &Expr,
) {
    let ty = resolver.type_of(scrutinee, locals);
    // `let sessions = self.sessions.lock().await;` over `HashMap<Id, Arc<Session>>`.
    if let (Pat::Ident(i), None) = (pat, ty) {
        if let Some(element) = resolver.collection_elements(scrutinee, locals) {
            return locals.bind_elements(i.ident.to_string(), element);
        }
    }
    // `let (&name, tool) = self.tools.get_key_value(..)?`: the entry's value is the map's.
    if let (Pat::Tuple(t), None) = (strip_pat_refs(pat), ty) {
        if let (2, Some(value)) = (
            t.elems.len(),
            resolver.map_value_of(scrutinee, "get_key_value", locals),
        ) {
            bind_pattern(resolver, locals, &t.elems[0], None, 0);
            return bind_pattern(resolver, locals, &t.elems[1], Some(value), 0);
        }
    }
    // `Err(e)` of `match render(uri)`: `e` is the error type `render` declares.
    if let Pat::TupleStruct(t) = pat {
        if t.elems.len() == 1 && t.path.is_ident("Err") {
            let err = declared_error_of(resolver, scrutinee, locals, 0);
            return bind_pattern(resolver, locals, &t.elems[0], err, 0);
        }
    }
    if let (Pat::TupleStruct(t), None) = (pat, ty) {
        if t.elems.len() == 1 && (t.path.is_ident("Some") || t.path.is_ident("Ok")) {
            // `if let Some(s) = scroll` where `scroll: Option<&ScrollArg>`.
            let local_payload = match through_borrowing_calls(scrutinee) {
                Expr::Path(p) => p
                    .path
                    .get_ident()
                    .and_then(|i| locals.payload_of(&i.to_string())),
                _ => None,
            };
            if let Some(inner) = resolver.payload_of(scrutinee, locals).or(local_payload) {
                return bind_pattern(resolver, locals, &t.elems[0], Some(inner), 0);
            }
        }
    }
    bind_pattern(resolver, locals, pat, ty, 0);
}

/// Binds the `let`s of `block` written before byte offset `before`, in source order (a later
/// one shadows an earlier one of the same name): the locals a call at `before` sees, for a
/// call resolved outside a walk of its body (a closure registered as a route that calls
/// `server.call_tool(..)` on a clone of a struct the fn built).
pub fn bind_lets_before(
    resolver: &Resolver<'_, '_>,
    locals: &mut Locals,
    (sig, block): (&syn::Signature, &syn::Block),
    before: usize,
) {
    for input in &sig.inputs {
        if let syn::FnArg::Typed(t) = input {
            bind_pattern(resolver, locals, &t.pat, resolver.type_item(&t.ty), 0);
        }
    }
    struct Lets<'r, 'l, 'm, 'a> {
        resolver: &'r Resolver<'m, 'a>,
        locals: &'l mut Locals,
        before: usize,
    }
    impl<'v> syn::visit::Visit<'v> for Lets<'_, '_, '_, '_> {
        fn visit_local(&mut self, local: &'v syn::Local) {
            let at = syn::spanned::Spanned::span(&local.pat).byte_range().start;
            if at >= self.before {
                return;
            }
            syn::visit::visit_local(self, local);
            if let Some(init) = &local.init {
                bind_scrutinee(self.resolver, self.locals, &local.pat, &init.expr);
            }
        }
        // `if let Some(tools) = builder.tools { .. }`.
        fn visit_expr_let(&mut self, l: &'v syn::ExprLet) {
            if syn::spanned::Spanned::span(&l.pat).byte_range().start < self.before {
                syn::visit::visit_expr_let(self, l);
                bind_scrutinee(self.resolver, self.locals, &l.pat, &l.expr);
            }
        }
        fn visit_item(&mut self, _: &'v syn::Item) {}
    }
    syn::visit::Visit::visit_block(
        &mut Lets {
            resolver,
            locals,
            before,
        },
        block,
    );
}

/// The error type of a `Result` value: the one its call declares, or, for a `match` whose arms
/// give the value (`match method { "tools/call" => call_tool(..), .. }`), the one an arm's call
/// declares (every arm has the same type).
fn declared_error_of(
    resolver: &Resolver<'_, '_>,
    value: &Expr,
    locals: &Locals,
    depth: usize,
) -> Option<ItemId> {
    match strip_await(value) {
        Expr::Match(m) if depth < 4 => m.arms.iter().find_map(|a| {
            declared_error_of(
                resolver,
                crate::syntax::tail_expr(&a.body),
                locals,
                depth + 1,
            )
        }),
        other => match resolver.call_target(other, locals) {
            Some(Target::Fn(f)) => resolver.types.error_type(resolver.defs, f),
            _ => None,
        },
    }
}

fn strip_pat_refs(pat: &Pat) -> &Pat {
    match pat {
        Pat::Reference(r) => strip_pat_refs(&r.pat),
        Pat::Paren(p) => strip_pat_refs(&p.pat),
        other => other,
    }
}

fn strip_type_refs(ty: &Type) -> &Type {
    match ty {
        Type::Reference(r) => strip_type_refs(&r.elem),
        Type::Paren(p) => strip_type_refs(&p.elem),
        Type::Group(g) => strip_type_refs(&g.elem),
        other => other,
    }
}

/// How a fn body can fail, read from what it returns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OwnFailures {
    /// `Ok(..)` on every path.
    Never,
    /// Only on the server's own faults: serialising its own value (`serde_json::to_string(&out)?`,
    /// or as the tail), a poisoned lock of its own (`self.entries.read()?`), or a call of a crate
    /// fn that fails only so.
    ServerFaultOnly,
    /// Any other way.
    Other,
}

/// What every body's walk shares: the crate's names, types and fns.
pub struct CrateCalls<'r, 'a> {
    pub defs: &'r DefMap<'a>,
    /// Crate `macro_rules!` calls, expanded on demand.
    pub expander: &'a crate::expand::Expander<'a>,
    pub types: &'r Types<'a>,
    /// The body of each crate fn.
    pub body_of: HashMap<FnKey, BodyId>,
    /// Per fn body (by `BodyId`), what its signature says.
    pub facts: Vec<FnFacts>,
    /// The crate error types' own constructors of protocol errors.
    pub error_constructors: HashMap<FnKey, ErrorConstructor>,
    /// The fns that build a tool result with the `isError` flag they are given.
    pub result_helpers: HashMap<FnKey, ResultHelper>,
    /// The crate types those constructors belong to.
    pub error_types: std::collections::HashSet<ItemId>,
    /// Crate types that carry a wire code a conversion puts on the wire ([`code_carriers`]):
    /// their constructors choose the code, so a failure is reported where one is chosen.
    pub carriers: std::collections::HashSet<ItemId>,
    /// Each crate fn's block and file (to read a code a method returns), and its signature (to
    /// read what its parameters take).
    pub blocks: HashMap<FnKey, (&'a syn::Block, crate::source::FileId, &'a syn::Signature)>,
    /// Each file's source text (`None` when not UTF-8), by `FileId`.
    pub sources: Vec<Option<std::sync::Arc<crate::source::SourceFile>>>,
    /// Per fn body (by `BodyId`), how it can fail (`Ok(..)` on every path, or failing only on
    /// server faults), found when a caller first asks.
    pub never_errs: Vec<std::sync::OnceLock<OwnFailures>>,
    /// The crate's `fn from(x: T)` (`From<T>` impls), by the crate type `T`, found on first use.
    pub from_fns: std::sync::OnceLock<HashMap<ItemId, Vec<FnKey>>>,
    /// The same for another crate's error type `T` (`From<std::io::Error>`), by its path.
    pub external_from_fns: std::sync::OnceLock<HashMap<String, Vec<FnKey>>>,
    /// The crate fns registries of boxed fns hold, by the crate type of their values, found
    /// on first use (see [`CrateCalls::registered_fns_of`]).
    pub registered_fns: std::sync::OnceLock<HashMap<ItemId, Vec<FnKey>>>,
}

impl CrateCalls<'_, '_> {
    pub fn body(&self, f: FnKey) -> Option<BodyId> {
        self.body_of.get(&f).copied()
    }

    pub fn fn_facts(&self, f: FnKey) -> Option<FnFacts> {
        self.body(f).and_then(|b| self.facts.get(b.0).copied())
    }

    /// The crate fns a registry of boxed fns holds, by the crate type its values have: each
    /// `reg.insert("scan_shelf", boxed(tools::scan_shelf))` whose wrapper is a crate fn declared
    /// to return a crate type (`fn boxed<F>(f: F) -> ToolFn`) registers `tools::scan_shelf` as a
    /// `ToolFn`. Every body is scanned once, on first use.
    pub fn registered_fns_of(&self, ty: ItemId) -> &[FnKey] {
        let all = self.registered_fns.get_or_init(|| {
            let mut all: HashMap<ItemId, Vec<FnKey>> = HashMap::new();
            for (f, (block, _, _)) in &self.blocks {
                let resolver = Resolver {
                    defs: self.defs,
                    types: self.types,
                    scope: self.types.scope_of(*f),
                };
                let mut inserts = RegistryInserts(Vec::new());
                syn::visit::Visit::visit_block(&mut inserts, block);
                for (wrapper, registered) in inserts.0 {
                    let none = Locals::default();
                    let (Target::Fn(w), Target::Fn(r)) = (
                        resolver.path_target(wrapper, &none),
                        resolver.path_target(registered, &none),
                    ) else {
                        continue;
                    };
                    if let Some(ty) = self.declared_return_item(w) {
                        all.entry(ty).or_default().push(r);
                    }
                }
            }
            for fns in all.values_mut() {
                fns.sort_by_key(|f| self.body(*f));
                fns.dedup();
            }
            all
        });
        all.get(&ty).map_or(&[], Vec::as_slice)
    }

    /// The crate item `f`'s declared return type names as written (a type alias included:
    /// `-> ToolFn`), resolved where `f` is.
    pub fn declared_return_item(&self, f: FnKey) -> Option<ItemId> {
        let (_, _, sig) = self.blocks.get(&f)?;
        let syn::ReturnType::Type(_, ty) = &sig.output else {
            return None;
        };
        named_type_item(self.defs, self.types.scope_of(f)?.module, ty)
    }

    /// The crate's `fn from(x: ty)`s: the `From<ty>` conversions of a crate type.
    pub fn from_fns_of(&self, ty: ItemId) -> &[FnKey] {
        let all = self.from_fns.get_or_init(|| {
            let mut all: HashMap<ItemId, Vec<FnKey>> = HashMap::new();
            for (f, scope, param) in self.crate_from_fns() {
                if let Some(t) = resolve_type_item(self.defs, scope.module, param, None) {
                    all.entry(t).or_default().push(f);
                }
            }
            all
        });
        all.get(&ty).map_or(&[], Vec::as_slice)
    }

    /// Each crate `fn from(x: T)` with its scope and `T`.
    fn crate_from_fns(&self) -> impl Iterator<Item = (FnKey, FnScope, &syn::Type)> + '_ {
        self.blocks.keys().filter_map(|f| {
            // SAFETY of the deref: `FnKey`s point into syntax trees that outlive the analysis.
            let sig = unsafe { &**f };
            if sig.ident != "from" || sig.inputs.len() != 1 {
                return None;
            }
            match (sig.inputs.first(), self.types.scope_of(*f)) {
                (Some(syn::FnArg::Typed(param)), Some(scope)) => Some((*f, scope, &*param.ty)),
                _ => None,
            }
        })
    }

    /// The crate's `fn from(x: T)`s for another crate's error type `T`, by its path
    /// (`std::io::Error`, as [`crate::types::external_error_name`] names it).
    pub fn external_from_fns_of(&self, name: &str) -> &[FnKey] {
        let all = self.external_from_fns.get_or_init(|| {
            let mut all: HashMap<String, Vec<FnKey>> = HashMap::new();
            for (f, scope, param) in self.crate_from_fns() {
                if resolve_type_item(self.defs, scope.module, param, None).is_some() {
                    continue;
                }
                if let Some(n) = crate::types::external_error_name(self.defs, scope.module, param) {
                    all.entry(n).or_default().push(f);
                }
            }
            all
        });
        all.get(name).map_or(&[], Vec::as_slice)
    }

    /// The crate's `fn from(x: T)`s into crate type `target` whose `T` is not a crate type.
    pub fn external_from_fns_into(&self, target: ItemId) -> Vec<FnKey> {
        self.crate_from_fns()
            .filter(|(_, scope, param)| {
                resolve_type_item(self.defs, scope.module, param, None).is_none()
                    && self.types.self_type(*scope) == Some(target)
            })
            .map(|(f, ..)| f)
            .collect()
    }

    /// The one of `from_fns` (a [`Self::from_fns_of`] or [`Self::external_from_fns_of`]) that
    /// converts into crate type `target`, when there is exactly one.
    pub fn only_from_fn_into(&self, from_fns: &[FnKey], target: ItemId) -> Option<FnKey> {
        let mut into = from_fns.iter().copied().filter(|f| {
            self.types
                .scope_of(*f)
                .and_then(|s| self.types.self_type(s))
                == Some(target)
        });
        match (into.next(), into.next()) {
            (Some(f), None) => Some(f),
            _ => None,
        }
    }

    /// The protocol error each call of `f` builds, when `f` is an error type's constructor.
    pub fn error_constructor(&self, f: FnKey) -> Option<&ErrorConstructor> {
        self.error_constructors.get(&f)
    }

    /// The tool result each call of `f` builds with the flag it passes, when `f` is a
    /// [`ResultHelper`].
    pub fn result_helper(&self, f: FnKey) -> Option<&ResultHelper> {
        self.result_helpers.get(&f)
    }
}

/// The resolved call graph: each edge's callee bodies, and the edges out of and into each body.
pub struct CallGraph {
    /// Callees of each edge, resolved.
    pub callees: Vec<Vec<BodyId>>,
    /// Edge indices leaving each body.
    pub out_edges: Vec<Vec<usize>>,
    /// Edge indices whose callees include each body, in edge order.
    pub in_edges: Vec<Vec<usize>>,
}

impl CallGraph {
    /// Resolve every edge to the bodies it may run: a test body is called only from tests,
    /// candidates of an untyped receiver count for none, a `?` goes to the `From` impls for its
    /// operand's error type.
    pub fn build(bodies: &[BodyInfo<'_>], edges: &[CallEdge]) -> CallGraph {
        let n = bodies.len();
        let from_impls = FromImpls::of(bodies);
        let callees: Vec<Vec<BodyId>> = edges
            .iter()
            .map(|e| match &e.callee {
                Callee::Body(b) if !bodies[b.0].inert || bodies[e.from.0].inert => vec![*b],
                Callee::Body(_) => Vec::new(),
                // The receiver's type is unknown: no single fn is meant.
                Callee::Candidates(_) | Callee::Slot(..) => Vec::new(),
                Callee::Dispatch(bs) => bs.iter().copied().filter(|b| !bodies[b.0].inert).collect(),
                Callee::FromImpls(source) => from_impls.converting(source),
            })
            .collect();

        let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, e) in edges.iter().enumerate() {
            out_edges[e.from.0].push(i);
        }
        let mut in_edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (ei, cs) in callees.iter().enumerate() {
            for c in cs {
                if in_edges[c.0].last() != Some(&ei) {
                    in_edges[c.0].push(ei);
                }
            }
        }
        CallGraph {
            callees,
            out_edges,
            in_edges,
        }
    }

    /// The calls each body makes, for the summaries: each callee with the variants the call
    /// instantiates it with (see [`edge_variants`]).
    pub fn body_calls(&self, edges: &[CallEdge], returned: &ErrorVariants) -> Vec<Vec<BodyCall>> {
        self.out_edges
            .iter()
            .map(|es| {
                es.iter()
                    .flat_map(|&ei| {
                        let edge = &edges[ei];
                        let variants = edge_variants(edge, returned);
                        self.callees[ei].iter().map(move |&callee| BodyCall {
                            callee,
                            variants: variants.clone(),
                            result_args: edge.result_args.clone(),
                            in_result_arm: edge.in_result_arm,
                        })
                    })
                    .collect()
            })
            .collect()
    }
}

/// The crate's `From` impl bodies (not inert), grouped by the error type each converts from,
/// so that each `?` finds its impls without a scan of all of them.
struct FromImpls {
    all: Vec<BodyId>,
    by_local: HashMap<ItemId, Vec<BodyId>>,
    by_external: HashMap<String, Vec<BodyId>>,
}

impl FromImpls {
    fn of(bodies: &[BodyInfo<'_>]) -> FromImpls {
        let mut impls = FromImpls {
            all: Vec::new(),
            by_local: HashMap::new(),
            by_external: HashMap::new(),
        };
        for b in bodies.iter().filter(|b| b.is_from_impl && !b.inert) {
            impls.all.push(b.id);
            match &b.from_source_type {
                Some(ErrorSource::Local(ty, _)) => {
                    impls.by_local.entry(*ty).or_default().push(b.id)
                }
                Some(ErrorSource::External(ty)) => {
                    impls.by_external.entry(ty.clone()).or_default().push(b.id);
                }
                _ => {}
            }
        }
        impls
    }

    /// The `From` impls a `?` converts through: the one for the operand's error type when the
    /// source tells it (none when no impl takes that type: it is the protocol error already, or
    /// converts otherwise); the only impl when it does not.
    fn converting(&self, source: &ErrorSource) -> Vec<BodyId> {
        let found = match source {
            ErrorSource::Unknown => {
                return match self.all[..] {
                    [one] => vec![one],
                    _ => Vec::new(),
                };
            }
            ErrorSource::Local(ty, _) => self.by_local.get(ty),
            ErrorSource::External(ty) => self.by_external.get(ty),
        };
        found.cloned().unwrap_or_default()
    }
}

/// The variants an edge instantiates its callee with, for `From` impls and error mappings: the
/// one it builds right there, or those the fn whose error it converts can return; `None` when
/// the source does not tell.
pub fn edge_variants(edge: &CallEdge, returned: &ErrorVariants) -> Option<Vec<(ItemId, String)>> {
    if let Some(passes) = &edge.passes {
        let mut all = passes.variants.clone();
        for b in &passes.through {
            let (e, vs) = returned.of(*b)?;
            all.extend(vs.iter().map(|v| (e, v.clone())));
        }
        return Some(all);
    }
    match (&edge.callee, &edge.variant, edge.errors_of) {
        (Callee::FromImpls(ErrorSource::Local(id, Some(v))), _, _) => Some(vec![(*id, v.clone())]),
        (_, Some((id, v)), _) => Some(vec![(*id, v.clone())]),
        (_, None, Some(b)) => {
            let (e, vs) = returned.of(b)?;
            Some(vs.iter().map(|v| (e, v.clone())).collect())
        }
        _ => None,
    }
}

/// `x.as_ref()`, `x.as_deref()`, `&x.clone()`: the value these borrow or copy, `x`.
pub fn through_borrowing_calls(expr: &Expr) -> &Expr {
    let mut expr = strip_refs(expr);
    while let Expr::MethodCall(m) = expr {
        let borrows = m.args.is_empty()
            && matches!(
                m.method.to_string().as_str(),
                "as_ref" | "as_deref" | "as_mut" | "as_deref_mut" | "clone" | "cloned" | "copied"
            );
        if !borrows {
            break;
        }
        expr = strip_refs(&m.receiver);
    }
    expr
}

/// `f` as a crate error type's own constructor of a protocol error: an associated fn returning
/// `Self` whose value is `Self { code, message }` (or the type by name) as its dialect reads
/// such a literal, with the code static or a parameter and the message from a parameter.
/// Crate types that carry a wire code in a field, by the field: a method of the type passes
/// `self.<field>` as the code of an SDK protocol error (`fn to_mcp(self) -> ErrorData {
/// ErrorData::new(self.rpc_code, ..) }`), or a `From` impl passes `e.<field>`. Their
/// constructors then choose the code ([`error_constructor`]).
pub fn code_carriers<'d, 'i, 'a: 'i>(
    fns: &[&FnItem<'a>],
    types: &Types<'_>,
    defs: &DefMap<'_>,
    dialect_of: &dyn Fn(crate::source::FileId) -> Option<&'d dyn Dialect>,
    index_of: &dyn Fn(crate::source::FileId) -> &'i Index<'a>,
) -> HashMap<ItemId, String> {
    let mut carriers = HashMap::new();
    for f in fns {
        if f.is_test {
            continue;
        }
        let Some(scope) = types.scope_of(f.sig as FnKey) else {
            continue;
        };
        // The value whose field is read: `self` in a method of the type, or a `From` impl's
        // one parameter, with the crate type it has.
        let (value, ty) = match (&f.owner, f.sig.inputs.first()) {
            (Owner::Inherent { .. }, Some(syn::FnArg::Receiver(_))) => {
                ("self".to_string(), types.self_type(scope))
            }
            (Owner::Trait { trait_name, .. }, Some(syn::FnArg::Typed(t)))
                if trait_name == "From" && f.sig.inputs.len() == 1 =>
            {
                let Pat::Ident(name) = &*t.pat else { continue };
                let ty = resolve_type_item(defs, scope.module, &t.ty, None);
                (name.ident.to_string(), ty)
            }
            _ => continue,
        };
        let (Some(ty), Some(dialect)) = (ty, dialect_of(f.file)) else {
            continue;
        };
        let mut finder = CarriedCode {
            value: &value,
            dialect,
            index: index_of(f.file),
            field: None,
        };
        syn::visit::Visit::visit_block(&mut finder, f.block);
        if let Some(field) = finder.field {
            carriers.insert(ty, field);
        }
    }
    carriers
}

/// Finds `ErrorData::new(<value>.<field>, ..)`: an SDK protocol error whose code the source
/// does not state, built with a field of `value` as an argument.
struct CarriedCode<'v, 'd, 'i, 'a> {
    value: &'v str,
    dialect: &'d dyn Dialect,
    index: &'i Index<'a>,
    field: Option<String>,
}

impl<'ast> syn::visit::Visit<'ast> for CarriedCode<'_, '_, '_, '_> {
    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        let built =
            self.dialect
                .construction_of_call(call, self.index, &crate::sdk::ReturnFacts::UNKNOWN);
        if let Some(Construction::ProtocolError { code: None, .. }) = built {
            let field = call.args.iter().find_map(|a| {
                // `ErrorCode(self.code)`: the newtype around the code.
                let a = match strip_refs(a) {
                    Expr::Call(w) if w.args.len() == 1 => strip_refs(&w.args[0]),
                    other => other,
                };
                match a {
                    Expr::Field(fe) => match (&*fe.base, &fe.member) {
                        (Expr::Path(p), syn::Member::Named(name))
                            if p.path.is_ident(self.value) =>
                        {
                            Some(name.to_string())
                        }
                        _ => None,
                    },
                    _ => None,
                }
            });
            if field.is_some() {
                self.field = field;
            }
        }
        syn::visit::visit_expr_call(self, call);
    }
}

pub fn error_constructor(
    f: &FnItem<'_>,
    dialect: &dyn Dialect,
    index: &Index<'_>,
    source: Option<&crate::source::SourceFile>,
    carried: Option<&str>,
) -> Option<ErrorConstructor> {
    let Owner::Inherent { self_ty } = &f.owner else {
        return error_helper(f, dialect, index, source);
    };
    if !f.is_constructor() {
        return error_helper(f, dialect, index, source);
    }
    if f.is_test {
        return None;
    }
    // A response envelope's constructor (`fn err(id, code, message) -> Self { Self { id,
    // result: None, error: Some(RpcError { code, message: message.into() }) } }`): the error
    // object is a field of `Self`, as in a free helper.
    self_error_constructor(f, self_ty, dialect, index, carried)
        .or_else(|| error_helper(f, dialect, index, source))
}

/// An inherent constructor whose `Self { .. }` is the protocol error, or carries the code a
/// conversion puts on the wire.
fn self_error_constructor(
    f: &FnItem<'_>,
    self_ty: &str,
    dialect: &dyn Dialect,
    index: &Index<'_>,
    carried: Option<&str>,
) -> Option<ErrorConstructor> {
    let Some(syn::Stmt::Expr(tail, None)) = f.block.stmts.last() else {
        return None;
    };
    let Expr::Struct(s) = tail_expr(tail) else {
        return None;
    };
    let named = s.path.is_ident("Self") || s.path.is_ident(self_ty);
    if !named || s.rest.is_some() {
        return None;
    }
    // The type is the protocol error (`Self { code: INVALID_PARAMS, message }`), or carries the
    // code a conversion puts on the wire (`Self { rpc_code: ErrorCode::INVALID_PARAMS, .. }`).
    let (code, message, code_field) = match dialect.construction_of_self_struct(s, self_ty, index) {
        Some(Construction::ProtocolError { code, message, .. }) => (code, message, "code"),
        _ => {
            let field = carried?;
            let expr = field_value(s, field)?;
            let code = dialect
                .code_use(expr, index)
                .map(|c| c.value)
                .or_else(|| index.eval_int(expr));
            (code, None, field)
        }
    };
    let params = crate::syntax::typed_param_names(f.sig);
    // The one parameter an expression mentions.
    let param_of = |e: &Expr| one_param_mentioned(&params, e);
    let code_expr = field_value(s, code_field);
    let code_param = match code {
        Some(_) => None,
        None => Some(param_of(code_expr?)?),
    };
    Some(ErrorConstructor {
        name: format!("{self_ty}::{}", f.name),
        code,
        code_param,
        message_param: message.and_then(param_of),
        receiver: false,
    })
}

/// A static fn whose tail calls one of the crate's error constructors (`known`) with a code of
/// its own (`fn internal(m: impl Into<String>) -> Self { Self::new(codes::INTERNAL_ERROR, m) }`):
/// a constructor of that code, whose calls are where a code is chosen, as an SDK's are.
pub fn delegating_error_constructor(
    f: &FnItem<'_>,
    dialect: &dyn Dialect,
    index: &Index<'_>,
    resolver: &Resolver<'_, '_>,
    known: &HashMap<FnKey, ErrorConstructor>,
    carriers: &HashMap<ItemId, String>,
) -> Option<ErrorConstructor> {
    if f.is_test
        || f.sig.receiver().is_some()
        || !matches!(f.owner, Owner::Free | Owner::Inherent { .. })
    {
        return None;
    }
    // The whole body is the call: a fn that also returns elsewhere builds other values too.
    let [syn::Stmt::Expr(tail, None)] = &f.block.stmts[..] else {
        return None;
    };
    let Expr::Call(call) = tail_expr(tail) else {
        return None;
    };
    let Some(Target::Fn(target)) = resolver.call_target(tail_expr(tail), &Locals::default()) else {
        return None;
    };
    let inner = known.get(&target).filter(|c| !c.receiver)?;
    // A type that carries its wire code (`AppError::validation(..)` choosing -32602) is
    // converted later: its constructors are where the code is chosen.
    if resolver
        .types
        .scope_of(target)
        .and_then(|s| resolver.types.self_type(s))
        .is_some_and(|t| carriers.contains_key(&t))
    {
        return None;
    }
    let code = match (inner.code, inner.code_param) {
        (Some(code), _) => code,
        (None, Some(at)) => {
            let arg = call.args.iter().nth(at)?;
            dialect
                .code_use(arg, index)
                .map(|c| c.value)
                .or_else(|| index.eval_int(arg))?
        }
        (None, None) => return None,
    };
    let params = crate::syntax::typed_param_names(f.sig);
    let message_param = inner
        .message_param
        .and_then(|at| message_param_of(&params, call.args.iter().nth(at)?));
    // A helper that writes its own text (`format!("Tool {name} not found")`) is where the
    // text is: it stays a helper, reported with its callers.
    if inner.message_param.is_some() && message_param.is_none() {
        return None;
    }
    Some(ErrorConstructor {
        name: match &f.owner {
            Owner::Inherent { self_ty } => format!("{self_ty}::{}", f.name),
            _ => f.name.clone(),
        },
        code: Some(code),
        code_param: None,
        message_param,
        receiver: false,
    })
}

/// The index of the parameter `e` names (`code`).
fn param_named(params: &[String], e: &Expr) -> Option<usize> {
    match strip_parens(e) {
        Expr::Path(p) => {
            let name = p.path.get_ident()?.to_string();
            params.iter().position(|q| *q == name)
        }
        _ => None,
    }
}

/// A message argument: a parameter, or a parameter converted (`message.into()`).
fn message_param_of(params: &[String], m: &Expr) -> Option<usize> {
    match strip_parens(m) {
        Expr::MethodCall(mc) if mc.args.is_empty() => param_named(params, &mc.receiver),
        other => param_named(params, other),
    }
}

/// The index of the one parameter of `params` that `e` mentions.
fn one_param_mentioned(params: &[String], e: &Expr) -> Option<usize> {
    let tokens = e.to_token_stream_string();
    let mut hit = params
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.is_empty() && mentions_ident(&tokens, p));
    match (hit.next(), hit.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// A free fn or inherent method whose tail builds a tool result with the `isError` flag one of
/// its parameters gives, also serialised (`.to_string()`), or a crate result type's constructor
/// whose `Self { .. }` literal sets the flag ([`ResultHelper`]).
pub fn result_helper(
    f: &FnItem<'_>,
    dialect: &dyn Dialect,
    index: &Index<'_>,
) -> Option<ResultHelper> {
    if f.is_test || matches!(f.owner, Owner::Trait { .. } | Owner::TraitDefault { .. }) {
        return None;
    }
    let params = crate::syntax::typed_param_names(f.sig);
    // `let mut result = json!({..}); if is_error { result["isError"] = json!(true); }`, the
    // result then sent or returned.
    if let Some((flag_param, text_param)) = dialect.result_flag_set_params(f.block, &params) {
        return Some(ResultHelper {
            name: f.name.clone(),
            flag: ResultFlag::Param(flag_param),
            text_param,
        });
    }
    let Some(syn::Stmt::Expr(tail, None)) = f.block.stmts.last() else {
        return None;
    };
    let tail = tail_expr(tail);
    // `CallToolResult { content, is_error: Some(is_error), .. }`: the SDK's result, its flag a
    // parameter.
    if let Expr::Struct(s) = tail {
        if let Some(Construction::ToolResult { content, .. }) =
            dialect.construction_of_struct(s, index)
        {
            let flag = ["is_error", "isError"]
                .iter()
                .find_map(|name| crate::syntax::field_value(s, name))
                .map(|v| match strip_parens(v) {
                    Expr::Call(c)
                        if c.args.len() == 1
                            && matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some")) =>
                    {
                        &c.args[0]
                    }
                    other => other,
                });
            let flag_param = flag.and_then(|v| match strip_parens(v) {
                Expr::Path(p) => params.iter().position(|q| p.path.is_ident(q)),
                _ => None,
            });
            if let Some(flag_param) = flag_param {
                return Some(ResultHelper {
                    name: f.name.clone(),
                    flag: ResultFlag::Param(flag_param),
                    text_param: content.and_then(|c| one_param_mentioned(&params, c)),
                });
            }
        }
    }
    if let (Owner::Inherent { self_ty }, Expr::Struct(s)) = (&f.owner, tail) {
        if !f.is_constructor() {
            return None;
        }
        // `Self { is_error: true, ..Self::text(text) }`: the flag is the literal's own, the
        // content the base's.
        let Some(Construction::ToolResult {
            is_error, content, ..
        }) = dialect.construction_of_self_struct(s, self_ty, index)
        else {
            return None;
        };
        // The one parameter the content mentions is its text.
        let text_param = one_param_mentioned(&params, content.or(s.rest.as_deref())?);
        return Some(ResultHelper {
            name: format!("{self_ty}::{}", f.name),
            flag: ResultFlag::Fixed(is_error),
            text_param,
        });
    }
    let Expr::Macro(m) = crate::syntax::through_unary_methods(tail) else {
        return None;
    };
    let (flag_param, text_param) = dialect.result_flag_params(&m.mac, &params)?;
    Some(ResultHelper {
        name: f.name.clone(),
        flag: ResultFlag::Param(flag_param),
        text_param,
    })
}

/// A hand-rolled server's free fn or method that answers with an error object whose code is one
/// of its parameters (`fn err(id: Value, code: i32, message: impl Into<String>) -> Response {
/// Response { id, result: None, error: Some(ErrorObj { code, message: message.into() }) } }`,
/// `req.error(code, message)` building it with `self.id`): each call is that construction with
/// the caller's code, whatever the fn is named. Parameters are counted without the receiver.
fn error_helper(
    f: &FnItem<'_>,
    dialect: &dyn Dialect,
    index: &Index<'_>,
    source: Option<&crate::source::SourceFile>,
) -> Option<ErrorConstructor> {
    let owned = matches!(f.owner, Owner::Free | Owner::Inherent { .. });
    if f.is_test || !owned {
        return None;
    }
    let Some(syn::Stmt::Expr(tail, None)) = f.block.stmts.last() else {
        return None;
    };
    let params = crate::syntax::typed_param_names(f.sig);
    let param_named = |e: &Expr| param_named(&params, e);
    let message_param_of = |m: &Expr| message_param_of(&params, m);
    let tail = tail_expr(tail);
    // `ErrorData::new(code, message, None)`: an SDK constructor given the code parameter.
    if let Expr::Call(call) = tail {
        let Some(Construction::ProtocolError {
            code: None,
            message,
            ..
        }) = dialect.construction_of_call(call, index, &crate::sdk::ReturnFacts::UNKNOWN)
        else {
            return None;
        };
        let message_param = message.and_then(message_param_of);
        let code_param = call
            .args
            .iter()
            .filter_map(&param_named)
            .find(|p| Some(*p) != message_param)?;
        return Some(ErrorConstructor {
            name: f.name.clone(),
            code: None,
            code_param: Some(code_param),
            message_param,
            receiver: f.sig.receiver().is_some(),
        });
    }
    // `json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})`,
    // also serialised (`.to_string()`).
    if let (Expr::Macro(m), Some(source)) = (crate::syntax::through_unary_methods(tail), source) {
        let Some(crate::sdk::MacroBuilt::Protocol {
            code: None,
            code_expr: Some(code_expr),
            ..
        }) =
            dialect.construction_of_macro(&m.mac, index, source, &crate::sdk::ReturnFacts::UNKNOWN)
        else {
            return None;
        };
        let Expr::Path(code_local) = *code_expr else {
            return None;
        };
        let code_local = code_local.path.get_ident()?.to_string();
        return Some(ErrorConstructor {
            name: f.name.clone(),
            code: None,
            code_param: Some(params.iter().position(|q| *q == code_local)?),
            message_param: crate::syntax::json_member_param(&m.mac.tokens, "message", &params),
            receiver: f.sig.receiver().is_some(),
        });
    }
    let Expr::Struct(outer) = tail else {
        return None;
    };
    // The error object: the tail itself or a field of it (through `Some(..)`).
    let candidates = std::iter::once(outer).chain(outer.fields.iter().filter_map(|fv| {
        match strip_parens(&fv.expr) {
            Expr::Struct(s) => Some(s),
            Expr::Call(c)
                if c.args.len() == 1
                    && matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some")) =>
            {
                match &c.args[0] {
                    Expr::Struct(s) => Some(s),
                    _ => None,
                }
            }
            _ => None,
        }
    }));
    let (error, message) =
        candidates
            .into_iter()
            .find_map(|s| match dialect.construction_of_struct(s, index) {
                Some(Construction::ProtocolError {
                    code: None,
                    message,
                    ..
                }) => Some((s, message)),
                _ => None,
            })?;
    let code_expr = field_value(error, "code")?;
    let message_param = message.and_then(message_param_of);
    Some(ErrorConstructor {
        name: f.name.clone(),
        code: None,
        code_param: Some(param_named(code_expr)?),
        message_param,
        receiver: f.sig.receiver().is_some(),
    })
}

/// The bounds a type parameter `param` has in `generics`: inline (`<T: A + B>`) and in the
/// `where` clause.
pub(crate) fn param_bounds<'g>(
    generics: &'g syn::Generics,
    param: &syn::Ident,
) -> Vec<&'g syn::TypeParamBound> {
    let mut bounds: Vec<&syn::TypeParamBound> = Vec::new();
    for g in &generics.params {
        if let syn::GenericParam::Type(t) = g {
            if t.ident == *param {
                bounds.extend(&t.bounds);
            }
        }
    }
    for predicate in generics.where_clause.iter().flat_map(|w| &w.predicates) {
        if let syn::WherePredicate::Type(t) = predicate {
            if matches!(&t.bounded_ty, Type::Path(p) if p.path.is_ident(param)) {
                bounds.extend(&t.bounds);
            }
        }
    }
    bounds
}

/// The type parameter a field's type is, through references and `Box`/`Arc`/`Rc`.
fn generic_param_of(ty: &Type) -> Option<&syn::Ident> {
    match ty {
        Type::Reference(r) => generic_param_of(&r.elem),
        Type::Paren(p) => generic_param_of(&p.elem),
        Type::Path(p) if p.qself.is_none() => {
            if let Some(ident) = p.path.get_ident() {
                return Some(ident);
            }
            let last = p.path.segments.last()?;
            if !matches!(last.ident.to_string().as_str(), "Box" | "Arc" | "Rc") {
                return None;
            }
            generic_param_of(crate::syntax::type_arguments(&last.arguments).next()?)
        }
        _ => None,
    }
}

/// The crate item a type names as written, through references (a type alias is its own item):
/// `ToolFn` of `&HashMap<&str, ToolFn>`'s value, `registry::ToolFn`.
pub fn named_type_item(
    defs: &DefMap<'_>,
    module: crate::resolve::ModuleId,
    ty: &syn::Type,
) -> Option<ItemId> {
    match ty {
        syn::Type::Reference(r) => named_type_item(defs, module, &r.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            match defs.resolve_path(module, &p.path, Ns::Types)? {
                Def::Item(id) => Some(id),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `x.insert("name", wrapper(path::to_fn))`: the wrapper's and the inserted fn's paths.
pub fn registry_insert_paths(mc: &syn::ExprMethodCall) -> Option<(&syn::ExprPath, &syn::ExprPath)> {
    if mc.method != "insert" || mc.args.len() != 2 {
        return None;
    }
    let (
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(_),
            ..
        }),
        Expr::Call(wrap),
    ) = (&mc.args[0], &mc.args[1])
    else {
        return None;
    };
    match (&*wrap.func, wrap.args.len(), wrap.args.first()) {
        (Expr::Path(w), 1, Some(Expr::Path(f))) => Some((w, f)),
        _ => None,
    }
}

/// The [`registry_insert_paths`] of a body.
struct RegistryInserts<'b>(Vec<(&'b syn::ExprPath, &'b syn::ExprPath)>);

impl<'b> syn::visit::Visit<'b> for RegistryInserts<'b> {
    fn visit_expr_method_call(&mut self, mc: &'b syn::ExprMethodCall) {
        self.0.extend(registry_insert_paths(mc));
        syn::visit::visit_expr_method_call(self, mc);
    }
}
