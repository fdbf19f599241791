//! The files of a target whose root lies outside `src/`, `tests/`, `benches/` and `examples/`
//! (`[lib] path = "lib.rs"`, `[[bin]] path = "cli/main.rs"`): the root and every file its
//! `mod name;` declarations reach, found by parsing (never compiling) them.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use syn::{Item, ItemMod};

/// How deep `mod` declarations are followed; real crates stay far below this.
const MAX_DEPTH: usize = 64;

/// `root` and the files its module tree declares, in discovery order. Files that do not exist
/// or do not parse end the walk there (the analysis reports a file that does not parse).
pub fn module_files(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    visit_file(root, true, 0, &mut seen, &mut found);
    found
}

fn visit_file(
    file: &Path,
    owns_dir: bool,
    depth: usize,
    seen: &mut HashSet<PathBuf>,
    found: &mut Vec<PathBuf>,
) {
    if depth > MAX_DEPTH || !file.is_file() || !seen.insert(file.to_path_buf()) {
        return;
    }
    found.push(file.to_path_buf());
    let Ok(text) = crate::read::read_text(file, crate::read::MAX_SOURCE_BYTES) else {
        return;
    };
    let Ok(parsed) = syn::parse_file(&text) else {
        return;
    };
    let Some(parent) = file.parent() else {
        return;
    };
    // `lib.rs`, `main.rs`, `mod.rs` and target roots own their directory; `foo.rs` owns `foo/`.
    let dir = if owns_dir || file.file_name().is_some_and(|n| n == "mod.rs") {
        parent.to_path_buf()
    } else {
        match file.file_stem() {
            Some(stem) => parent.join(stem),
            None => parent.to_path_buf(),
        }
    };
    visit_items(&parsed.items, &dir, parent, depth, seen, found);
}

fn visit_items(
    items: &[Item],
    dir: &Path,
    file_dir: &Path,
    depth: usize,
    seen: &mut HashSet<PathBuf>,
    found: &mut Vec<PathBuf>,
) {
    for item in items {
        let Item::Mod(m) = item else { continue };
        let name = m.ident.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name);
        match &m.content {
            // `mod a { mod b; }` declares `a/b.rs`.
            Some((_, inner)) => {
                let sub = path_attr(m).map_or_else(|| dir.join(name), |p| dir.join(p));
                visit_items(inner, &sub, file_dir, depth + 1, seen, found);
            }
            None => {
                if let Some(p) = path_attr(m) {
                    // `#[path]` is relative to the declaring file's directory.
                    visit_file(&file_dir.join(p), true, depth + 1, seen, found);
                    continue;
                }
                let flat = dir.join(format!("{name}.rs"));
                if flat.is_file() {
                    visit_file(&flat, false, depth + 1, seen, found);
                } else {
                    visit_file(&dir.join(name).join("mod.rs"), true, depth + 1, seen, found);
                }
            }
        }
    }
}

fn path_attr(m: &ItemMod) -> Option<String> {
    m.attrs.iter().find_map(|a| {
        let nv = a.meta.require_name_value().ok()?;
        if !nv.path.is_ident("path") {
            return None;
        }
        match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::write;

    #[test]
    fn follows_mod_declarations_from_a_nonstandard_root() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        write(
            root,
            "lib.rs",
            "mod a;\nmod b;\nmod inline { mod c; }\n#[path = \"gen/x.rs\"] mod x;\nmod missing;\n",
        );
        write(root, "a.rs", "mod nested;\n");
        write(root, "a/nested.rs", "");
        write(root, "b/mod.rs", "mod d;\n");
        write(root, "b/d.rs", "mod e;\n");
        write(root, "b/d/e.rs", "mod lib;\n");
        write(root, "inline/c.rs", "");
        write(root, "gen/x.rs", "fn broken( {\n");
        write(root, "unrelated.rs", "");
        let rel: Vec<String> = module_files(&root.join("lib.rs"))
            .iter()
            .map(|p| {
                p.strip_prefix(root)
                    .expect("under root")
                    .display()
                    .to_string()
            })
            .collect();
        assert_eq!(
            rel,
            [
                "lib.rs",
                "a.rs",
                "a/nested.rs",
                "b/mod.rs",
                "b/d.rs",
                "b/d/e.rs",
                "inline/c.rs",
                "gen/x.rs"
            ]
        );
    }
}
