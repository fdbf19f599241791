//! The types the source states, and the methods they have: each `impl`'s self type and trait,
//! inherent and trait methods per type, trait default methods (and which impls override them),
//! struct field types. Method calls resolve by receiver type through it; when the receiver's type
//! is not written anywhere, [`Types::methods_named`] lists the candidates and the caller decides
//! (it stays silent when they disagree).

use std::collections::HashMap;

use syn::{ImplItem, Item, Type};

use crate::resolve::{Container, Def, DefMap, FnScope, ItemId, ItemKind, ModuleId, Ns};
use crate::syntax::type_arguments;

/// A fn of the crate, by the address of its signature (the syntax trees outlive the analysis).
pub type FnKey = *const syn::Signature;

/// A trait an `impl` implements: one of the crate's, or another crate's by its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraitRef {
    Local(ItemId),
    External(Vec<String>),
}

pub struct Types<'a> {
    /// Per `impl` block (index into [`DefMap::impls`]): its self type when it is a crate type.
    impl_self: Vec<Option<ItemId>>,
    inherent: HashMap<(ItemId, String), Vec<FnKey>>,
    trait_methods: HashMap<(ItemId, String), Vec<FnKey>>,
    /// Crate traits each crate type implements.
    traits_of: HashMap<ItemId, Vec<ItemId>>,
    /// Default method bodies of crate traits.
    trait_defaults: HashMap<(ItemId, String), FnKey>,
    /// The methods of every impl of a crate trait, by trait and name (a call on `dyn Trait`
    /// may run any of them).
    implementations: HashMap<(ItemId, String), Vec<FnKey>>,
    /// Every method with a `self` receiver, by name.
    by_name: HashMap<String, Vec<FnKey>>,
    /// Field types of crate structs (named fields, and tuple fields by index).
    fields: HashMap<(ItemId, String), &'a Type>,
    /// Return types of fns, for constructors (`fn new() -> Self`).
    returns: HashMap<FnKey, &'a syn::ReturnType>,
    scopes: HashMap<FnKey, FnScope>,
    /// Fn-typed struct fields a constructor stores one of its parameters in
    /// (`Self { handler: Box::new(handler) }`): by constructor and parameter (receiver not
    /// counted), the struct and field.
    closure_slots: HashMap<(FnKey, usize), (ItemId, String)>,
    /// The fields of `closure_slots`, for a call of one (`(self.handler)(args)`).
    slot_fields: std::collections::HashSet<(ItemId, String)>,
    /// Crate types that are futures of a `Result`: the error type's name
    /// (`impl Future for AsyncTask<T> { type Output = Result<T, oneshot::error::RecvError>; }`).
    future_errors: HashMap<ItemId, String>,
}

impl<'a> Types<'a> {
    pub fn build(defs: &DefMap<'a>) -> Types<'a> {
        let mut t = Types {
            impl_self: Vec::with_capacity(defs.impls.len()),
            inherent: HashMap::new(),
            trait_methods: HashMap::new(),
            traits_of: HashMap::new(),
            trait_defaults: HashMap::new(),
            implementations: HashMap::new(),
            by_name: HashMap::new(),
            fields: HashMap::new(),
            returns: HashMap::new(),
            scopes: HashMap::new(),
            closure_slots: HashMap::new(),
            slot_fields: Default::default(),
            future_errors: HashMap::new(),
        };
        for (i, item) in defs.items.iter().enumerate() {
            let id = ItemId(i as u32);
            match item.syntax {
                Item::Struct(s) => {
                    for (n, f) in s.fields.iter().enumerate() {
                        let name = f
                            .ident
                            .as_ref()
                            .map_or_else(|| n.to_string(), |i| i.to_string());
                        t.fields.insert((id, name), &f.ty);
                    }
                }
                Item::Trait(tr) => {
                    for ti in &tr.items {
                        if let syn::TraitItem::Fn(f) = ti {
                            let key: FnKey = &f.sig;
                            t.returns.insert(key, &f.sig.output);
                            t.scopes.insert(
                                key,
                                FnScope {
                                    module: item.module,
                                    container: Container::Trait(id),
                                },
                            );
                            if f.default.is_some() {
                                t.trait_defaults.insert((id, f.sig.ident.to_string()), key);
                                if f.sig.receiver().is_some() {
                                    t.by_name
                                        .entry(f.sig.ident.to_string())
                                        .or_default()
                                        .push(key);
                                }
                            }
                        }
                    }
                }
                Item::Fn(f) => {
                    let key: FnKey = &f.sig;
                    t.returns.insert(key, &f.sig.output);
                    t.scopes.insert(
                        key,
                        FnScope {
                            module: item.module,
                            container: Container::Free,
                        },
                    );
                }
                _ => {}
            }
        }
        for (i, imp) in defs.impls.iter().enumerate() {
            let self_ty = resolve_type_item(defs, imp.module, &imp.syntax.self_ty, None);
            let trait_ref = imp.syntax.trait_.as_ref().and_then(|(_, path, _)| {
                match defs.resolve_path(imp.module, path, Ns::Types) {
                    Some(Def::Item(id)) if defs.item(id).kind == ItemKind::Trait => {
                        Some(TraitRef::Local(id))
                    }
                    Some(Def::External(p)) => Some(TraitRef::External(p)),
                    _ => None,
                }
            });
            if let (Some(ty), Some(TraitRef::Local(tr))) = (self_ty, &trait_ref) {
                t.traits_of.entry(ty).or_default().push(*tr);
            }
            if let (Some(ty), Some(error)) = (self_ty, future_error(imp.syntax)) {
                t.future_errors.insert(ty, error);
            }
            for ii in &imp.syntax.items {
                let ImplItem::Fn(f) = ii else { continue };
                let key: FnKey = &f.sig;
                let name = f.sig.ident.to_string();
                t.returns.insert(key, &f.sig.output);
                t.scopes.insert(
                    key,
                    FnScope {
                        module: imp.module,
                        container: Container::Impl(i),
                    },
                );
                if f.sig.receiver().is_some() {
                    t.by_name.entry(name.clone()).or_default().push(key);
                }
                if let Some(TraitRef::Local(tr)) = &trait_ref {
                    t.implementations
                        .entry((*tr, name.clone()))
                        .or_default()
                        .push(key);
                }
                if let (Some(ty), None) = (self_ty, &trait_ref) {
                    for (param, field) in stored_params(f) {
                        let fn_typed = t.fields.get(&(ty, field.clone())).is_some_and(|ft| {
                            crate::syntax::mentions_ident(
                                &quote::ToTokens::to_token_stream(*ft).to_string(),
                                "Fn",
                            )
                        });
                        if fn_typed {
                            t.slot_fields.insert((ty, field.clone()));
                            t.closure_slots.insert((key, param), (ty, field));
                        }
                    }
                }
                if let Some(ty) = self_ty {
                    let table = if trait_ref.is_some() {
                        &mut t.trait_methods
                    } else {
                        &mut t.inherent
                    };
                    table.entry((ty, name)).or_default().push(key);
                }
            }
            t.impl_self.push(self_ty);
        }
        t
    }

    /// The crate type an `impl` block is for.
    pub fn impl_self(&self, index: usize) -> Option<ItemId> {
        self.impl_self.get(index).copied().flatten()
    }

    /// The `Self` type of code in a fn's scope.
    pub fn self_type(&self, scope: FnScope) -> Option<ItemId> {
        match scope.container {
            Container::Impl(i) => self.impl_self(i),
            Container::Trait(_) | Container::Free => None,
        }
    }

    /// The method or associated fn `name` of crate type `ty`: inherent first, then the trait
    /// impls (an override before the trait's default). `None` when absent or ambiguous.
    pub fn method(&self, ty: ItemId, name: &str) -> Option<FnKey> {
        let key = (ty, name.to_string());
        if let Some(fns) = self.inherent.get(&key) {
            return single(fns);
        }
        if let Some(fns) = self.trait_methods.get(&key) {
            return single(fns);
        }
        let defaults: Vec<FnKey> = self
            .traits_of
            .get(&ty)
            .into_iter()
            .flatten()
            .filter_map(|tr| self.trait_defaults.get(&(*tr, name.to_string())).copied())
            .collect();
        single(&defaults)
    }

    /// A trait's own method `name` called through the trait (`Trait::name(x)`, or `self.name()`
    /// in a default method): its default body, when it has one.
    pub fn trait_default(&self, tr: ItemId, name: &str) -> Option<FnKey> {
        self.trait_defaults.get(&(tr, name.to_string())).copied()
    }

    /// What a call of crate trait `tr`'s method `name` on a trait object may run: every impl's
    /// method, and the default body for impls that do not override it.
    pub fn dispatch(&self, tr: ItemId, name: &str) -> Vec<FnKey> {
        let key = (tr, name.to_string());
        let mut out = self.implementations.get(&key).cloned().unwrap_or_default();
        out.extend(self.trait_defaults.get(&key).copied());
        out
    }

    /// Every crate method with a `self` receiver named `name`.
    pub fn methods_named(&self, name: &str) -> &[FnKey] {
        self.by_name.get(name).map_or(&[], Vec::as_slice)
    }

    /// The Fn-typed field constructor `f` stores its parameter `param` in (receiver not
    /// counted), if it does.
    pub fn closure_slot(&self, f: FnKey, param: usize) -> Option<&(ItemId, String)> {
        self.closure_slots.get(&(f, param))
    }

    /// Whether some constructor stores a closure in field `name` of `ty`.
    pub fn is_closure_slot(&self, ty: ItemId, name: &str) -> bool {
        self.slot_fields.contains(&(ty, name.to_string()))
    }

    pub fn field(&self, ty: ItemId, name: &str) -> Option<&'a Type> {
        self.fields.get(&(ty, name.to_string())).copied()
    }

    pub fn scope_of(&self, f: FnKey) -> Option<FnScope> {
        self.scopes.get(&f).copied()
    }

    /// Whether `f` is declared to return a `Result`, its future's output included.
    pub fn returns_result(&self, f: FnKey) -> bool {
        matches!(self.returns.get(&f), Some(syn::ReturnType::Type(_, ty))
            if crate::syntax::type_name(crate::syntax::unwrap_future(ty)).is_some_and(|n| n == "Result"))
    }

    /// What a call of `f` evaluates to, when it is a crate type: `-> Self`, `-> Foo`,
    /// `-> Result<Self, _>` (for `?`), `-> Arc<Foo>`.
    /// The return type of crate fn `f` as written.
    pub fn return_syntax(&self, f: FnKey) -> Option<&'a syn::ReturnType> {
        self.returns.get(&f).copied()
    }

    /// The crate type of `E` in `f`'s declared `Result<T, E>`.
    pub fn error_type(&self, defs: &DefMap<'a>, f: FnKey) -> Option<ItemId> {
        let syn::ReturnType::Type(_, ty) = self.returns.get(&f)? else {
            return None;
        };
        let scope = self.scope_of(f)?;
        let (err, module) = declared_result_error(defs, scope.module, ty)?;
        resolve_type_item(defs, module, err, self.self_type(scope))
    }

    /// The error type's name of a crate type that is a future of a `Result`.
    pub fn future_error(&self, ty: ItemId) -> Option<&str> {
        self.future_errors.get(&ty).map(String::as_str)
    }

    pub fn return_type(&self, defs: &DefMap<'a>, f: FnKey) -> Option<ItemId> {
        let syn::ReturnType::Type(_, ty) = self.returns.get(&f)? else {
            return None;
        };
        let scope = self.scope_of(f)?;
        let ty = ok_type(ty).unwrap_or(ty);
        resolve_type_item(defs, scope.module, ty, self.self_type(scope))
    }
}

/// The name of `E` in an `impl Future for X { type Output = Result<T, E>; }` (`Future` is in
/// the prelude, so the trait is known by its name).
fn future_error(imp: &syn::ItemImpl) -> Option<String> {
    let (_, path, _) = imp.trait_.as_ref()?;
    if path.segments.last()?.ident != "Future" {
        return None;
    }
    let output = imp.items.iter().find_map(|ii| match ii {
        ImplItem::Type(t) if t.ident == "Output" => Some(&t.ty),
        _ => None,
    })?;
    let Type::Path(p) = output else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    crate::syntax::type_name(type_arguments(&last.arguments).nth(1)?).map(|n| n.to_string())
}

fn single(fns: &[FnKey]) -> Option<FnKey> {
    match fns {
        [one] => Some(*one),
        _ => None,
    }
}

/// `T` of `Result<T, _>` / `Option<T>`, and of a crate's `Result` alias (`GitHubResult<T>`,
/// `io::Result<T>`).
pub(crate) fn ok_type(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if !last.ident.to_string().ends_with("Result") && last.ident != "Option" {
        return None;
    }
    type_arguments(&last.arguments).next()
}

/// The crate type a written type names, through references, `Box`/`Arc`/`Rc`, locks and
/// cells (whose contents a method call reaches with `.lock()`, `.read()`, `.borrow()`), and
/// type aliases. `self_ty` is what `Self` stands for.
pub fn resolve_type_item(
    defs: &DefMap<'_>,
    module: ModuleId,
    ty: &Type,
    self_ty: Option<ItemId>,
) -> Option<ItemId> {
    resolve_type_depth(defs, module, ty, self_ty, 0)
}

/// The error type of a declared `Result`, with the module to resolve it in: `Result<T, E>` as
/// written, or through crate aliases (`type AppResult<T> = Result<T, AppError>`, `AppError`
/// resolved where the alias is). `None` when an alias leaves the error to a parameter of its own
/// (`type Result<T, E = Error>`).
pub fn declared_result_error<'t>(
    defs: &DefMap<'t>,
    module: ModuleId,
    ty: &'t Type,
) -> Option<(&'t Type, ModuleId)> {
    let (mut ty, mut module) = (ty, module);
    for _ in 0..4 {
        if let Some(err) = crate::syntax::result_error_type(ty) {
            return Some((err, module));
        }
        let Type::Path(p) = ty else { return None };
        if p.qself.is_some() {
            return None;
        }
        let Def::Item(id) = defs.resolve_path(module, &p.path, Ns::Types)? else {
            return None;
        };
        let Item::Type(alias) = defs.item(id).syntax else {
            return None;
        };
        if crate::syntax::result_error_type(&alias.ty).is_some_and(|err| {
            matches!(err, Type::Path(e) if e.qself.is_none() && e.path.get_ident()
                .is_some_and(|i| alias.generics.type_params().any(|tp| tp.ident == *i)))
        }) {
            return None;
        }
        (ty, module) = (&alias.ty, defs.item(id).module);
    }
    None
}

/// The name an error type of another crate goes by, the same on both sides of a `?`'s
/// conversion: its path there as name resolution finds it (`io::Error` under `use std::io;`
/// is `std::io::Error`; `tokio::io::Error` is std's re-export), else the path as written. An
/// `io::Result<T>` declares `std::io::Error`.
pub fn external_error_name(defs: &DefMap<'_>, module: ModuleId, ty: &Type) -> Option<String> {
    let Type::Path(p) = ty else {
        return crate::syntax::type_name(ty);
    };
    if p.qself.is_some() {
        return None;
    }
    let path = match defs.resolve_path(module, &p.path, Ns::Types) {
        Some(Def::External(path)) => path,
        Some(_) => return None,
        None => p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect(),
    };
    let io =
        |rest: &[String]| matches!(rest, [a, b] if a == "io" && (b == "Error" || b == "Result"));
    match path.split_first() {
        Some((root, rest)) if (root == "std" || root == "tokio") && io(rest) => {
            Some("std::io::Error".to_string())
        }
        _ => Some(path.join("::")),
    }
}

const WRAPPERS: &[&str] = &[
    "Box",
    "Arc",
    "Rc",
    "Mutex",
    "RwLock",
    "RefCell",
    "Cell",
    "Weak",
    "MutexGuard",
    "RwLockReadGuard",
    "RwLockWriteGuard",
];

/// Whether `ty`, through references and the wrappers [`resolve_type_item`] sees through, names
/// a type of another crate (`Arc<memsdk::Client>`, `reqwest::Client` imported by `use`): its
/// methods are that crate's, whatever the names of the crate's own fns.
pub fn names_external_type(defs: &DefMap<'_>, module: ModuleId, ty: &Type) -> bool {
    match through_wrappers(ty) {
        Type::Path(p) if p.qself.is_none() => matches!(
            defs.resolve_path(module, &p.path, Ns::Types),
            Some(Def::External(_))
        ),
        _ => false,
    }
}

/// The crate type of a collection's elements (`Vec<Tool>`, the values of `HashMap<K,
/// Arc<Session>>`), through wrappers and locks around the collection (`Arc<Mutex<..>>`) and the
/// crate's aliases for it (`type Sessions = HashMap<K, Arc<Session>>`).
pub fn element_type(
    defs: &DefMap<'_>,
    module: ModuleId,
    ty: &Type,
    self_ty: Option<ItemId>,
) -> Option<ItemId> {
    let (mut ty, mut module) = (through_wrappers(ty), module);
    for _ in 0..4 {
        let Type::Path(p) = ty else { break };
        if p.qself.is_some() || !p.path.segments.last()?.arguments.is_empty() {
            break;
        }
        let Some(Def::Item(id)) = defs.resolve_path(module, &p.path, Ns::Types) else {
            break;
        };
        let Item::Type(alias) = defs.item(id).syntax else {
            break;
        };
        (ty, module) = (through_wrappers(&alias.ty), defs.item(id).module);
    }
    let element = crate::syntax::last_type_argument(ty)?;
    resolve_type_item(defs, module, element, self_ty)
}

/// `ty` through references, parentheses and [`WRAPPERS`] (`&Arc<Mutex<Store>>` → `Store`).
pub(crate) fn through_wrappers(ty: &Type) -> &Type {
    let mut ty = ty;
    for _ in 0..8 {
        ty = match ty {
            Type::Reference(r) => &r.elem,
            Type::Paren(p) => &p.elem,
            Type::Group(g) => &g.elem,
            Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else {
                    break;
                };
                let angled = matches!(last.arguments, syn::PathArguments::AngleBracketed(_));
                match type_arguments(&last.arguments).next() {
                    Some(inner) if angled && WRAPPERS.iter().any(|w| last.ident == w) => inner,
                    _ => break,
                }
            }
            _ => break,
        };
    }
    ty
}

fn resolve_type_depth(
    defs: &DefMap<'_>,
    module: ModuleId,
    ty: &Type,
    self_ty: Option<ItemId>,
    depth: usize,
) -> Option<ItemId> {
    if depth > 8 {
        return None;
    }
    match through_wrappers(ty) {
        Type::Path(p) if p.qself.is_none() => {
            if p.path.is_ident("Self") {
                return self_ty;
            }
            match defs.resolve_path(module, &p.path, Ns::Types)? {
                Def::Item(id) => match (defs.item(id).kind, defs.item(id).syntax) {
                    (ItemKind::TypeAlias, Item::Type(alias)) => resolve_type_depth(
                        defs,
                        defs.item(id).module,
                        &alias.ty,
                        self_ty,
                        depth + 1,
                    ),
                    (ItemKind::Struct | ItemKind::Enum | ItemKind::Union | ItemKind::Trait, _) => {
                        Some(id)
                    }
                    _ => None,
                },
                _ => None,
            }
        }
        // `dyn Trait` / `impl Trait`: the crate trait stands for the type.
        Type::TraitObject(t) => trait_bound(defs, module, &t.bounds),
        Type::ImplTrait(t) => trait_bound(defs, module, &t.bounds),
        _ => None,
    }
}

fn trait_bound(
    defs: &DefMap<'_>,
    module: ModuleId,
    bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>,
) -> Option<ItemId> {
    bounds.iter().find_map(|b| match b {
        syn::TypeParamBound::Trait(t) => match defs.resolve_path(module, &t.path, Ns::Types)? {
            Def::Item(id) if defs.item(id).kind == ItemKind::Trait => Some(id),
            _ => None,
        },
        _ => None,
    })
}

/// The parameters a method stores as they are (or boxed: `Box::new(p)`, `Arc::new(p)`) in a
/// field of a `Self { .. }` literal it builds: (parameter index without the receiver, field).
fn stored_params(f: &syn::ImplItemFn) -> Vec<(usize, String)> {
    use syn::visit::Visit;
    let params = crate::syntax::typed_param_names(&f.sig);
    struct Literals<'p> {
        params: &'p [String],
        found: Vec<(usize, String)>,
    }
    impl<'v> Visit<'v> for Literals<'_> {
        fn visit_expr_struct(&mut self, e: &'v syn::ExprStruct) {
            if e.path.is_ident("Self") {
                for fv in &e.fields {
                    let syn::Member::Named(field) = &fv.member else {
                        continue;
                    };
                    let mut value = &fv.expr;
                    if let syn::Expr::Call(c) = value {
                        let boxed = matches!(&*c.func, syn::Expr::Path(p)
                            if p.path.segments.len() == 2
                                && p.path.segments[1].ident == "new"
                                && matches!(p.path.segments[0].ident.to_string().as_str(), "Box" | "Arc" | "Rc"));
                        if boxed && c.args.len() == 1 {
                            value = &c.args[0];
                        }
                    }
                    let named = match value {
                        syn::Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
                        _ => None,
                    };
                    if let Some(i) = named.and_then(|n| self.params.iter().position(|p| *p == n)) {
                        self.found.push((i, field.to_string()));
                    }
                }
            }
            syn::visit::visit_expr_struct(self, e);
        }
        fn visit_item(&mut self, _: &'v syn::Item) {}
    }
    let mut lits = Literals {
        params: &params,
        found: Vec::new(),
    };
    lits.visit_block(&f.block);
    lits.found
}
