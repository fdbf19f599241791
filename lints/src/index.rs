//! Crate-wide facts gathered in one pass over every parsed file: `use` aliases, consts and their
//! values, type aliases, locally defined types, and every fn or method with where it sits.

use std::collections::{HashMap, HashSet};

use syn::{Attribute, Expr, ImplItem, Item, Type};

use crate::resolve::{GeneratedItems, NestedFns};
use crate::source::FileId;
use crate::syntax::{is_cfg_test, is_test_fn, nested_fns, type_name};

/// Where a function is defined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    Free,
    Inherent {
        self_ty: String,
    },
    Trait {
        trait_name: String,
        self_ty: String,
    },
    /// A trait's default method body.
    TraitDefault {
        trait_name: String,
    },
}

/// A fn or method with a body.
pub struct FnItem<'a> {
    pub file: FileId,
    pub name: String,
    pub owner: Owner,
    pub attrs: &'a [Attribute],
    /// Attributes of the enclosing `impl` block (empty for free fns).
    pub impl_attrs: &'a [Attribute],
    /// The other items of the enclosing `impl` block (empty for free fns and trait defaults).
    pub impl_items: &'a [ImplItem],
    /// The trait's path as the `impl` writes it (`From<X>` in `impl From<X> for Y`).
    pub trait_path: Option<&'a syn::Path>,
    /// The enclosing `impl` block's self type (`Y` in `impl From<X> for Y`).
    pub impl_self_ty: Option<&'a Type>,
    pub sig: &'a syn::Signature,
    pub block: &'a syn::Block,
    /// In `#[cfg(test)]` code, a `#[test]` fn, or a test-role file.
    pub is_test: bool,
}

impl<'a> FnItem<'a> {
    /// A free fn (a module's, or one declared inside another fn's body).
    fn free(file: FileId, f: &'a syn::ItemFn, is_test: bool) -> FnItem<'a> {
        FnItem {
            file,
            name: f.sig.ident.to_string(),
            owner: Owner::Free,
            attrs: &f.attrs,
            impl_attrs: &[],
            impl_items: &[],
            trait_path: None,
            impl_self_ty: None,
            sig: &f.sig,
            block: &f.block,
            is_test,
        }
    }

    /// An associated fn without a receiver that returns its own type (`fn new(..) -> Self`).
    pub fn is_constructor(&self) -> bool {
        let Owner::Inherent { self_ty } = &self.owner else {
            return false;
        };
        let syn::ReturnType::Type(_, ty) = &self.sig.output else {
            return false;
        };
        self.sig.receiver().is_none() && type_name(ty).is_some_and(|n| n == "Self" || n == *self_ty)
    }
}

/// A `use` import: the local name and the full path it stands for.
#[derive(Clone, Debug, Default)]
pub struct FileImports {
    /// Local name → path segments (`McpError` → `rmcp::ErrorData`).
    pub names: HashMap<String, Vec<String>>,
    /// Glob imports (`use rmcp::model::*` → `rmcp::model`).
    pub globs: Vec<Vec<String>>,
}

/// What name resolution found that the index reads again rather than finding it twice.
pub struct Resolved<'a, 'd> {
    /// The items crate macros generate, by the address of their call.
    pub generated: &'d GeneratedItems<'a>,
    /// The fns declared inside each fn body.
    pub nested_fns: &'d NestedFns<'a>,
}

#[derive(Default)]
pub struct Index<'a> {
    pub imports: Vec<FileImports>,
    /// Integer consts by name (last writer wins; name-based like the call map).
    pub consts: HashMap<String, ConstValue>,
    /// Discriminants of crate enum variants (`#[repr(i64)] enum ErrorCode { InternalError =
    /// -32603 }`), by enum and variant name; `None` where two enums of one name disagree.
    pub discriminants: HashMap<(String, String), Option<i64>>,
    /// `type Name = ...;` by name.
    pub type_aliases: HashMap<String, &'a Type>,
    /// Structs, enums and unions defined in the crate.
    pub local_types: HashSet<String>,
    /// Crate structs shaped as an MCP tool result: a `content` field and an `is_error` /
    /// `isError` one (`struct ToolCallResult { content, is_error: Option<bool> }`), by name.
    pub tool_result_types: HashSet<String>,
    /// Those of [`Self::tool_result_types`] whose derived `Serialize` writes the flag field as
    /// `"is_error"` (no `rename = "isError"`, no `rename_all = "camelCase"`): no client reads it,
    /// so every result of theirs is a success.
    pub flag_off_wire_types: HashSet<String>,
    pub fns: Vec<FnItem<'a>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstValue {
    pub value: i64,
    /// Declared with an error-code type (`const X: ErrorCode = ErrorCode(-32001)`): reported at
    /// its definition rather than at each use.
    pub typed_code: bool,
}

impl<'a> Index<'a> {
    /// The index of `files`, with the items crate macros generate read in their calls' place
    /// (`resolved.generated`, see [`crate::expand::expand_item_macros`]).
    pub fn build(
        files: &[(FileId, &'a syn::File, bool)],
        resolved: &Resolved<'a, '_>,
    ) -> Index<'a> {
        let mut index = Index::default();
        for (file, syntax, file_is_test) in files {
            let mut imports = FileImports::default();
            index.walk_items(*file, &syntax.items, *file_is_test, &mut imports, resolved);
            if index.imports.len() <= file.0 {
                index.imports.resize_with(file.0 + 1, FileImports::default);
            }
            index.imports[file.0] = imports;
        }
        // Consts defined through other consts (`ErrorCode(BASE - 1)`) resolve in a second pass.
        for (_, syntax, _) in files {
            index.collect_consts(&syntax.items);
        }
        index
    }

    fn walk_items(
        &mut self,
        file: FileId,
        items: &'a [Item],
        in_test: bool,
        imports: &mut FileImports,
        resolved: &Resolved<'a, '_>,
    ) {
        for item in items {
            match item {
                Item::Macro(m) if m.ident.is_none() => {
                    // A crate macro's items, in the file of its definition (their spans).
                    if let Some(g) = resolved.generated.get(&(m as *const _)).copied() {
                        let mut own = FileImports::default();
                        self.walk_items(g.file, g.items, in_test, &mut own, resolved);
                    }
                }
                Item::Use(u) => collect_use(&u.tree, Vec::new(), imports),
                Item::Type(t) => {
                    self.type_aliases.insert(t.ident.to_string(), &t.ty);
                }
                Item::Struct(s) => {
                    self.local_types.insert(s.ident.to_string());
                    if is_tool_result_shape(s) {
                        self.tool_result_types.insert(s.ident.to_string());
                        if flag_off_wire(s) {
                            self.flag_off_wire_types.insert(s.ident.to_string());
                        }
                    }
                }
                Item::Enum(e) => {
                    self.local_types.insert(e.ident.to_string());
                }
                Item::Union(u) => {
                    self.local_types.insert(u.ident.to_string());
                }
                Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        let test = in_test || is_cfg_test(&m.attrs);
                        self.walk_items(file, inner, test, imports, resolved);
                    }
                }
                Item::Fn(f) => {
                    let is_test = in_test || is_cfg_test(&f.attrs) || is_test_fn(&f.attrs);
                    self.fns.push(FnItem::free(file, f, is_test));
                    self.nested_fns(file, &f.block, is_test, resolved);
                    self.block_items(file, &f.block, is_test, imports, resolved);
                }
                Item::Trait(tr) => {
                    let trait_test = in_test || is_cfg_test(&tr.attrs);
                    for ti in &tr.items {
                        let syn::TraitItem::Fn(f) = ti else { continue };
                        let Some(block) = &f.default else { continue };
                        self.fns.push(FnItem {
                            file,
                            name: f.sig.ident.to_string(),
                            owner: Owner::TraitDefault {
                                trait_name: tr.ident.to_string(),
                            },
                            attrs: &f.attrs,
                            impl_attrs: &tr.attrs,
                            impl_items: &[],
                            trait_path: None,
                            impl_self_ty: None,
                            sig: &f.sig,
                            block,
                            is_test: trait_test || is_cfg_test(&f.attrs) || is_test_fn(&f.attrs),
                        });
                        let is_test = self.fns.last().is_some_and(|f| f.is_test);
                        self.nested_fns(file, block, is_test, resolved);
                    }
                }
                Item::Impl(imp) => {
                    let self_ty = type_name(&imp.self_ty).unwrap_or_default();
                    let trait_path = imp.trait_.as_ref().map(|(_, p, _)| p);
                    let owner = match trait_path.and_then(|p| p.segments.last()) {
                        Some(seg) => Owner::Trait {
                            trait_name: seg.ident.to_string(),
                            self_ty: self_ty.clone(),
                        },
                        None => Owner::Inherent {
                            self_ty: self_ty.clone(),
                        },
                    };
                    let impl_test = in_test || is_cfg_test(&imp.attrs);
                    for ii in &imp.items {
                        if let ImplItem::Fn(f) = ii {
                            self.fns.push(FnItem {
                                file,
                                name: f.sig.ident.to_string(),
                                owner: owner.clone(),
                                attrs: &f.attrs,
                                impl_attrs: &imp.attrs,
                                impl_items: &imp.items,
                                trait_path,
                                impl_self_ty: Some(&imp.self_ty),
                                sig: &f.sig,
                                block: &f.block,
                                is_test: impl_test || is_cfg_test(&f.attrs) || is_test_fn(&f.attrs),
                            });
                            let is_test = self.fns.last().is_some_and(|f| f.is_test);
                            self.nested_fns(file, &f.block, is_test, resolved);
                            self.block_items(file, &f.block, is_test, imports, resolved);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The other items a fn's own block declares (`fn serve() { #[tool_router] impl S { .. }
    /// }`), as the resolver collects them ([`crate::syntax::block_items`]).
    fn block_items(
        &mut self,
        file: FileId,
        body: &'a syn::Block,
        in_test: bool,
        imports: &mut FileImports,
        resolved: &Resolved<'a, '_>,
    ) {
        for item in crate::syntax::block_items(body) {
            self.walk_items(file, std::slice::from_ref(item), in_test, imports, resolved);
        }
    }

    /// The fns declared inside a body (at any depth): fns of their own, test code when the
    /// body is.
    fn nested_fns(
        &mut self,
        file: FileId,
        body: &'a syn::Block,
        in_test: bool,
        resolved: &Resolved<'a, '_>,
    ) {
        let found: Vec<&'a syn::ItemFn> = match resolved.nested_fns.get(&(body as *const _)) {
            Some(known) => known.clone(),
            None => nested_fns(body).into_iter().map(|n| n.f).collect(),
        };
        for f in found {
            let is_test = in_test || is_cfg_test(&f.attrs) || is_test_fn(&f.attrs);
            self.fns.push(FnItem::free(file, f, is_test));
        }
    }

    fn collect_consts(&mut self, items: &'a [Item]) {
        for item in items {
            match item {
                Item::Const(c) => self.add_const(&c.ident, &c.ty, &c.expr),
                Item::Static(s) => self.add_const(&s.ident, &s.ty, &s.expr),
                Item::Enum(e) => self.add_discriminants(e),
                Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        self.collect_consts(inner);
                    }
                }
                Item::Impl(imp) => {
                    for ii in &imp.items {
                        if let ImplItem::Const(c) = ii {
                            self.add_const(&c.ident, &c.ty, &c.expr);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Each variant's value: its written discriminant, or one more than the variant before it.
    fn add_discriminants(&mut self, e: &syn::ItemEnum) {
        if !e.variants.iter().any(|v| v.discriminant.is_some()) {
            return;
        }
        let mut next = Some(0i64);
        for v in &e.variants {
            let value = match &v.discriminant {
                Some((_, expr)) => self.eval_int(expr),
                None => next,
            };
            next = value.and_then(|x| x.checked_add(1));
            let key = (e.ident.to_string(), v.ident.to_string());
            match self.discriminants.get(&key) {
                Some(seen) if *seen != value => {
                    self.discriminants.insert(key, None);
                }
                Some(_) => {}
                None => {
                    self.discriminants.insert(key, value);
                }
            }
        }
    }

    fn add_const(&mut self, ident: &syn::Ident, ty: &Type, expr: &Expr) {
        if let Some(value) = self.eval_int(expr) {
            let typed_code = type_name(ty).is_some_and(|n| n.contains("Code"));
            self.consts
                .insert(ident.to_string(), ConstValue { value, typed_code });
        }
    }

    /// Evaluate an integer expression: literals, negation, parentheses, casts, `+`/`-`, known
    /// consts, and single-argument tuple constructors such as `ErrorCode(-32001)`.
    pub fn eval_int(&self, expr: &Expr) -> Option<i64> {
        match expr {
            Expr::Lit(l) => match &l.lit {
                syn::Lit::Int(i) => i.base10_parse::<i64>().ok(),
                _ => None,
            },
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
                self.eval_int(&u.expr).map(|v| -v)
            }
            Expr::Paren(p) => self.eval_int(&p.expr),
            Expr::Group(g) => self.eval_int(&g.expr),
            Expr::Binary(b) => {
                let (l, r) = (self.eval_int(&b.left)?, self.eval_int(&b.right)?);
                match b.op {
                    syn::BinOp::Add(_) => l.checked_add(r),
                    syn::BinOp::Sub(_) => l.checked_sub(r),
                    _ => None,
                }
            }
            // `ErrorCode::InternalError as i64`: a discriminant of a crate enum.
            Expr::Cast(c) => match &*c.expr {
                Expr::Path(p) if p.path.segments.len() >= 2 => {
                    let segs = &p.path.segments;
                    let key = (
                        segs[segs.len() - 2].ident.to_string(),
                        segs[segs.len() - 1].ident.to_string(),
                    );
                    match self.discriminants.get(&key) {
                        Some(value) => *value,
                        None => self.eval_int(&c.expr),
                    }
                }
                _ => self.eval_int(&c.expr),
            },
            Expr::Path(p) => {
                let last = p.path.segments.last()?.ident.to_string();
                self.consts.get(&last).map(|c| c.value)
            }
            Expr::Call(c) if c.args.len() == 1 => {
                let Expr::Path(f) = &*c.func else { return None };
                let code_type = f
                    .path
                    .segments
                    .iter()
                    .any(|s| s.ident.to_string().ends_with("Code"));
                if code_type {
                    self.eval_int(&c.args[0])
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The full path a local name stands for in `file`, if it was imported by name.
    pub fn resolve_name(&self, file: FileId, name: &str) -> Option<&[String]> {
        self.imports
            .get(file.0)
            .and_then(|i| i.names.get(name))
            .map(|v| v.as_slice())
    }

    /// Every (file, local name, full path) imported anywhere in the crate.
    pub fn all_imports(&self) -> impl Iterator<Item = (&String, &Vec<String>)> {
        self.imports.iter().flat_map(|i| i.names.iter())
    }

    /// Every glob prefix imported anywhere in the crate.
    pub fn all_globs(&self) -> impl Iterator<Item = &Vec<String>> {
        self.imports.iter().flat_map(|i| i.globs.iter())
    }
}

pub(crate) fn collect_use(tree: &syn::UseTree, prefix: Vec<String>, out: &mut FileImports) {
    match tree {
        syn::UseTree::Path(p) => {
            let mut next = prefix;
            next.push(p.ident.to_string());
            collect_use(&p.tree, next, out);
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut path = prefix;
            if name != "self" {
                path.push(name.clone());
            }
            let local = path.last().cloned().unwrap_or(name);
            out.names.insert(local, path);
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix;
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.names.insert(r.rename.to_string(), path);
        }
        syn::UseTree::Glob(_) => out.globs.push(prefix),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                collect_use(t, prefix.clone(), out);
            }
        }
    }
}

/// A struct with a `content` field and an `is_error` / `isError` field: the shape of an MCP tool
/// result, whatever the crate calls it.
fn is_tool_result_shape(s: &syn::ItemStruct) -> bool {
    let named = |n: &str| {
        s.fields
            .iter()
            .any(|f| f.ident.as_ref().is_some_and(|i| i == n))
    };
    named("content") && (named("is_error") || named("isError"))
}

/// `#[derive(Serialize)] struct CallToolResult { content: .., is_error: bool }` where serde's
/// name for the field is not `isError` (no `rename = "isError"`, no `rename_all = "camelCase"`):
/// clients do not read what it writes.
fn flag_off_wire(s: &syn::ItemStruct) -> bool {
    let Some((ident, flag)) = s.fields.iter().find_map(|f| {
        f.ident
            .as_ref()
            .filter(|i| *i == "is_error")
            .map(|i| (i, f))
    }) else {
        return false;
    };
    crate::syntax::derived_traits(&s.attrs)
        .iter()
        .any(|d| d == "Serialize")
        && crate::syntax::serde_name(ident, &flag.attrs, &s.attrs) != "isError"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_discriminants_are_casts_values() {
        let f: syn::File = syn::parse_str(
            r#"
            #[repr(i64)] enum ErrorCode { MethodNotFound = -32601, InvalidParams, Custom = 1000 }
            mod a { pub enum Kind { X = 1 } }
            mod b { pub enum Kind { X = 2 } }
            "#,
        )
        .unwrap();
        let idx = Index::build(
            &[(FileId(0), &f, false)],
            &Resolved {
                generated: &GeneratedItems::new(),
                nested_fns: &NestedFns::new(),
            },
        );
        let eval = |e: &str| idx.eval_int(&syn::parse_str::<Expr>(e).unwrap());
        assert_eq!(eval("ErrorCode::MethodNotFound as i64"), Some(-32601));
        assert_eq!(eval("ErrorCode::InvalidParams as i32"), Some(-32600));
        assert_eq!(eval("crate::ErrorCode::Custom as i64"), Some(1000));
        // Two enums of one name that disagree: silent.
        assert_eq!(eval("Kind::X as i64"), None);
    }

    #[test]
    fn imports_consts_and_fns_are_indexed() {
        let f: syn::File = syn::parse_str(
            r#"
            use rmcp::{ErrorData as McpError, model::*};
            const BASE: i32 = -32000;
            const LEGACY: ErrorCode = ErrorCode(BASE - 1);
            type R<T> = Result<T, McpError>;
            struct S;
            impl S { fn a(&self) {} }
            #[cfg(test)] mod tests { #[test] fn t() {} }
            "#,
        )
        .unwrap();
        let idx = Index::build(
            &[(FileId(0), &f, false)],
            &Resolved {
                generated: &GeneratedItems::new(),
                nested_fns: &NestedFns::new(),
            },
        );
        assert_eq!(
            idx.resolve_name(FileId(0), "McpError").unwrap(),
            ["rmcp", "ErrorData"]
        );
        assert_eq!(idx.imports[0].globs, vec![vec!["rmcp", "model"]]);
        assert_eq!(idx.consts["LEGACY"].value, -32001);
        assert!(idx.consts["LEGACY"].typed_code);
        assert!(!idx.consts["BASE"].typed_code);
        assert!(idx.type_aliases.contains_key("R"));
        assert_eq!(idx.fns.len(), 2);
        assert!(idx.fns[1].is_test);
    }
}
