//! Name resolution as rustc does it, per crate root (rust-analyzer's `hir-def` DefMap is the
//! model): the module tree (`mod a;` files, `#[path]`, inline `mod a { .. }`), each module's item
//! scope in the type, value and macro namespaces, and `use` imports resolved to a fixed point
//! (renames, nested groups, globs that explicit and local items shadow, `pub use` re-exports,
//! `self`/`super`/`crate`/`::` paths, `extern crate .. as ..`). A path then resolves to one
//! definition, or to nothing: never to every item that happens to share its last name.
//!
//! Several packages are resolved together when they depend on each other by path (the
//! workspace as one program, [`DefMap::build_program`]): a dependency's name then stands for
//! its library's root module, so `helpers::net::fetch` is the fn in that package, reached
//! through its `pub` items and `pub use` re-exports, never through its private ones.

pub mod crates;
pub mod layout;
pub mod macros;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{ImplItem, Item, UseTree};

use crate::options::Targets;
use crate::source::FileId;
use crate::syntax::str_literal;
use layout::{child_dir, Layout, RootFile};

/// A module of one crate root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModuleId(pub u32);

/// An item defined in the crate (a struct, enum, trait, fn, const …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId(pub u32);

/// The namespaces of Rust names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ns {
    Types,
    Values,
    Macros,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Fn,
    Struct,
    Enum,
    Union,
    Trait,
    TypeAlias,
    Const,
    Static,
    Macro,
}

/// What a name stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Def {
    Module(ModuleId),
    Item(ItemId),
    /// A variant of a crate enum.
    Variant(ItemId, String),
    /// An associated item of a crate type or trait (`Type::method`), resolved by [`crate::types`].
    Assoc(ItemId, String),
    /// Something of another crate, by its path there (`rmcp::model::ErrorData`, `std::fs`).
    External(Vec<String>),
    /// Two globs bring different items by this name: the source cannot tell which is meant.
    Ambiguous,
}

/// One item of the crate.
#[derive(Clone, Debug)]
pub struct ItemData<'a> {
    pub kind: ItemKind,
    pub name: String,
    pub module: ModuleId,
    pub is_pub: bool,
    pub syntax: &'a Item,
}

#[derive(Clone, Debug)]
struct Entry {
    def: Def,
    is_pub: bool,
    from_glob: bool,
}

#[derive(Clone, Debug, Default)]
struct Scope {
    types: HashMap<String, Entry>,
    values: HashMap<String, Entry>,
    macros: HashMap<String, Entry>,
}

impl Scope {
    fn ns(&self, ns: Ns) -> &HashMap<String, Entry> {
        match ns {
            Ns::Types => &self.types,
            Ns::Values => &self.values,
            Ns::Macros => &self.macros,
        }
    }

    fn ns_mut(&mut self, ns: Ns) -> &mut HashMap<String, Entry> {
        match ns {
            Ns::Types => &mut self.types,
            Ns::Values => &mut self.values,
            Ns::Macros => &mut self.macros,
        }
    }

    /// Add a name; an explicit entry replaces a glob one, a glob entry never replaces anything.
    fn define(&mut self, ns: Ns, name: &str, entry: Entry) -> bool {
        let map = self.ns_mut(ns);
        match map.get(name) {
            Some(old) if old.def == entry.def && old.is_pub >= entry.is_pub => false,
            Some(old) if !old.from_glob && entry.from_glob => false,
            Some(old) if !old.from_glob && !entry.from_glob && old.def != entry.def => false,
            Some(old) if old.from_glob && entry.from_glob && old.def != entry.def => {
                if old.def == Def::Ambiguous {
                    return false;
                }
                map.insert(
                    name.to_string(),
                    Entry {
                        def: Def::Ambiguous,
                        ..entry
                    },
                );
                true
            }
            _ => {
                map.insert(name.to_string(), entry);
                true
            }
        }
    }
}

/// A module: where it sits, its file, and its scope.
#[derive(Clone, Debug)]
pub struct ModuleData {
    pub root: ModuleId,
    /// The package it belongs to: an index into the packages [`DefMap::build_program`] got.
    pub package: usize,
    pub parent: Option<ModuleId>,
    pub name: String,
    pub file: FileId,
    /// In `#[cfg(test)]` code.
    pub is_test: bool,
    scope: Scope,
    /// Globs of other crates (`use rmcp::model::*`): a name not found otherwise may come from one.
    external_globs: Vec<Vec<String>>,
    /// Where its `mod` item ends in the parent's file (0 for a crate root): what is textually
    /// before it in the parent is in scope in it.
    pub decl_end: usize,
    /// `#[macro_use] mod m;`: its `macro_rules!` stay in scope in the parent after the item.
    pub macro_use: bool,
    /// The scope of the items a fn's block declares ([`Collect::block_items`]): no module of its
    /// own, so `self` and `super` in it are its parent's, and a name it does not declare is
    /// looked up where the fn is.
    pub block: bool,
}

/// A `use` waiting to be resolved.
#[derive(Clone, Debug)]
struct Import {
    module: ModuleId,
    leading_colon: bool,
    /// The path up to the imported name (the whole path for a glob).
    prefix: Vec<String>,
    kind: ImportKind,
    is_pub: bool,
}

#[derive(Clone, Debug)]
enum ImportKind {
    /// `use prefix::name as alias` (`self` as the name imports the prefix itself).
    Named {
        name: String,
        alias: String,
    },
    Glob,
}

/// An `impl` block, with the module it is written in.
#[derive(Clone, Debug)]
pub struct ImplData<'a> {
    pub module: ModuleId,
    pub syntax: &'a syn::ItemImpl,
    pub is_test: bool,
}

/// Where a fn is defined: its module and, for methods, its `impl` or trait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FnScope {
    pub module: ModuleId,
    pub container: Container,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    Free,
    /// Index into [`DefMap::impls`].
    Impl(usize),
    /// A trait's default method.
    Trait(ItemId),
}

/// Every module, item, import and impl of the package's crate roots.
pub struct DefMap<'a> {
    pub modules: Vec<ModuleData>,
    pub items: Vec<ItemData<'a>>,
    pub impls: Vec<ImplData<'a>>,
    /// The module a file's top level is (files no root reaches are roots of their own).
    file_modules: HashMap<FileId, ModuleId>,
    /// Each fn's scope, by the address of its signature (stable: the syntax trees outlive us).
    fn_scopes: HashMap<*const syn::Signature, FnScope>,
    /// Per package: the names of other crates its paths can start with.
    packages: Vec<PackageScope>,
    /// `use m::Name` where module `m` has no `Name` in the source (a macro generates it): the
    /// importing module and name → `m`, where the macro's own names resolve.
    dangling: HashMap<(ModuleId, String), ModuleId>,
    /// `macro_rules!` definitions in textual order, and their textual scopes.
    pub macro_rules: macros::TextualMacros,
    /// Per fn declared inside another fn's body, by its signature's address: the fn items of
    /// the blocks around it, outermost first (see [`crate::syntax::nested_fns`]).
    block_scopes: HashMap<*const syn::Signature, BlockScope<'a>>,
    /// The fns declared inside each fn body the resolver read, at any depth, by the body's
    /// address: found once here and read again by [`crate::index::Index::build`].
    pub nested_fns: NestedFns<'a>,
    /// Item-position calls of macros other than `macro_rules!` and `include!`, with the module
    /// they are written in: a crate macro may generate items there ([`GeneratedItems`]).
    pub item_macro_calls: Vec<(ModuleId, &'a syn::ItemMacro)>,
    /// The items crate macros generated, read in their calls' place.
    pub generated: GeneratedItems<'a>,
    /// What is compiled: see [`DefMap::in_module_tree`].
    tree: ModuleTree,
}

/// Which files the packages' target roots reach, as cargo and rustc see them: the roots and
/// their `mod` declarations (`#[path]`, inline modules), and also what the resolver does not
/// load as a module: `mod x;` written in a macro's tokens (`cfg_if! { .. { mod unix; } }`), a
/// `#[cfg_attr(.., path = "..")]` file, a declared file that does not parse.
#[derive(Default)]
struct ModuleTree {
    /// The target roots Cargo.toml and cargo's standard places give (parsed or not).
    roots: HashSet<FileId>,
    /// Per package: whether any target root is among its files.
    package_has_roots: Vec<bool>,
    /// The files a module declares beyond its module children: declaring module → file.
    links: Vec<(ModuleId, FileId)>,
    /// Root modules (of target roots, and of files linked to as above) that are compiled.
    linked_roots: HashSet<ModuleId>,
    /// Files linked to that are not a root module of their own.
    linked_files: HashSet<FileId>,
    /// Where the `mod x;` children of a linked file live, as for the module it is declared as
    /// (`unix.rs`'s in `unix/`); it is resolved as a root of its own all the same.
    link_dirs: HashMap<FileId, Dirs>,
}

/// What one item-position crate macro call generated (see [`crate::expand`]).
#[derive(Clone, Copy, Debug)]
pub struct Generated<'a> {
    pub items: &'a [Item],
    /// The file of the macro's definition: the generated tokens are spanned there, so what is
    /// found in them is reported in the macro's body (where its fix goes).
    pub file: FileId,
}

/// The items crate macros generated, by the address of the item macro call.
pub type GeneratedItems<'a> = HashMap<*const syn::ItemMacro, Generated<'a>>;

/// The fns declared inside fn bodies, by the body's address (see [`DefMap::nested_fns`]).
pub type NestedFns<'a> = HashMap<*const syn::Block, Vec<&'a syn::ItemFn>>;

/// The fn items of the blocks around a nested fn, outermost block first.
pub type BlockScope<'a> = Vec<std::rc::Rc<[&'a syn::ItemFn]>>;

/// A parsed file of a package: its id, its package-relative path (`None` outside the
/// package), its syntax, and whether it is test code.
pub type PackageFile<'a> = (FileId, Option<PathBuf>, &'a syn::File, bool);

/// The files of one package, as the resolver reads them.
pub struct PackageFiles<'a, 'p> {
    pub files: &'p [PackageFile<'a>],
    pub package_name: Option<&'p str>,
    /// The crate roots Cargo.toml declares or turns off.
    pub targets: &'p Targets,
    /// The package's files that did not parse, with their package-relative paths: a `mod`
    /// declaration still reaches one (it is compiled, and its parse error reported).
    pub unparsed: &'p [(FileId, Option<PathBuf>)],
    /// Dependencies by the name code uses for them → their crate name (`package = ..` renames).
    pub dependencies: Vec<(String, String)>,
    /// Dependencies resolved with this package (path dependencies in the same program): the
    /// name code uses for one → its index among the packages [`DefMap::build_program`] gets.
    pub linked: Vec<(String, usize)>,
}

/// The names of other crates a package's paths can start with.
#[derive(Default)]
struct PackageScope {
    /// Manifest dependencies and std/core/alloc, by the name code uses → their crate's path.
    extern_names: HashMap<String, Vec<String>>,
    /// The package's library, by its crate name (the package's other roots use it).
    lib: Option<(String, ModuleId)>,
    /// Dependencies resolved into another package of the program → that package.
    linked: HashMap<String, usize>,
}

const STD_CRATES: &[&str] = &["std", "core", "alloc", "proc_macro", "test"];

impl PackageScope {
    fn of(package: &PackageFiles<'_, '_>) -> PackageScope {
        let mut extern_names: HashMap<String, Vec<String>> = STD_CRATES
            .iter()
            .map(|s| (s.to_string(), vec![s.to_string()]))
            .collect();
        for (code_name, crate_name) in &package.dependencies {
            extern_names.insert(
                code_name.replace('-', "_"),
                vec![crate_name.replace('-', "_")],
            );
        }
        let linked = package
            .linked
            .iter()
            .map(|(code_name, p)| (code_name.replace('-', "_"), *p))
            .collect();
        PackageScope {
            extern_names,
            lib: None,
            linked,
        }
    }
}

impl<'a> DefMap<'a> {
    /// The names of one package.
    pub fn build(package: &PackageFiles<'a, '_>) -> DefMap<'a> {
        DefMap::build_program(std::slice::from_ref(package))
    }

    /// The names of packages resolved together: each package's `linked` dependencies resolve
    /// into the library of the package they name; everything else stays per package.
    pub fn build_program(packages: &[PackageFiles<'a, '_>]) -> DefMap<'a> {
        DefMap::build_program_with(packages, GeneratedItems::new())
    }

    /// [`DefMap::build_program`], with the items crate macros generate read in their calls'
    /// place (a module's `register_tools! { .. }` defines what it expands to there).
    pub fn build_program_with(
        packages: &[PackageFiles<'a, '_>],
        generated: GeneratedItems<'a>,
    ) -> DefMap<'a> {
        let mut map = DefMap {
            modules: Vec::new(),
            items: Vec::new(),
            impls: Vec::new(),
            file_modules: HashMap::new(),
            fn_scopes: HashMap::new(),
            packages: Vec::new(),
            dangling: HashMap::new(),
            macro_rules: macros::TextualMacros::default(),
            block_scopes: HashMap::new(),
            nested_fns: HashMap::new(),
            item_macro_calls: Vec::new(),
            generated,
            tree: ModuleTree::default(),
        };
        let mut imports = Vec::new();
        for (index, package) in packages.iter().enumerate() {
            map.packages.push(PackageScope::of(package));
            map.collect_package(index, package, &mut imports);
        }
        map.resolve_imports(&mut imports);
        map.macro_rules = macros::TextualMacros::build(&map);
        map.link_module_trees();
        map
    }

    /// From the target roots, what their module trees link to (see [`ModuleTree`]).
    fn link_module_trees(&mut self) {
        let mut by_root: HashMap<ModuleId, Vec<FileId>> = HashMap::new();
        for &(from, file) in &self.tree.links {
            by_root
                .entry(self.module(from).root)
                .or_default()
                .push(file);
        }
        let mut pending: Vec<ModuleId> = self
            .modules
            .iter()
            .enumerate()
            .filter(|(_, m)| m.parent.is_none() && self.tree.roots.contains(&m.file))
            .map(|(i, _)| ModuleId(i as u32))
            .collect();
        self.tree.linked_roots.extend(pending.iter().copied());
        while let Some(root) = pending.pop() {
            for &file in by_root.get(&root).into_iter().flatten() {
                self.tree.linked_files.insert(file);
                let Some(&m) = self.file_modules.get(&file) else {
                    continue;
                };
                let module = self.module(m);
                if module.parent.is_none() && self.tree.linked_roots.insert(m) {
                    pending.push(m);
                }
            }
        }
    }

    /// Whether the file is compiled: a target root of its package, or a file its module tree
    /// reaches (see [`ModuleTree`]). In a package without any target root among its files (a
    /// partial checkout, a fixture) every file is taken to be.
    pub fn in_module_tree(&self, file: FileId, package: usize) -> bool {
        if !self
            .tree
            .package_has_roots
            .get(package)
            .copied()
            .unwrap_or(false)
        {
            return true;
        }
        self.tree.roots.contains(&file)
            || self.tree.linked_files.contains(&file)
            || self
                .file_modules
                .get(&file)
                .is_some_and(|m| self.tree.linked_roots.contains(&self.module(*m).root))
    }

    /// One package's module trees, items, impls and imports (resolved later, with every
    /// package's).
    fn collect_package(
        &mut self,
        index: usize,
        package: &PackageFiles<'a, '_>,
        imports: &mut Vec<Import>,
    ) {
        let paths: Vec<(FileId, Option<PathBuf>)> = package
            .files
            .iter()
            .map(|(f, p, _, _)| (*f, p.clone()))
            .chain(package.unparsed.iter().cloned())
            .collect();
        let layout = Layout::new(&paths);
        let syntax: HashMap<FileId, (&'a syn::File, bool)> = package
            .files
            .iter()
            .map(|(f, _, s, t)| (*f, (*s, *t)))
            .collect();
        let mut roots: Vec<RootFile> = layout.roots(package.package_name, package.targets);
        self.tree.roots.extend(roots.iter().map(|r| r.file));
        self.tree.package_has_roots.push(!roots.is_empty());
        // Files no root's module tree reaches are analysed as roots of their own.
        let mut order: Vec<FileId> = package.files.iter().map(|(f, ..)| *f).collect();
        order.sort();
        let mut pending = roots.clone();
        pending.reverse();
        let mut next_orphan = 0;
        while let Some(root) = pending.pop().or_else(|| {
            while next_orphan < order.len() {
                let f = order[next_orphan];
                next_orphan += 1;
                if !self.file_modules.contains_key(&f) {
                    let r = RootFile {
                        file: f,
                        lib_name: None,
                    };
                    roots.push(r.clone());
                    return Some(r);
                }
            }
            None
        }) {
            if self.file_modules.contains_key(&root.file) {
                continue;
            }
            let Some(&(file, file_test)) = syntax.get(&root.file) else {
                continue;
            };
            let id = ModuleId(self.modules.len() as u32);
            self.modules.push(ModuleData {
                root: id,
                package: index,
                parent: None,
                name: "crate".to_string(),
                file: root.file,
                is_test: file_test,
                scope: Scope::default(),
                external_globs: Vec::new(),
                decl_end: 0,
                macro_use: false,
                block: false,
            });
            self.file_modules.insert(root.file, id);
            if let Some(name) = &root.lib_name {
                self.packages[index].lib = Some((name.clone(), id));
            }
            let rel = layout.path(root.file).map(Path::to_path_buf);
            let dirs = match self.tree.link_dirs.get(&root.file) {
                Some(dirs) => Some(dirs.clone()),
                None => rel.as_deref().map(|p| {
                    (
                        child_dir(p, true),
                        p.parent().unwrap_or(Path::new("")).to_path_buf(),
                    )
                }),
            };
            let mut cx = Collect {
                map: self,
                layout: &layout,
                syntax: &syntax,
                imports,
                depth: 0,
                file: root.file,
            };
            cx.items(id, &file.items, dirs.as_ref(), file_test);
        }
    }

    /// The module a file's top level is.
    pub fn file_module(&self, file: FileId) -> Option<ModuleId> {
        self.file_modules.get(&file).copied()
    }

    /// Whether the file is part of the package's library target (its module tree under
    /// `src/lib.rs`).
    pub fn is_library_file(&self, file: FileId) -> bool {
        let Some(m) = self.file_module(file) else {
            return false;
        };
        let module = self.module(m);
        self.packages[module.package]
            .lib
            .as_ref()
            .is_some_and(|(_, lib)| module.root == *lib)
    }

    /// Where the fn with this signature is defined.
    pub fn fn_scope(&self, sig: &syn::Signature) -> Option<FnScope> {
        self.fn_scope_at(sig)
    }

    /// [`DefMap::fn_scope`] by the signature's address.
    pub fn fn_scope_at(&self, sig: *const syn::Signature) -> Option<FnScope> {
        self.fn_scopes.get(&sig).copied()
    }

    /// For a fn declared inside another fn's body: the fn items of the blocks around it that
    /// its body sees, outermost block first (empty for any other fn).
    pub fn block_scope(&self, sig: *const syn::Signature) -> &[std::rc::Rc<[&'a syn::ItemFn]>] {
        self.block_scopes.get(&sig).map_or(&[], Vec::as_slice)
    }

    pub fn module(&self, id: ModuleId) -> &ModuleData {
        &self.modules[id.0 as usize]
    }

    pub fn item(&self, id: ItemId) -> &ItemData<'a> {
        &self.items[id.0 as usize]
    }

    /// Resolve a path written in module `from` (`Self` is the caller's business).
    pub fn resolve_path(&self, from: ModuleId, path: &syn::Path, ns: Ns) -> Option<Def> {
        let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.resolve_segments(from, path.leading_colon.is_some(), &segs, ns)
    }

    pub fn resolve_segments(
        &self,
        from: ModuleId,
        leading_colon: bool,
        segs: &[String],
        ns: Ns,
    ) -> Option<Def> {
        let (first, rest) = segs.split_first()?;
        let last_ns = |rest: &[String]| if rest.is_empty() { ns } else { Ns::Types };
        let mut current = if leading_colon {
            self.extern_crate(from, first)?
        } else {
            match first.as_str() {
                "crate" => Def::Module(self.module(from).root),
                "self" => Def::Module(self.enclosing_module(from)),
                "super" => Def::Module(self.module(self.enclosing_module(from)).parent?),
                "Self" => return None,
                _ => self.lookup_lexical(from, first, last_ns(rest))?,
            }
        };
        for (i, seg) in rest.iter().enumerate() {
            let seg_ns = last_ns(&rest[i + 1..]);
            current = match current {
                Def::Module(m) if seg == "super" => Def::Module(self.module(m).parent?),
                Def::Module(m) if seg == "self" => Def::Module(m),
                Def::Module(m) => self.lookup_in_module(m, seg, seg_ns, from)?,
                Def::Item(item) => match self.item(item).kind {
                    ItemKind::Enum if self.has_variant(item, seg) => {
                        Def::Variant(item, seg.clone())
                    }
                    _ => Def::Assoc(item, seg.clone()),
                },
                Def::External(mut p) => {
                    p.push(seg.clone());
                    Def::External(p)
                }
                Def::Variant(..) | Def::Assoc(..) | Def::Ambiguous => return None,
            };
        }
        (current != Def::Ambiguous).then_some(current)
    }

    /// A name as the first segment of a path: the module's scope, then other crates, then the
    /// prelude.
    fn lookup_lexical(&self, from: ModuleId, name: &str, ns: Ns) -> Option<Def> {
        if let Some(e) = self.module(from).scope.ns(ns).get(name) {
            return Some(e.def.clone());
        }
        if let (true, Some(parent)) = (self.module(from).block, self.module(from).parent) {
            return self.lookup_lexical(parent, name, ns);
        }
        if ns == Ns::Types {
            if let Some(d) = self.extern_crate(from, name) {
                return Some(d);
            }
        }
        if let Some(d) = self.external_glob_name(from, name) {
            return Some(d);
        }
        prelude(name, ns)
    }

    /// The module code in `m` is in: `m` itself, or for the scope of a fn's block, the module
    /// the fn is in.
    fn enclosing_module(&self, mut m: ModuleId) -> ModuleId {
        while let (true, Some(parent)) = (self.module(m).block, self.module(m).parent) {
            m = parent;
        }
        m
    }

    /// Another crate named by a path written in module `from`: a package of the program (its
    /// library's root), a dependency outside it, or the package's own library.
    fn extern_crate(&self, from: ModuleId, name: &str) -> Option<Def> {
        let scope = &self.packages[self.module(from).package];
        if let Some(&dep) = scope.linked.get(name) {
            if let Some((_, root)) = &self.packages[dep].lib {
                return Some(Def::Module(*root));
            }
        }
        if let Some(p) = scope.extern_names.get(name) {
            return Some(Def::External(p.clone()));
        }
        match &scope.lib {
            Some((lib, root)) if lib == name => Some(Def::Module(*root)),
            _ => None,
        }
    }

    /// The name code in module `from` reaches package `package` of the program by (the first
    /// in order when it has several); `None` when its package does not depend on that one.
    pub fn dependency_name(&self, from: ModuleId, package: usize) -> Option<String> {
        self.packages[self.module(from).package]
            .linked
            .iter()
            .filter(|(_, p)| **p == package)
            .map(|(name, _)| name)
            .min()
            .cloned()
    }

    /// A name only a glob of another crate can bring: from that glob when there is one.
    fn external_glob_name(&self, from: ModuleId, name: &str) -> Option<Def> {
        match self.module(from).external_globs.as_slice() {
            [one] => {
                let mut p = one.clone();
                p.push(name.to_string());
                Some(Def::External(p))
            }
            _ => None,
        }
    }

    /// `name` inside module `m`, as seen from module `from` (private names of a module are
    /// visible in it and its descendants).
    fn lookup_in_module(&self, m: ModuleId, name: &str, ns: Ns, from: ModuleId) -> Option<Def> {
        let entry = self.module(m).scope.ns(ns).get(name);
        match entry {
            Some(e) if e.is_pub || self.is_ancestor_or_self(m, from) => Some(e.def.clone()),
            Some(_) => None,
            None => self.external_glob_name(m, name),
        }
    }

    fn is_ancestor_or_self(&self, ancestor: ModuleId, mut m: ModuleId) -> bool {
        loop {
            if m == ancestor {
                return true;
            }
            match self.module(m).parent {
                Some(p) => m = p,
                None => return false,
            }
        }
    }

    fn has_variant(&self, item: ItemId, name: &str) -> bool {
        match self.item(item).syntax {
            Item::Enum(e) => e.variants.iter().any(|v| v.ident == name),
            _ => false,
        }
    }

    /// Resolve every import to a fixed point: each round resolves what the previous rounds made
    /// resolvable (re-exports of re-exports, globs of globs); bounded by the import count.
    fn resolve_imports(&mut self, imports: &mut [Import]) {
        let mut done = vec![false; imports.len()];
        for _round in 0..=imports.len().min(64) {
            let mut changed = false;
            for (i, imp) in imports.iter().enumerate() {
                if done[i] && matches!(imp.kind, ImportKind::Named { .. }) {
                    continue;
                }
                let target = if imp.prefix.is_empty() {
                    None
                } else {
                    self.resolve_segments(imp.module, imp.leading_colon, &imp.prefix, Ns::Types)
                };
                match &imp.kind {
                    ImportKind::Named { name, alias } => {
                        let defs = self.import_named(imp, target.as_ref(), name);
                        let mut any = false;
                        for (ns, def) in defs {
                            any = true;
                            let entry = Entry {
                                def,
                                is_pub: imp.is_pub,
                                from_glob: false,
                            };
                            changed |= self.modules[imp.module.0 as usize]
                                .scope
                                .define(ns, alias, entry);
                        }
                        done[i] = any;
                    }
                    ImportKind::Glob => match target {
                        Some(Def::Module(src)) => {
                            changed |= self.glob_module(src, imp.module, imp.is_pub);
                        }
                        Some(Def::Item(item)) => {
                            changed |= self.glob_enum(item, imp.module, imp.is_pub);
                            done[i] = true;
                        }
                        Some(Def::External(path)) => {
                            let m = &mut self.modules[imp.module.0 as usize];
                            if !m.external_globs.contains(&path) {
                                m.external_globs.push(path);
                                changed = true;
                            }
                            done[i] = true;
                        }
                        _ => {}
                    },
                }
            }
            if !changed {
                break;
            }
        }
        for (i, imp) in imports.iter().enumerate() {
            let ImportKind::Named { alias, .. } = &imp.kind else {
                continue;
            };
            if done[i] || imp.prefix.is_empty() {
                continue;
            }
            if let Some(Def::Module(m)) =
                self.resolve_segments(imp.module, imp.leading_colon, &imp.prefix, Ns::Types)
            {
                self.dangling.insert((imp.module, alias.clone()), m);
            }
        }
    }

    /// The module a name imported into `module` comes from when the source defines no item by
    /// that name there (a macro generates it).
    pub fn dangling_import(&self, module: ModuleId, name: &str) -> Option<ModuleId> {
        self.dangling.get(&(module, name.to_string())).copied()
    }

    /// What `use prefix::name` brings, per namespace.
    fn import_named(&self, imp: &Import, target: Option<&Def>, name: &str) -> Vec<(Ns, Def)> {
        if imp.prefix.is_empty() {
            // `use foo;` / `use foo as bar;`: an extern crate or a name in scope.
            return match self.resolve_segments(
                imp.module,
                imp.leading_colon,
                &[name.to_string()],
                Ns::Types,
            ) {
                Some(d) => vec![(Ns::Types, d)],
                None => Vec::new(),
            };
        }
        if name == "self" {
            return target
                .map(|d| vec![(Ns::Types, d.clone())])
                .unwrap_or_default();
        }
        match target {
            Some(Def::Module(src)) => [Ns::Types, Ns::Values, Ns::Macros]
                .into_iter()
                .filter_map(|ns| {
                    self.lookup_in_module(*src, name, ns, imp.module)
                        .map(|d| (ns, d))
                })
                .collect(),
            Some(Def::Item(item)) if self.has_variant(*item, name) => vec![
                (Ns::Types, Def::Variant(*item, name.to_string())),
                (Ns::Values, Def::Variant(*item, name.to_string())),
            ],
            Some(Def::External(p)) => {
                let mut p = p.clone();
                p.push(name.to_string());
                vec![
                    (Ns::Types, Def::External(p.clone())),
                    (Ns::Values, Def::External(p.clone())),
                    (Ns::Macros, Def::External(p)),
                ]
            }
            _ => Vec::new(),
        }
    }

    /// `use src::*` into `dst`: every name of `src` visible from `dst`, where `dst` has none.
    fn glob_module(&mut self, src: ModuleId, dst: ModuleId, is_pub: bool) -> bool {
        if src == dst {
            return false;
        }
        let visible_all = self.is_ancestor_or_self(src, dst);
        let mut adds = Vec::new();
        for ns in [Ns::Types, Ns::Values, Ns::Macros] {
            for (name, e) in self.module(src).scope.ns(ns) {
                if e.is_pub || visible_all {
                    adds.push((ns, name.clone(), e.def.clone()));
                }
            }
        }
        let globs = self.module(src).external_globs.clone();
        let m = &mut self.modules[dst.0 as usize];
        let mut changed = false;
        for (ns, name, def) in adds {
            let entry = Entry {
                def,
                is_pub,
                from_glob: true,
            };
            changed |= m.scope.define(ns, &name, entry);
        }
        for g in globs {
            if !m.external_globs.contains(&g) {
                m.external_globs.push(g);
                changed = true;
            }
        }
        changed
    }

    fn glob_enum(&mut self, item: ItemId, dst: ModuleId, is_pub: bool) -> bool {
        let Item::Enum(e) = self.item(item).syntax else {
            return false;
        };
        let names: Vec<String> = e.variants.iter().map(|v| v.ident.to_string()).collect();
        let m = &mut self.modules[dst.0 as usize];
        let mut changed = false;
        for name in names {
            for ns in [Ns::Types, Ns::Values] {
                let entry = Entry {
                    def: Def::Variant(item, name.clone()),
                    is_pub,
                    from_glob: true,
                };
                changed |= m.scope.define(ns, &name, entry);
            }
        }
        changed
    }
}

/// The std prelude's names that code calls or names as types.
fn prelude(name: &str, ns: Ns) -> Option<Def> {
    const TYPES: &[(&str, &str)] = &[
        ("Option", "option"),
        ("Result", "result"),
        ("String", "string"),
        ("Vec", "vec"),
        ("Box", "boxed"),
        ("ToString", "string"),
        ("From", "convert"),
        ("Into", "convert"),
        ("TryFrom", "convert"),
        ("TryInto", "convert"),
        ("Default", "default"),
        ("Iterator", "iter"),
        ("Clone", "clone"),
    ];
    const VALUES: &[(&str, &str)] = &[
        ("Some", "option"),
        ("None", "option"),
        ("Ok", "result"),
        ("Err", "result"),
        ("drop", "mem"),
    ];
    let table = match ns {
        Ns::Types => TYPES,
        Ns::Values => VALUES,
        Ns::Macros => return None,
    };
    table
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(n, m)| Def::External(vec!["std".to_string(), m.to_string(), n.to_string()]))
}

/// The walk that fills the map: modules, items, imports and impls.
struct Collect<'m, 'a, 'l> {
    map: &'m mut DefMap<'a>,
    layout: &'l Layout,
    syntax: &'l HashMap<FileId, (&'a syn::File, bool)>,
    imports: &'m mut Vec<Import>,
    /// Nesting of `mod` declarations and `include!`s (a `#[path]` or `include!` cycle must
    /// end).
    depth: usize,
    /// The file whose items are being collected (`include!` paths are relative to it).
    file: FileId,
}

/// `(child_dir, declaring_dir)` of a module, package-relative.
type Dirs = (PathBuf, PathBuf);

impl<'a> Collect<'_, 'a, '_> {
    fn items(&mut self, module: ModuleId, items: &'a [Item], dirs: Option<&Dirs>, in_test: bool) {
        for item in items {
            self.item(module, item, dirs, in_test);
        }
    }

    fn add_item(
        &mut self,
        module: ModuleId,
        item: &'a Item,
        kind: ItemKind,
        name: String,
    ) -> ItemId {
        let id = ItemId(self.map.items.len() as u32);
        let is_pub = item_is_pub(item);
        self.map.items.push(ItemData {
            kind,
            name: name.clone(),
            module,
            is_pub,
            syntax: item,
        });
        let entry = || Entry {
            def: Def::Item(id),
            is_pub,
            from_glob: false,
        };
        let scope = &mut self.map.modules[module.0 as usize].scope;
        match kind {
            ItemKind::Fn | ItemKind::Const | ItemKind::Static => {
                scope.define(Ns::Values, &name, entry());
            }
            ItemKind::Struct => {
                scope.define(Ns::Types, &name, entry());
                // Tuple and unit structs are also values (their constructor).
                if let Item::Struct(s) = item {
                    if !matches!(s.fields, syn::Fields::Named(_)) {
                        scope.define(Ns::Values, &name, entry());
                    }
                }
            }
            ItemKind::Enum | ItemKind::Union | ItemKind::Trait | ItemKind::TypeAlias => {
                scope.define(Ns::Types, &name, entry());
            }
            // Not path-scoped where it is written (only `#[macro_export]` puts it at the root).
            ItemKind::Macro => {}
        }
        id
    }

    fn item(&mut self, module: ModuleId, item: &'a Item, dirs: Option<&Dirs>, in_test: bool) {
        match item {
            Item::Fn(f) => {
                self.add_item(module, item, ItemKind::Fn, f.sig.ident.to_string());
                self.map.fn_scopes.insert(
                    &f.sig as *const _,
                    FnScope {
                        module,
                        container: Container::Free,
                    },
                );
                self.nested_fns(module, &f.block);
                self.block_items(module, &f.block, in_test);
            }
            Item::Struct(s) => {
                self.add_item(module, item, ItemKind::Struct, s.ident.to_string());
            }
            Item::Enum(e) => {
                self.add_item(module, item, ItemKind::Enum, e.ident.to_string());
            }
            Item::Union(u) => {
                self.add_item(module, item, ItemKind::Union, u.ident.to_string());
            }
            Item::Type(t) => {
                self.add_item(module, item, ItemKind::TypeAlias, t.ident.to_string());
            }
            Item::Const(c) => {
                self.add_item(module, item, ItemKind::Const, c.ident.to_string());
            }
            Item::Static(s) => {
                self.add_item(module, item, ItemKind::Static, s.ident.to_string());
            }
            Item::Trait(t) => {
                let id = self.add_item(module, item, ItemKind::Trait, t.ident.to_string());
                for ti in &t.items {
                    if let syn::TraitItem::Fn(f) = ti {
                        self.map.fn_scopes.insert(
                            &f.sig as *const _,
                            FnScope {
                                module,
                                container: Container::Trait(id),
                            },
                        );
                        if let Some(block) = &f.default {
                            self.nested_fns(module, block);
                        }
                    }
                }
            }
            Item::Macro(m) if is_include(&m.mac) => self.include(module, m, dirs, in_test),
            Item::Macro(m) if m.ident.is_none() => {
                self.map.item_macro_calls.push((module, m));
                if let Some(g) = self.map.generated.get(&(m as *const _)).copied() {
                    self.file_items(module, g.file, g.items, dirs, in_test);
                }
                if let Some(dirs) = dirs {
                    self.macro_modules(module, &m.mac.tokens, dirs, 0);
                }
            }
            Item::Macro(m) => {
                // `macro_rules! name` is textually scoped (see [`macros`]); with
                // `#[macro_export]` it is also a path-scoped item of the crate root.
                if let (true, Some(ident)) = (m.mac.path.is_ident("macro_rules"), &m.ident) {
                    let id = self.add_item(module, item, ItemKind::Macro, ident.to_string());
                    if crate::syntax::has_attr(&m.attrs, "macro_export") {
                        let root = self.map.module(module).root;
                        let entry = Entry {
                            def: Def::Item(id),
                            is_pub: true,
                            from_glob: false,
                        };
                        self.map.modules[root.0 as usize].scope.define(
                            Ns::Macros,
                            &ident.to_string(),
                            entry,
                        );
                    }
                }
            }
            Item::Impl(imp) => {
                let index = self.map.impls.len();
                let is_test = in_test || crate::syntax::is_cfg_test(&imp.attrs);
                self.map.impls.push(ImplData {
                    module,
                    syntax: imp,
                    is_test,
                });
                for ii in &imp.items {
                    if let ImplItem::Fn(f) = ii {
                        self.map.fn_scopes.insert(
                            &f.sig as *const _,
                            FnScope {
                                module,
                                container: Container::Impl(index),
                            },
                        );
                        self.nested_fns(module, &f.block);
                        self.block_items(module, &f.block, is_test);
                    }
                }
            }
            Item::Use(u) => {
                let is_pub = !matches!(u.vis, syn::Visibility::Inherited);
                self.use_tree(
                    module,
                    u.leading_colon.is_some(),
                    Vec::new(),
                    &u.tree,
                    is_pub,
                );
            }
            Item::ExternCrate(ec) => {
                let name = ec
                    .rename
                    .as_ref()
                    .map(|(_, r)| r.to_string())
                    .unwrap_or_else(|| ec.ident.to_string());
                let target = if ec.ident == "self" {
                    Def::Module(self.map.module(module).root)
                } else {
                    let krate = ec.ident.to_string();
                    self.map
                        .extern_crate(module, &krate)
                        .unwrap_or(Def::External(vec![krate]))
                };
                let entry = Entry {
                    def: target,
                    is_pub: !matches!(ec.vis, syn::Visibility::Inherited),
                    from_glob: false,
                };
                self.map.modules[module.0 as usize]
                    .scope
                    .define(Ns::Types, &name, entry);
            }
            Item::Mod(m) => self.module_item(module, m, dirs, in_test),
            _ => {}
        }
    }

    /// The fns declared inside a body: items of the crate in no module's scope (a path names
    /// one only from inside its block, see [`DefMap::block_scope`]), free fns of the module
    /// (`Self` and the outer fn's generics are not theirs, as in rustc).
    fn nested_fns(&mut self, module: ModuleId, body: &'a syn::Block) {
        let found = crate::syntax::nested_fns(body);
        self.map.nested_fns.insert(
            body as *const syn::Block,
            found.iter().map(|n| n.f).collect(),
        );
        for nested in found {
            self.map.items.push(ItemData {
                kind: ItemKind::Fn,
                name: nested.f.sig.ident.to_string(),
                module,
                is_pub: false,
                syntax: nested.item,
            });
            let sig = &nested.f.sig as *const syn::Signature;
            self.map.fn_scopes.insert(
                sig,
                FnScope {
                    module,
                    container: Container::Free,
                },
            );
            self.map.block_scopes.insert(sig, nested.visible);
        }
    }

    /// The items other than fns a fn's own block declares (`fn serve() { struct S;
    /// #[tool_router] impl S { .. } }`): a scope of their own, inside the fn's module (see
    /// [`ModuleData::block`]). Fns declared there are [`Self::nested_fns`]'; items of blocks
    /// nested deeper are not collected.
    fn block_items(&mut self, module: ModuleId, body: &'a syn::Block, in_test: bool) {
        let mut items = crate::syntax::block_items(body).peekable();
        if items.peek().is_none() {
            return;
        }
        let parent = self.map.module(module);
        let (root, package, file) = (parent.root, parent.package, parent.file);
        let id = ModuleId(self.map.modules.len() as u32);
        self.map.modules.push(ModuleData {
            root,
            package,
            parent: Some(module),
            name: String::new(),
            file,
            is_test: in_test,
            scope: Scope::default(),
            external_globs: Vec::new(),
            // The closing brace: the whole block's span would print it to tokens.
            decl_end: body.brace_token.span.close().byte_range().end,
            macro_use: false,
            block: true,
        });
        for item in items {
            self.item(id, item, None, in_test);
        }
    }

    /// `include!("core_tools.rs");` at item level: the file's items are this module's, as if
    /// written here (its `mod x;` children too).
    fn include(
        &mut self,
        module: ModuleId,
        m: &'a syn::ItemMacro,
        dirs: Option<&Dirs>,
        in_test: bool,
    ) {
        let Ok(path) = syn::parse2::<syn::LitStr>(m.mac.tokens.clone()) else {
            return;
        };
        let Some(file) = self.layout.included_file(self.file, &path.value()) else {
            return;
        };
        if self.depth > 64 || self.map.file_modules.contains_key(&file) {
            return;
        }
        let Some(&(syntax, file_test)) = self.syntax.get(&file) else {
            return;
        };
        self.map.file_modules.insert(file, module);
        self.file_items(module, file, &syntax.items, dirs, in_test || file_test);
    }

    /// The items of another file (a `mod x;` file, an included one), collected into `module`.
    fn file_items(
        &mut self,
        module: ModuleId,
        file: FileId,
        items: &'a [Item],
        dirs: Option<&Dirs>,
        in_test: bool,
    ) {
        self.depth += 1;
        let outer = std::mem::replace(&mut self.file, file);
        self.items(module, items, dirs, in_test);
        self.file = outer;
        self.depth -= 1;
    }

    fn module_item(
        &mut self,
        parent: ModuleId,
        m: &'a syn::ItemMod,
        dirs: Option<&Dirs>,
        in_test: bool,
    ) {
        let name = m.ident.to_string();
        let is_test = in_test || crate::syntax::is_cfg_test(&m.attrs);
        let path_attr = path_attribute(&m.attrs);
        let parent_data = self.map.module(parent);
        let (root, package, parent_file) =
            (parent_data.root, parent_data.package, parent_data.file);
        // Where the item ends: its closing brace or semicolon (the whole item's span would
        // print it to tokens).
        let decl_end = match (&m.content, &m.semi) {
            (Some((brace, _)), _) => brace.span.close().byte_range().end,
            (None, Some(semi)) => semi.span.byte_range().end,
            (None, None) => syn::spanned::Spanned::span(m).byte_range().end,
        };
        let new_module = |map: &mut DefMap<'a>, file: FileId| {
            let id = ModuleId(map.modules.len() as u32);
            map.modules.push(ModuleData {
                root,
                package,
                parent: Some(parent),
                name: name.clone(),
                file,
                is_test,
                scope: Scope::default(),
                external_globs: Vec::new(),
                decl_end,
                macro_use: crate::syntax::has_attr(&m.attrs, "macro_use"),
                block: false,
            });
            let entry = Entry {
                def: Def::Module(id),
                is_pub: !matches!(m.vis, syn::Visibility::Inherited),
                from_glob: false,
            };
            map.modules[parent.0 as usize]
                .scope
                .define(Ns::Types, &name, entry);
            id
        };
        match &m.content {
            Some((_, items)) => {
                let id = new_module(self.map, parent_file);
                // An inline module's children live in a directory named after it (or its
                // `#[path]`).
                let child = dirs.map(|(child, _)| {
                    let dir = child.join(path_attr.as_deref().unwrap_or(&name));
                    (dir.clone(), dir)
                });
                self.items(id, items, child.as_ref(), is_test);
            }
            None => {
                let Some((child, declaring)) = dirs else {
                    return;
                };
                if self.depth > 64 {
                    return;
                }
                // The files a `#[cfg_attr(.., path = "..")]` names are compiled under their cfg.
                for other in cfg_attr_paths(&m.attrs) {
                    self.link(parent, child, declaring, &name, Some(&other));
                }
                let Some((file, path)) =
                    self.layout
                        .module_file(child, declaring, &name, path_attr.as_deref())
                else {
                    return;
                };
                if self.map.file_modules.contains_key(&file) {
                    return;
                }
                let Some(&(syntax, file_test)) = self.syntax.get(&file) else {
                    // It did not parse: compiled all the same.
                    self.map.tree.links.push((parent, file));
                    return;
                };
                let id = new_module(self.map, file);
                self.map.file_modules.insert(file, id);
                // A `#[path]` file's children sit as if it were a `mod.rs`.
                let is_mod_rs =
                    path_attr.is_some() || path.file_name().is_some_and(|n| n == "mod.rs");
                let dirs = (
                    child_dir(&path, is_mod_rs),
                    path.parent().unwrap_or(Path::new("")).to_path_buf(),
                );
                self.file_items(id, file, &syntax.items, Some(&dirs), is_test || file_test);
            }
        }
    }

    /// `mod name;` declared in `module` but not loaded as its child: the file it names is linked
    /// to the module's tree.
    fn link(
        &mut self,
        module: ModuleId,
        child: &Path,
        declaring: &Path,
        name: &str,
        path_attr: Option<&str>,
    ) {
        if let Some((file, path)) = self.layout.module_file(child, declaring, name, path_attr) {
            self.map.tree.links.push((module, file));
            let is_mod_rs = path_attr.is_some() || path.file_name().is_some_and(|n| n == "mod.rs");
            let dirs = (
                child_dir(&path, is_mod_rs),
                path.parent().unwrap_or(Path::new("")).to_path_buf(),
            );
            self.map.tree.link_dirs.entry(file).or_insert(dirs);
        }
    }

    /// The `mod name;` declarations in a macro call's tokens (`cfg_if! { if #[cfg(unix)] {
    /// mod unix; } else { mod other; } }`), with their `#[path]` and `cfg_attr` paths and the
    /// inline modules around them: the files they name are linked to `module`'s tree (macros
    /// are not expanded; what a declaration names is compiled under some cfg).
    fn macro_modules(&mut self, module: ModuleId, tokens: &TokenStream, dirs: &Dirs, depth: usize) {
        if depth > 64 {
            return;
        }
        let (child, declaring) = dirs;
        let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
        let mut paths: Vec<String> = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    if let Some(TokenTree::Group(g)) = tokens.get(i + 1) {
                        if g.delimiter() == Delimiter::Bracket {
                            paths.extend(attribute_paths(g.stream()));
                            i += 2;
                            continue;
                        }
                    }
                    paths.clear();
                }
                TokenTree::Ident(id) if id == "pub" => {
                    i += 1;
                    if let Some(TokenTree::Group(g)) = tokens.get(i) {
                        if g.delimiter() == Delimiter::Parenthesis {
                            i += 1;
                        }
                    }
                    continue;
                }
                TokenTree::Ident(id) if id == "mod" => {
                    let name = match tokens.get(i + 1) {
                        Some(TokenTree::Ident(name)) => name.to_string(),
                        _ => String::new(),
                    };
                    let name = name.strip_prefix("r#").unwrap_or(&name).to_string();
                    match tokens.get(i + 2) {
                        Some(TokenTree::Punct(p)) if p.as_char() == ';' && !name.is_empty() => {
                            if paths.is_empty() {
                                self.link(module, child, declaring, &name, None);
                            }
                            for path in std::mem::take(&mut paths) {
                                self.link(module, child, declaring, &name, Some(&path));
                            }
                            i += 3;
                            continue;
                        }
                        Some(TokenTree::Group(g))
                            if g.delimiter() == Delimiter::Brace && !name.is_empty() =>
                        {
                            let dir = child.join(paths.first().map_or(name.as_str(), |p| p));
                            let inner = (dir.clone(), dir);
                            self.macro_modules(module, &g.stream(), &inner, depth + 1);
                            paths.clear();
                            i += 3;
                            continue;
                        }
                        _ => paths.clear(),
                    }
                }
                TokenTree::Group(g) => {
                    self.macro_modules(module, &g.stream(), dirs, depth + 1);
                    paths.clear();
                }
                _ => paths.clear(),
            }
            i += 1;
        }
    }

    fn use_tree(
        &mut self,
        module: ModuleId,
        leading_colon: bool,
        prefix: Vec<String>,
        tree: &UseTree,
        is_pub: bool,
    ) {
        match tree {
            UseTree::Path(p) => {
                let mut next = prefix;
                next.push(p.ident.to_string());
                self.use_tree(module, leading_colon, next, &p.tree, is_pub);
            }
            UseTree::Name(n) => {
                let name = n.ident.to_string();
                let alias = if name == "self" {
                    prefix.last().cloned().unwrap_or_default()
                } else {
                    name.clone()
                };
                self.imports.push(Import {
                    module,
                    leading_colon,
                    prefix,
                    kind: ImportKind::Named { name, alias },
                    is_pub,
                });
            }
            UseTree::Rename(r) => {
                let alias = r.rename.to_string();
                if alias == "_" {
                    return;
                }
                self.imports.push(Import {
                    module,
                    leading_colon,
                    prefix,
                    kind: ImportKind::Named {
                        name: r.ident.to_string(),
                        alias,
                    },
                    is_pub,
                });
            }
            UseTree::Glob(_) => self.imports.push(Import {
                module,
                leading_colon,
                prefix,
                kind: ImportKind::Glob,
                is_pub,
            }),
            UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(module, leading_colon, prefix.clone(), t, is_pub);
                }
            }
        }
    }
}

/// `include!(..)`, `std::include!(..)`, `core::include!(..)`.
fn is_include(mac: &syn::Macro) -> bool {
    let segments: Vec<_> = mac.path.segments.iter().map(|s| &s.ident).collect();
    match segments.as_slice() {
        [name] => *name == "include",
        [krate, name] => (*krate == "std" || *krate == "core") && *name == "include",
        _ => false,
    }
}

fn item_is_pub(item: &Item) -> bool {
    let vis = match item {
        Item::Fn(i) => &i.vis,
        Item::Struct(i) => &i.vis,
        Item::Enum(i) => &i.vis,
        Item::Union(i) => &i.vis,
        Item::Trait(i) => &i.vis,
        Item::Type(i) => &i.vis,
        Item::Const(i) => &i.vis,
        Item::Static(i) => &i.vis,
        Item::Mod(i) => &i.vis,
        // `#[macro_export]` macros are public at the crate root.
        Item::Macro(_) => return true,
        _ => return false,
    };
    !matches!(vis, syn::Visibility::Inherited)
}

/// The paths of `#[cfg_attr(pred, path = "x.rs")]` attributes.
fn cfg_attr_paths(attrs: &[syn::Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg_attr"))
        .flat_map(|a| attribute_paths(a.meta.to_token_stream()))
        .collect()
}

/// The file paths an attribute's contents (`path = "x.rs"`, `cfg_attr(pred, path = "x.rs")`)
/// give a module.
fn attribute_paths(tokens: TokenStream) -> Vec<String> {
    use syn::punctuated::Punctuated;
    let Ok(meta) = syn::parse2::<syn::Meta>(tokens) else {
        return Vec::new();
    };
    match &meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => {
            str_literal(&nv.value).into_iter().collect()
        }
        syn::Meta::List(list) if list.path.is_ident("cfg_attr") => list
            .parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
            .map(|args| {
                args.into_iter()
                    .skip(1)
                    .flat_map(|m| attribute_paths(m.to_token_stream()))
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// `#[path = "x.rs"]`.
fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => str_literal(&nv.value),
        _ => None,
    })
}

#[cfg(test)]
mod tests;
