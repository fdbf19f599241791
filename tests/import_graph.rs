//! `src/` has no import cycles: every file is parsed with syn, every path it names through
//! `crate::`, `super::`, `self::` or a child module (in `use` items and in code) is resolved to
//! the module file it lands in, and the graph of those edges between files must be acyclic.
//! A file's own inline modules (`mod tests`) count as the file. The same check runs on
//! `lints/src`, where three `mod.rs` cycles are still known.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module path below the crate root: `["workspace", "discover"]`.
type ModPath = Vec<String>;

fn src_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn lints_src_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lints/src")
}

/// Every `.rs` file under `dir` with the module path it defines.
fn module_files(dir: &Path, prefix: &ModPath, out: &mut BTreeMap<ModPath, PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_stem()
            .and_then(|n| n.to_str())
            .expect("UTF-8 file name")
            .to_string();
        if path.is_dir() {
            let mut sub = prefix.clone();
            sub.push(name);
            module_files(&path, &sub, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut module = prefix.clone();
            // The crate roots and `mod.rs` define the directory's module.
            if !(name == "mod"
                || (prefix.is_empty() && ["lib", "main", "cargo_main"].contains(&name.as_str())))
            {
                module.push(name);
            }
            // Binaries are their own crates: only `lib.rs` is the library's root.
            if prefix.is_empty()
                && ["main", "cargo_main"].contains(&path.file_stem().unwrap().to_str().unwrap())
            {
                continue;
            }
            out.insert(module, path);
        }
    }
}

/// The paths one file names, as written (leading segments included).
#[derive(Default)]
struct Names {
    paths: Vec<Vec<String>>,
    /// Inline module nesting, so `super::` inside `mod tests` means the file itself.
    depth: usize,
    depths: Vec<usize>,
}

impl Names {
    fn push(&mut self, segments: Vec<String>) {
        self.paths.push(segments);
        self.depths.push(self.depth);
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut path = prefix.clone();
                if n.ident != "self" {
                    path.push(n.ident.to_string());
                }
                self.push(path);
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                if r.ident != "self" {
                    path.push(r.ident.to_string());
                }
                self.push(path);
            }
            syn::UseTree::Glob(_) => self.push(prefix.clone()),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }
}

impl Names {
    fn tokens(&mut self, tokens: &proc_macro2::TokenStream) {
        let mut flat = Vec::new();
        flatten(tokens.clone(), &mut flat);
        let mut i = 0;
        while i < flat.len() {
            if ["crate", "super", "self"].contains(&flat[i].as_str()) {
                let mut path = vec![flat[i].clone()];
                let mut j = i + 1;
                while j + 1 < flat.len() && flat[j] == "::" && is_ident(&flat[j + 1]) {
                    path.push(flat[j + 1].clone());
                    j += 2;
                }
                if path.len() > 1 {
                    self.push(path);
                }
                i = j;
            } else {
                i += 1;
            }
        }
    }
}

/// Identifiers and `::` of a token stream, groups opened, other tokens as `.`.
fn flatten(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
    let mut colons = 0;
    for tree in tokens {
        match tree {
            proc_macro2::TokenTree::Punct(p) if p.as_char() == ':' => {
                colons += 1;
                if colons == 2 {
                    out.push("::".to_string());
                    colons = 0;
                }
                continue;
            }
            proc_macro2::TokenTree::Ident(ident) => out.push(ident.to_string()),
            proc_macro2::TokenTree::Group(g) => {
                out.push(".".to_string());
                flatten(g.stream(), out);
                out.push(".".to_string());
            }
            _ => out.push(".".to_string()),
        }
        colons = 0;
    }
}

fn is_ident(token: &str) -> bool {
    token.chars().all(|c| c.is_alphanumeric() || c == '_')
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if item.content.is_some() {
            self.depth += 1;
            syn::visit::visit_item_mod(self, item);
            self.depth -= 1;
        }
    }

    // Macro arguments and attribute values are tokens to syn: paths in them are found by
    // their `crate ::` / `super ::` / `self ::` prefix.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(&mac.tokens);
        syn::visit::visit_macro(self, mac);
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        if let syn::Meta::List(list) = &attr.meta {
            self.tokens(&list.tokens);
        }
        syn::visit::visit_attribute(self, attr);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 {
            self.push(segments);
        }
        syn::visit::visit_path(self, path);
    }
}

/// The module file `path` (named in `from`, `depth` inline modules deep) lands in, if it names
/// one of the crate's modules.
fn resolve(
    from: &ModPath,
    depth: usize,
    path: &[String],
    modules: &BTreeMap<ModPath, PathBuf>,
) -> Option<ModPath> {
    let (mut base, rest): (ModPath, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("self") => (from.clone(), &path[1..]),
        Some("super") => {
            let mut base = from.clone();
            let mut rest = path;
            let mut inline = depth;
            while rest.first().is_some_and(|s| s == "super") {
                if inline > 0 {
                    inline -= 1;
                } else {
                    base.pop()?;
                }
                rest = &rest[1..];
            }
            (base, rest)
        }
        // A child module of this file, named without `self::`.
        Some(first) => {
            let mut child = from.clone();
            child.push(first.to_string());
            if !modules.contains_key(&child) {
                return None;
            }
            (from.clone(), path)
        }
        None => return None,
    };
    let mut found = modules.contains_key(&base).then(|| base.clone());
    for segment in rest {
        base.push(segment.clone());
        if modules.contains_key(&base) {
            found = Some(base.clone());
        } else {
            break;
        }
    }
    found
}

/// The module graph of `src/`: each module file and the module files it names.
fn graph() -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    graph_of(&src_dir())
}

fn graph_of(dir: &Path) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut modules = BTreeMap::new();
    module_files(dir, &Vec::new(), &mut modules);
    let mut edges = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).expect("source file");
        let ast = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", file.display()));
        let mut names = Names::default();
        names.visit_file(&ast);
        let targets: BTreeSet<ModPath> = names
            .paths
            .iter()
            .zip(&names.depths)
            .filter_map(|(path, depth)| resolve(module, *depth, path, &modules))
            .filter(|target| target != module)
            .collect();
        edges.insert(module.clone(), targets);
    }
    edges
}

/// A cycle of the graph, if there is one (depth-first search, colouring nodes).
fn find_cycle(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Option<Vec<ModPath>> {
    fn visit(
        node: &ModPath,
        edges: &BTreeMap<ModPath, BTreeSet<ModPath>>,
        done: &mut BTreeSet<ModPath>,
        stack: &mut Vec<ModPath>,
    ) -> Option<Vec<ModPath>> {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.clone());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, done, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(node.clone());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|node| visit(node, edges, &mut done, &mut Vec::new()))
}

fn show(module: &ModPath) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.join("::")
    }
}

#[test]
fn src_has_no_import_cycles() {
    let edges = graph();
    assert!(
        edges.len() > 30,
        "the scan found the modules: {}",
        edges.len()
    );
    if let Some(cycle) = find_cycle(&edges) {
        let shown: Vec<String> = cycle.iter().map(show).collect();
        panic!("import cycle in src/: {}", shown.join(" -> "));
    }
    assert!(cycles(&edges).is_empty());
}

#[test]
fn the_checker_sees_the_edges_it_must() {
    let edges = graph();
    let session = edges
        .get(&vec!["session".to_string()])
        .expect("src/session.rs");
    assert!(
        session.contains(&vec!["engine".to_string()]),
        "session uses the engine: {session:?}"
    );
    let modules: BTreeMap<ModPath, PathBuf> =
        edges.keys().map(|k| (k.clone(), PathBuf::new())).collect();
    let cycle = BTreeMap::from([
        (
            vec!["a".to_string()],
            BTreeSet::from([vec!["b".to_string()]]),
        ),
        (
            vec!["b".to_string()],
            BTreeSet::from([vec!["a".to_string()]]),
        ),
    ]);
    assert!(find_cycle(&cycle).is_some());
    // A path inside an attribute's tokens: clap's `default_value = crate::baseline::…`.
    assert!(
        edges[&vec!["cli".to_string()]].contains(&vec!["baseline".to_string()]),
        "{:?}",
        edges[&vec!["cli".to_string()]]
    );
    let from = vec!["lsp".to_string(), "lint".to_string()];
    let super_path = [
        "super".to_string(),
        "document".to_string(),
        "Document".to_string(),
    ];
    assert_eq!(
        resolve(&from, 0, &super_path, &modules),
        Some(vec!["lsp".to_string(), "document".to_string()])
    );
    assert_eq!(
        resolve(&from, 1, &super_path[..1], &modules),
        Some(from.clone())
    );
}

/// The strongly connected components of more than one module: every set of modules that import
/// each other round a cycle, each sorted, in module order.
fn cycles(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    let reach = |from: &ModPath| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for m in edges.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    todo.push(m.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&ModPath, BTreeSet<ModPath>> =
        edges.keys().map(|n| (n, reach(n))).collect();
    let mut placed = BTreeSet::new();
    let mut out = Vec::new();
    for n in edges.keys() {
        if placed.contains(n) || !reaches[n].contains(n) {
            continue;
        }
        let component: Vec<ModPath> = edges
            .keys()
            .filter(|m| reaches[n].contains(*m) && reaches[*m].contains(n))
            .cloned()
            .collect();
        placed.extend(component.iter().cloned());
        out.push(component);
    }
    out
}

/// The cycles lints/src still has, each between a directory's `mod.rs` and the files of that
/// directory: shared types in `mod.rs` that the children use while `mod.rs` uses the children.
/// A cycle outside this list is a regression.
const LINTS_KNOWN_CYCLES: [&[&str]; 3] = [
    // `Walker` is defined in walk/mod.rs and extended by its files.
    &[
        "model::walk",
        "model::walk::calls",
        "model::walk::failure",
        "model::walk::returns",
    ],
    &["resolve", "resolve::macros"],
    // The `Dialect` trait and shared types in sdk/mod.rs, which lists each SDK's file.
    &[
        "sdk",
        "sdk::content",
        "sdk::jsonrpc",
        "sdk::kodegen",
        "sdk::mcp_attr",
        "sdk::pmcp",
        "sdk::rmcp",
        "sdk::rust_mcp_sdk",
        "sdk::table",
        "sdk::tower_mcp",
        "sdk::turbomcp",
        "sdk::ultrafast",
    ],
];

#[test]
fn lints_src_has_no_import_cycles_but_the_known_mod_rs_ones() {
    let edges = graph_of(&lints_src_dir());
    assert!(
        edges.len() > 40,
        "the scan found the modules: {}",
        edges.len()
    );
    // The scan sees the edges the layering is about.
    let of = |m: &str| &edges[&m.split("::").map(str::to_string).collect::<ModPath>()];
    assert!(of("registry").contains(&vec!["lints".to_string()]));
    assert!(of("lints::tool_failure_as_protocol_error").contains(&vec!["context".to_string()]));
    assert!(of("model::callgraph").contains(&vec!["model".to_string(), "summary".to_string()]));
    let found: Vec<Vec<String>> = cycles(&edges)
        .iter()
        .map(|c| c.iter().map(show).collect())
        .collect();
    let known: Vec<Vec<String>> = LINTS_KNOWN_CYCLES
        .iter()
        .map(|c| c.iter().map(|m| m.to_string()).collect())
        .collect();
    assert_eq!(found, known, "import cycles in lints/src");
}
