use std::path::PathBuf;

use super::*;

fn parse(src: &str) -> syn::File {
    syn::parse_str(src).expect("test source parses")
}

/// A package of `(relative path, source)` files, resolved.
fn with_package<R>(files: &[(&str, &str)], f: impl FnOnce(&DefMap<'_>) -> R) -> R {
    with_targets(files, &crate::options::Targets::default(), f)
}

/// [`with_package`] with the targets its Cargo.toml declares.
fn with_targets<R>(
    files: &[(&str, &str)],
    targets: &crate::options::Targets,
    f: impl FnOnce(&DefMap<'_>) -> R,
) -> R {
    let parsed: Vec<syn::File> = files.iter().map(|(_, s)| parse(s)).collect();
    let entries: Vec<(FileId, Option<PathBuf>, &syn::File, bool)> = files
        .iter()
        .zip(&parsed)
        .enumerate()
        .map(|(i, ((p, _), syntax))| (FileId(i), Some(PathBuf::from(p)), syntax, false))
        .collect();
    let package = PackageFiles {
        files: &entries,
        package_name: Some("my-server"),
        targets,
        unparsed: &[],
        dependencies: vec![("rmcp".into(), "rmcp".into())],
        linked: Vec::new(),
    };
    let defs = DefMap::build(&package);
    f(&defs)
}

fn path(s: &str) -> syn::Path {
    syn::parse_str(s).expect("path parses")
}

/// The name of the fn a path resolves to from the top module of file `file`.
fn fn_name(defs: &DefMap<'_>, file: usize, p: &str) -> Option<String> {
    let m = defs.file_module(FileId(file))?;
    match defs.resolve_path(m, &path(p), Ns::Values)? {
        Def::Item(id) => Some(format!(
            "{}::{}",
            defs.module(defs.item(id).module).name,
            defs.item(id).name
        )),
        other => Some(format!("{other:?}")),
    }
}

#[test]
fn renamed_and_grouped_imports_resolve_to_their_item() {
    with_package(
        &[
            ("src/lib.rs", "mod m; mod tools; pub use m::execute;"),
            ("src/m.rs", "pub fn execute() {} pub fn other() {}"),
            (
                "src/tools.rs",
                "use crate::m::{execute as run_x, self}; fn t() { run_x(); m::other(); }",
            ),
        ],
        |defs| {
            assert_eq!(fn_name(defs, 2, "run_x").as_deref(), Some("m::execute"));
            assert_eq!(fn_name(defs, 2, "m::other").as_deref(), Some("m::other"));
            assert_eq!(fn_name(defs, 0, "execute").as_deref(), Some("m::execute"));
            assert_eq!(fn_name(defs, 2, "execute"), None);
        },
    );
}

#[test]
fn same_named_private_fns_in_two_modules_stay_apart() {
    with_package(
        &[
            ("src/lib.rs", "mod a; mod b;"),
            ("src/a.rs", "fn validate() {} fn t() { validate(); }"),
            (
                "src/b.rs",
                "fn validate() {} fn u() { validate(); super::a::t; }",
            ),
        ],
        |defs| {
            assert_eq!(fn_name(defs, 1, "validate").as_deref(), Some("a::validate"));
            assert_eq!(fn_name(defs, 2, "validate").as_deref(), Some("b::validate"));
            // Private to `a`: not visible from `b`.
            assert_eq!(fn_name(defs, 2, "super::a::validate"), None);
            assert_eq!(fn_name(defs, 2, "super::a::t"), None);
        },
    );
}

#[test]
fn local_items_and_explicit_imports_shadow_globs() {
    with_package(
        &[
            (
                "src/lib.rs",
                "mod a; mod b; mod c; use a::*; use b::*; use c::helper; fn local() {}",
            ),
            (
                "src/a.rs",
                "pub fn helper() {} pub fn local() {} pub fn shared() {}",
            ),
            ("src/b.rs", "pub fn shared() {} pub fn only_b() {}"),
            ("src/c.rs", "pub fn helper() {}"),
        ],
        |defs| {
            assert_eq!(fn_name(defs, 0, "helper").as_deref(), Some("c::helper"));
            assert_eq!(fn_name(defs, 0, "local").as_deref(), Some("crate::local"));
            assert_eq!(fn_name(defs, 0, "only_b").as_deref(), Some("b::only_b"));
            // Two globs bring different `shared`: ambiguous, so unresolved.
            assert_eq!(fn_name(defs, 0, "shared"), None);
        },
    );
}

#[test]
fn super_and_crate_paths_pick_the_right_same_named_module() {
    with_package(
        &[(
            "src/lib.rs",
            "mod util { pub fn f() {} } mod server { mod util { pub fn f() {} } fn t() {} }",
        )],
        |defs| {
            let server = defs
                .modules
                .iter()
                .position(|m| m.name == "server")
                .map(|i| ModuleId(i as u32))
                .unwrap();
            let resolve = |p: &str| match defs.resolve_path(server, &path(p), Ns::Values) {
                Some(Def::Item(id)) => Some(defs.item(id).module),
                _ => None,
            };
            let inner = resolve("util::f").unwrap();
            let outer = resolve("crate::util::f").unwrap();
            assert_ne!(inner, outer);
            assert_eq!(resolve("super::util::f"), Some(outer));
            assert_eq!(resolve("self::util::f"), Some(inner));
        },
    );
}

#[test]
fn pub_use_facades_and_reexport_chains_resolve() {
    with_package(
        &[
            ("src/lib.rs", "pub mod api; mod imp; mod tools;"),
            (
                "src/api.rs",
                "pub use crate::imp::errors::*; pub use crate::imp::run as go;",
            ),
            ("src/imp/mod.rs", "pub mod errors; pub fn run() {}"),
            ("src/imp/errors.rs", "pub fn internal() {}"),
            ("src/tools.rs", "use crate::api::{internal, go};"),
        ],
        |defs| {
            assert_eq!(
                fn_name(defs, 4, "internal").as_deref(),
                Some("errors::internal")
            );
            assert_eq!(fn_name(defs, 4, "go").as_deref(), Some("imp::run"));
        },
    );
}

#[test]
fn binaries_reach_the_library_by_the_package_name_and_externals_stay_external() {
    with_package(
        &[
            ("src/lib.rs", "pub mod server; "),
            ("src/server.rs", "pub fn serve() {}"),
            (
                "src/main.rs",
                "use my_server::server::serve; use rmcp::ErrorData as McpError;",
            ),
        ],
        |defs| {
            assert_eq!(fn_name(defs, 2, "serve").as_deref(), Some("server::serve"));
            let main = defs.file_module(FileId(2)).unwrap();
            assert_eq!(
                defs.resolve_path(main, &path("McpError"), Ns::Types),
                Some(Def::External(vec!["rmcp".into(), "ErrorData".into()]))
            );
            assert_eq!(
                defs.resolve_path(main, &path("McpError::internal_error"), Ns::Values),
                Some(Def::External(vec![
                    "rmcp".into(),
                    "ErrorData".into(),
                    "internal_error".into()
                ]))
            );
        },
    );
}

#[test]
fn path_attributes_inline_modules_and_orphans() {
    with_package(
        &[
            (
                "src/lib.rs",
                "#[path = \"impls/special.rs\"] mod special; mod outer { pub mod inner; }",
            ),
            ("src/impls/special.rs", "pub fn s() {}"),
            ("src/outer/inner.rs", "pub fn i() {}"),
            ("src/orphan.rs", "fn o() {} fn p() { o(); }"),
        ],
        |defs| {
            assert_eq!(
                fn_name(defs, 0, "special::s").as_deref(),
                Some("special::s")
            );
            assert_eq!(
                fn_name(defs, 0, "outer::inner::i").as_deref(),
                Some("inner::i")
            );
            // A file no `mod` reaches is a root of its own.
            assert_eq!(fn_name(defs, 3, "o").as_deref(), Some("crate::o"));
        },
    );
}

#[test]
fn enum_variants_through_paths_and_globs() {
    with_package(
        &[(
            "src/lib.rs",
            "pub enum AppError { NotFound(String), Busy } mod m { use super::AppError::*; fn f() {} }",
        )],
        |defs| {
            let root = defs.file_module(FileId(0)).unwrap();
            assert!(matches!(
                defs.resolve_path(root, &path("AppError::NotFound"), Ns::Values),
                Some(Def::Variant(_, v)) if v == "NotFound"
            ));
            let m = ModuleId(1);
            assert!(matches!(
                defs.resolve_path(m, &path("Busy"), Ns::Values),
                Some(Def::Variant(_, v)) if v == "Busy"
            ));
        },
    );
}

/// The rules of the macro a call `call` names, written at its first occurrence after `marker`.
fn macro_at(
    defs: &DefMap<'_>,
    src: &str,
    module: ModuleId,
    marker: &str,
    call: &str,
) -> Option<String> {
    let at = src.find(marker)? + src[src.find(marker)?..].find(call)?;
    let p: syn::Path = syn::parse_str(call.trim_end_matches('!')).ok()?;
    let id = defs.macro_call(module, at, &p)?;
    let Item::Macro(m) = defs.item(id).syntax else {
        return None;
    };
    Some(m.mac.tokens.to_string())
}

#[test]
fn macro_rules_are_in_scope_textually_and_exported_at_the_root() {
    let lib = r#"
        fn before() { my_err!(); }
        macro_rules! my_err { () => { 1 } }
        mod a {
            macro_rules! my_err { () => { 2 } }
            fn in_a() { my_err!(); }
        }
        mod b { fn in_b() { my_err!(); } }
        #[macro_use]
        mod c { macro_rules! from_c { () => { 3 } } }
        fn after_c() { from_c!(); }
        fn exported() { crate::ex!(); }
        mod d { #[macro_export] macro_rules! ex { () => { 4 } } }
    "#;
    with_package(&[("src/lib.rs", lib)], |defs| {
        let root = defs.file_module(FileId(0)).expect("root");
        let child = |name: &str| {
            (0..defs.modules.len())
                .map(|i| ModuleId(i as u32))
                .find(|m| defs.module(*m).name == name)
                .expect("module")
        };
        assert_eq!(macro_at(defs, lib, root, "fn before", "my_err!"), None);
        assert_eq!(
            macro_at(defs, lib, child("a"), "fn in_a", "my_err!").as_deref(),
            Some("() => { 2 }")
        );
        assert_eq!(
            macro_at(defs, lib, child("b"), "fn in_b", "my_err!").as_deref(),
            Some("() => { 1 }")
        );
        assert_eq!(
            macro_at(defs, lib, root, "fn after_c", "from_c!").as_deref(),
            Some("() => { 3 }")
        );
        assert_eq!(
            macro_at(defs, lib, root, "fn exported", "crate::ex!").as_deref(),
            Some("() => { 4 }")
        );
        // Not `#[macro_use]`: `a`'s macro is not in scope after it, nor by path.
        assert_eq!(defs.macro_call(root, lib.len(), &path("a::my_err")), None);
        let last = defs
            .macro_call(root, lib.len(), &path("my_err"))
            .expect("in scope");
        assert_eq!(defs.item(last).module, root, "the root's own, not `a`'s");
    });
}

#[test]
fn included_files_are_the_including_module() {
    with_package(
        &[
            ("src/lib.rs", "mod handlers;"),
            (
                "src/handlers/mod.rs",
                "include!(\"tools.rs\"); fn route() { churn(); dispatch(); }",
            ),
            // Relative to the file that writes the `include!`, nested includes too.
            (
                "src/handlers/tools.rs",
                "include!(\"tools/churn.rs\"); fn dispatch() { churn(); }",
            ),
            ("src/handlers/tools/churn.rs", "fn churn() { dispatch(); }"),
            // A file that includes itself, and an include of a file that is not there.
            (
                "src/handlers/cycle.rs",
                "include!(\"cycle.rs\"); include!(\"missing.rs\"); fn c() {}",
            ),
        ],
        |defs| {
            assert_eq!(defs.file_module(FileId(2)), defs.file_module(FileId(1)));
            assert_eq!(defs.file_module(FileId(3)), defs.file_module(FileId(1)));
            assert_eq!(
                fn_name(defs, 1, "churn").as_deref(),
                Some("handlers::churn")
            );
            assert_eq!(
                fn_name(defs, 3, "dispatch").as_deref(),
                Some("handlers::dispatch")
            );
            // Not included by anything: a root of its own, whose self-include ends.
            assert_eq!(fn_name(defs, 4, "c").as_deref(), Some("crate::c"));
        },
    );
}

/// The files of the package its target roots reach, by index.
fn in_tree(defs: &DefMap<'_>, count: usize) -> Vec<usize> {
    (0..count)
        .filter(|&i| defs.in_module_tree(FileId(i), 0))
        .collect()
}

#[test]
fn the_module_tree_follows_mod_path_inline_cfg_attr_and_macro_declarations() {
    let files = [
        (
            "src/lib.rs",
            "mod a;\n#[path = \"gen/x.rs\"] mod z;\nmod inline { mod deep; }\n\
             #[cfg_attr(feature = \"f\", path = \"alt.rs\")] mod c;\n\
             cfg_if::cfg_if! { if #[cfg(unix)] { mod unix; } else { #[path = \"win.rs\"] mod imp; } }\n\
             my_macro! { pub(crate) mod wrapped { mod leaf; } }\n",
        ),
        ("src/a.rs", ""),
        ("src/gen/x.rs", ""),
        ("src/inline/deep.rs", ""),
        ("src/alt.rs", ""),
        ("src/unix.rs", "mod more;\n"),
        ("src/unix/more.rs", ""),
        ("src/win.rs", ""),
        ("src/wrapped/leaf.rs", ""),
        ("src/stale.rs", "mod stale_child;\n"),
        ("src/stale/stale_child.rs", ""),
        ("src/template.rs", "cfg_if::cfg_if! { if #[cfg(unix)] { mod t; } }\n"),
        ("src/template/t.rs", ""),
        ("examples/demo.rs", ""),
        ("src/bin/tool.rs", ""),
    ];
    with_package(&files, |defs| {
        assert_eq!(
            in_tree(defs, files.len()),
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 13, 14]
        );
    });
}

#[test]
fn declared_targets_are_roots_and_turned_off_kinds_are_not() {
    use crate::options::{TargetKind, Targets};
    let files = [
        ("src/lib.rs", ""),
        ("src/main.rs", ""),
        ("src/bin/other.rs", ""),
        // A crate root's `mod` children sit beside it, whatever its name.
        ("src/cli/entry.rs", "mod helper;\n"),
        ("src/cli/helper.rs", ""),
        ("examples/demo.rs", ""),
        ("src/orphan.rs", ""),
    ];
    let targets = Targets {
        lib: None,
        declared: vec![PathBuf::from("src/cli/./entry.rs")],
        not_inferred: vec![TargetKind::Bin],
    };
    with_targets(&files, &targets, |defs| {
        assert_eq!(in_tree(defs, files.len()), [0, 3, 4, 5]);
    });
    // Without any target root (a fixture, a partial checkout): every file.
    with_package(&[("src/a.rs", ""), ("src/b.rs", "")], |defs| {
        assert_eq!(in_tree(defs, 2), [0, 1]);
    });
}

#[test]
fn items_a_fn_block_declares_have_a_scope_of_their_own() {
    with_package(
        &[
            (
                "src/lib.rs",
                "mod server; mod util { pub fn f() {} } struct S;",
            ),
            (
                "src/server.rs",
                "pub struct S; fn helper() {} \
                 pub fn serve() { \
                     use crate::util::f as run; \
                     struct S; struct Only; \
                     impl S { fn go(&self) { run(); helper(); } } \
                 }",
            ),
        ],
        |defs| {
            let block = defs
                .modules
                .iter()
                .position(|m| m.block)
                .map(|i| ModuleId(i as u32))
                .expect("the block of `serve` has a scope");
            let server = defs.file_module(FileId(1)).unwrap();
            let resolve = |p: &str, ns: Ns| match defs.resolve_path(block, &path(p), ns) {
                Some(Def::Item(id)) => Some((defs.item(id).module, defs.item(id).name.clone())),
                _ => None,
            };
            // The block's own items and imports, and what it does not declare from its module.
            assert_eq!(resolve("S", Ns::Types), Some((block, "S".to_string())));
            assert_eq!(
                resolve("Only", Ns::Types),
                Some((block, "Only".to_string()))
            );
            assert_eq!(
                resolve("run", Ns::Values).map(|(_, n)| n).as_deref(),
                Some("f")
            );
            assert_eq!(
                resolve("helper", Ns::Values),
                Some((server, "helper".to_string()))
            );
            // `self` and `super` are the fn's module's: a block is no module.
            assert_eq!(
                resolve("self::S", Ns::Types),
                Some((server, "S".to_string()))
            );
            assert_eq!(
                resolve("super::S", Ns::Types).map(|(m, _)| m),
                defs.file_module(FileId(0))
            );
            // The block's items are not the module's.
            assert_eq!(defs.resolve_path(server, &path("Only"), Ns::Types), None);
        },
    );
}
