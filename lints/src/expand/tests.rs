use std::path::PathBuf;

use quote::ToTokens;

use super::*;
use crate::resolve::PackageFiles;
use crate::source::FileId;

/// `f` over the resolved one-file crate `src/lib.rs` = `file`.
fn with_crate<R>(file: &syn::File, f: impl FnOnce(&DefMap<'_>) -> R) -> R {
    let entries = vec![(FileId(0), Some(PathBuf::from("src/lib.rs")), file, false)];
    let defs = DefMap::build(&PackageFiles {
        files: &entries,
        package_name: Some("srv"),
        targets: &crate::options::Targets::default(),
        unparsed: &[],
        dependencies: Vec::new(),
        linked: Vec::new(),
    });
    f(&defs)
}

/// The expansion of the first macro call in fn `caller` of a one-file crate, as text.
fn expansion_in(src: &str, caller: &str) -> Option<String> {
    let file: syn::File = syn::parse_str(src).expect("test source parses");
    with_crate(&file, |defs| {
        let expander = Expander::new(defs);
        let (module, mac) = find_call(defs, &file.items, defs.file_module(FileId(0))?, caller)?;
        let e = expander.expand(mac, module, 0)?;
        Some(e.expr.to_token_stream().to_string())
    })
}

fn find_call<'f>(
    defs: &DefMap<'_>,
    items: &'f [Item],
    module: ModuleId,
    caller: &str,
) -> Option<(ModuleId, &'f syn::Macro)> {
    for item in items {
        match item {
            Item::Fn(f) if f.sig.ident == caller => {
                return f.block.stmts.iter().find_map(|s| match s {
                    syn::Stmt::Macro(m) => Some((module, &m.mac)),
                    syn::Stmt::Expr(Expr::Macro(m), _) => Some((module, &m.mac)),
                    _ => None,
                });
            }
            Item::Mod(m) => {
                let child = (0..defs.modules.len())
                    .map(|i| ModuleId(i as u32))
                    .find(|c| m.ident == defs.module(*c).name)?;
                if let Some((_, inner)) = &m.content {
                    if let Some(found) = find_call(defs, inner, child, caller) {
                        return Some(found);
                    }
                }
            }
            _ => {}
        }
    }
    None
}

#[test]
fn the_first_matching_arm_is_substituted() {
    let src = r#"
        macro_rules! tool_err {
            () => { Err(McpError::internal_error("unknown", None)) };
            ($msg:expr) => { Err(McpError::internal_error($msg, None)) };
            ($fmt:literal, $($arg:tt)*) => { Err(McpError::invalid_params(format!($fmt, $($arg)*), None)) };
        }
        fn a() { tool_err!() }
        fn b() { tool_err!("no such file") }
        fn c() { tool_err!("bad {} of {}", x, y) }
        fn d() { tool_err!(a + b) }
    "#;
    assert_eq!(
        expansion_in(src, "a").as_deref(),
        Some("Err (McpError :: internal_error (\"unknown\" , None))")
    );
    assert_eq!(
        expansion_in(src, "b").as_deref(),
        Some("Err (McpError :: internal_error (\"no such file\" , None))")
    );
    // `"bad {} of {}", x, y` is not one expression: the `$fmt:literal` arm.
    assert_eq!(
        expansion_in(src, "c").as_deref(),
        Some("Err (McpError :: invalid_params (format ! (\"bad {} of {}\" , x , y) , None))")
    );
    assert_eq!(
        expansion_in(src, "d").as_deref(),
        Some("Err (McpError :: internal_error ((a + b) , None))")
    );
}

#[test]
fn undecidable_or_unsupported_matches_give_no_expansion() {
    let src = r#"
        macro_rules! typed { ($b:block) => { Err(McpError::internal_error("x", None)) }; }
        macro_rules! rep_then_more { ($($x:tt)* ; $y:expr) => { $y }; }
        macro_rules! not_an_expr { () => { => }; }
        fn a() { typed!({ 1 }) }
        fn b() { rep_then_more!(a b ; c) }
        fn c() { not_an_expr!() }
        fn d() { vec![1, 2] }
        fn e() { undefined!() }
    "#;
    for caller in ["a", "b", "c", "d", "e"] {
        assert_eq!(expansion_in(src, caller), None, "{caller}");
    }
}

#[test]
fn type_and_path_fragments_take_the_longest_type_or_path() {
    let src = r#"
        macro_rules! parse_args {
            ($args:expr => $t:ty) => { serde_json::from_value::<$t>($args).map_err(|e| McpError::invalid_params(e.to_string(), None)) };
        }
        macro_rules! fail_with { ($ctor:path, $m:expr) => { Err($ctor($m, None)) }; }
        macro_rules! typed_only { ($t:ty) => { <$t>::default() }; }
        fn a() { parse_args!(args => HashMap<String, Vec<u8>>) }
        fn b() { fail_with!(McpError::internal_error, "disk full") }
        fn c() { typed_only!(&'static str) }
        fn d() { typed_only!(=> nothing) }
    "#;
    assert_eq!(
        expansion_in(src, "a").as_deref(),
        Some(
            "serde_json :: from_value :: < HashMap < String , Vec < u8 > > > (args) . map_err (| e | \
             McpError :: invalid_params (e . to_string () , None))"
        )
    );
    assert_eq!(
        expansion_in(src, "b").as_deref(),
        Some("Err (McpError :: internal_error (\"disk full\" , None))")
    );
    assert_eq!(
        expansion_in(src, "c").as_deref(),
        Some("< & 'static str > :: default ()")
    );
    // Not a type: the arm cannot be decided, so nothing is expanded.
    assert_eq!(expansion_in(src, "d"), None);
}

#[test]
fn same_named_macros_of_two_modules_expand_to_their_own() {
    let src = r#"
        mod tools {
            macro_rules! my_err { ($m:expr) => { Err(McpError::internal_error($m, None)) }; }
            fn t() { my_err!("in tools") }
        }
        mod startup {
            macro_rules! my_err { ($m:expr) => { Err(Error::Config($m)) }; }
            fn s() { my_err!("in startup") }
        }
        #[macro_export]
        macro_rules! outer { ($m:expr) => { $crate::inner!($m) }; }
        fn o() { crate::outer!("x") }
    "#;
    assert!(expansion_in(src, "t").is_some_and(|e| e.contains("internal_error")));
    assert!(expansion_in(src, "s").is_some_and(|e| e.contains("Config")));
    assert_eq!(
        expansion_in(src, "o").as_deref(),
        Some("crate :: inner ! (\"x\")")
    );
}

#[test]
fn recursion_stops_at_the_depth_bound() {
    let src = r#"
        macro_rules! again { () => { again!() }; }
        fn r() { again!() }
    "#;
    let file: syn::File = syn::parse_str(src).expect("parses");
    let depth = with_crate(&file, |defs| {
        let expander = Expander::new(defs);
        let root = defs.file_module(FileId(0)).expect("root");
        let (_, mut mac) = find_call(defs, &file.items, root, "r").expect("call");
        let mut depth = 0;
        while let Some(e) = expander.expand(mac, root, depth) {
            let Expr::Macro(m) = e.expr else {
                panic!("a macro call")
            };
            mac = &m.mac;
            depth += 1;
        }
        depth
    });
    assert_eq!(depth, MAX_DEPTH);
}

#[test]
fn a_dependency_macro_s_crate_is_the_dependency_by_the_caller_s_name_for_it() {
    let server: syn::File =
        syn::parse_str("fn t() { bee::fail!(\"x\") }\nfn u() { fail!(\"x\") }").expect("parses");
    let helpers: syn::File = syn::parse_str(
        "#[macro_export]\nmacro_rules! fail { ($m:expr) => { $crate::net::fail($m) }; }\n\
         fn own() { fail!(\"y\") }",
    )
    .expect("parses");
    let server_files = vec![(FileId(0), Some(PathBuf::from("src/lib.rs")), &server, false)];
    let helper_files = vec![(
        FileId(1),
        Some(PathBuf::from("src/lib.rs")),
        &helpers,
        false,
    )];
    let defs = DefMap::build_program(&[
        PackageFiles {
            files: &server_files,
            package_name: Some("server"),
            targets: &crate::options::Targets::default(),
            unparsed: &[],
            dependencies: vec![("bee".into(), "helpers".into())],
            linked: vec![("bee".into(), 1)],
        },
        PackageFiles {
            files: &helper_files,
            package_name: Some("helpers"),
            targets: &crate::options::Targets::default(),
            unparsed: &[],
            dependencies: Vec::new(),
            linked: Vec::new(),
        },
    ]);
    let expander = Expander::new(&defs);
    let expand = |file: &syn::File, id: usize, caller: &str| {
        let root = defs.file_module(FileId(id))?;
        let (module, mac) = find_call(&defs, &file.items, root, caller)?;
        let e = expander.expand(mac, module, 0)?;
        Some(e.expr.to_token_stream().to_string())
    };
    assert_eq!(
        expand(&server, 0, "t").as_deref(),
        Some(":: bee :: net :: fail (\"x\")")
    );
    // Not in textual scope in the server, and not imported: no macro of its own by that name.
    assert_eq!(expand(&server, 0, "u"), None);
    assert_eq!(
        expand(&helpers, 1, "own").as_deref(),
        Some("crate :: net :: fail (\"y\")")
    );
}

/// The items an item-position macro call generates: `(generated calls, items in all)`, and the
/// names of the fns the second resolution defines at the crate root.
fn generated_items(src: &str) -> (usize, usize, Vec<String>) {
    let file: syn::File = syn::parse_str(src).expect("test source parses");
    let entries = vec![(FileId(0), Some(PathBuf::from("src/lib.rs")), &file, false)];
    let package = PackageFiles {
        files: &entries,
        package_name: Some("srv"),
        targets: &crate::options::Targets::default(),
        unparsed: &[],
        dependencies: Vec::new(),
        linked: Vec::new(),
    };
    let arena = typed_arena::Arena::new();
    let first = DefMap::build(&package);
    let generated = expand_item_macros(&first, &arena);
    let calls = generated.len();
    let items = generated.values().map(|g| g.items.len()).sum();
    let second = DefMap::build_program_with(std::slice::from_ref(&package), generated);
    let fns = second
        .items
        .iter()
        .filter(|i| i.kind == crate::resolve::ItemKind::Fn)
        .map(|i| i.name.clone())
        .collect();
    (calls, items, fns)
}

#[test]
fn item_macros_generate_fns_impls_and_nested_macro_items() {
    let (calls, items, fns) = generated_items(
        r#"
        macro_rules! tools {
            ($($name:ident),+) => {
                $( pub fn $name() -> &'static str { stringify!($name) } )+
                names!($($name),+);
            };
        }
        macro_rules! names {
            ($($name:ident),+) => { pub const NAMES: &[&str] = &[$(stringify!($name)),+]; };
        }
        tools!(echo, shout);
        "#,
    );
    assert_eq!(calls, 1);
    assert_eq!(items, 3, "two fns and the nested call's const");
    assert_eq!(fns, ["echo", "shout"]);
}

#[test]
fn hostile_item_macros_end_bounded() {
    // Recursing forever, doubling its input at each step, and branching: each ends at the
    // depth, token and crate limits, without a panic.
    let src = r#"
        macro_rules! forever { () => { forever!{} }; }
        macro_rules! grow { ($($t:tt)*) => { fn g() {} grow!{ $($t)* $($t)* } }; }
        macro_rules! fork { () => { fn f() {} fork!{} fork!{} }; }
        forever!{}
        grow!{ a b c d e f g h i j k l m n o p }
        fork!{}
    "#;
    let started = std::time::Instant::now();
    let (_, items, fns) = generated_items(src);
    assert!(items < 1_000, "{items} items");
    assert!(fns.len() < 1_000);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}
