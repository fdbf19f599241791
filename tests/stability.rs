//! Findings do not move when unrelated code is added: for every crate of the labelled corpus
//! (tests/eval), a new module and an `examples/` file that define fns, methods, error types and
//! `From` impls with the same names as the crate's own change no finding of the crate's files.
//! A name matcher fails this (the new same-named helpers build -32603 errors and would be
//! merged into the tools' call graph); resolution by path, import and receiver type passes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use lints::{CrateInput, Dependency, FileRole, Manifest, Options, SourceInput};

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/eval");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/eval")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.expect("entry").path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn manifest(dir: &Path) -> Manifest {
    let table: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml"))
        .expect("Cargo.toml")
        .parse()
        .expect("toml");
    let dependencies = table
        .get("dependencies")
        .and_then(toml::Value::as_table)
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            let package = v.get("package").and_then(toml::Value::as_str);
            Dependency {
                name: package.unwrap_or(k).to_string(),
                version: v
                    .as_str()
                    .or_else(|| v.get("version").and_then(toml::Value::as_str))
                    .map(str::to_string),
                rename: package.map(|_| k.to_string()),
                path: None,
            }
        })
        .collect();
    Manifest {
        package_name: table
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(toml::Value::as_str)
            .map(str::to_string),
        package_version: None,
        published: false,
        dependencies,
        locked: None,
        targets: Default::default(),
    }
}

/// Names of fns, methods and types the crate defines, to shadow.
fn names(files: &[SourceInput]) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut fns, mut types) = (BTreeSet::new(), BTreeSet::new());
    for f in files {
        let Ok(text) = std::str::from_utf8(&f.contents) else {
            continue;
        };
        let Ok(file) = syn::parse_file(text) else {
            continue;
        };
        for item in &file.items {
            match item {
                syn::Item::Fn(x) => {
                    fns.insert(x.sig.ident.to_string());
                }
                syn::Item::Struct(x) => {
                    types.insert(x.ident.to_string());
                }
                syn::Item::Enum(x) => {
                    types.insert(x.ident.to_string());
                }
                syn::Item::Impl(imp) => {
                    for ii in &imp.items {
                        if let syn::ImplItem::Fn(f) = ii {
                            fns.insert(f.sig.ident.to_string());
                        }
                    }
                }
                _ => {}
            }
        }
    }
    fns.retain(|n| n != "main" && n != "from" && n != "new");
    (fns, types)
}

/// Same-named items that build protocol errors (in the crate's own SDK: a file naming another
/// SDK would make it a server of that SDK too), called from a fn no handler reaches.
fn shadow_source(fns: &BTreeSet<String>, types: &BTreeSet<String>, rmcp: bool) -> String {
    let (ret, err) = if rmcp {
        (
            "Result<(), rmcp::ErrorData>",
            "Err(rmcp::ErrorData::internal_error(e.to_string(), None))",
        )
    } else {
        (
            "serde_json::Value",
            "serde_json::json!({\"error\": {\"code\": -32603, \"message\": e.to_string()}})",
        )
    };
    let mut s = String::from("#![allow(dead_code)]\n");
    for t in types {
        s.push_str(&format!(
            "pub struct {t}(pub String);\nimpl {t} {{\n    pub fn describe(&self) -> String {{ self.0.clone() }}\n}}\n"
        ));
    }
    for f in fns {
        s.push_str(&format!(
            "pub fn {f}(e: impl std::fmt::Display) -> {ret} {{\n    {err}\n}}\n"
        ));
    }
    s.push_str("pub fn startup() {\n");
    for f in fns {
        s.push_str(&format!("    let _ = {f}(\"x\");\n"));
    }
    s.push_str("}\n");
    s
}

fn findings(input: &CrateInput) -> Vec<String> {
    let mut out: Vec<String> = lints::analyze(input, &Options::default())
        .into_iter()
        .flat_map(|r| {
            let path = r.path.display().to_string();
            r.diagnostics.into_iter().map(move |d| {
                format!(
                    "{path}:{}:{} {} {}",
                    d.span.start_line, d.span.start_column, d.lint.name, d.message
                )
            })
        })
        .collect();
    out.sort();
    out
}

#[test]
fn same_named_code_in_a_new_module_or_example_changes_no_finding() {
    let mut checked = 0;
    for dir in corpus() {
        let mut paths = Vec::new();
        rust_files(&dir.join("src"), &mut paths);
        let files: Vec<SourceInput> = paths
            .iter()
            .map(|p| SourceInput {
                path: p.strip_prefix(&dir).expect("under the crate").to_path_buf(),
                contents: std::fs::read(p).expect("readable"),
                role: FileRole::Source,
                report: true,
                named: false,
                package_path: None,
            })
            .collect();
        let root_file = ["src/lib.rs", "src/main.rs"]
            .iter()
            .find(|r| files.iter().any(|f| f.path == Path::new(r)))
            .copied();
        let Some(root_file) = root_file else { continue };
        let input = CrateInput {
            root: Some(dir.clone()),
            manifest: Some(manifest(&dir)),
            files: files.clone(),
        };
        let before = findings(&input);

        let (fns, types) = names(&files);
        let rmcp = manifest(&dir).dependencies.iter().any(|d| d.name == "rmcp");
        let shadow = shadow_source(&fns, &types, rmcp);
        let mut grown = files;
        // `mod shadow;` appended to the crate root: no existing line moves.
        for f in &mut grown {
            if f.path == Path::new(root_file) {
                f.contents.extend_from_slice(b"\nmod shadow;\n");
            }
        }
        let added = |path: &str, contents: &str| SourceInput {
            path: PathBuf::from(path),
            contents: contents.as_bytes().to_vec(),
            role: FileRole::Source,
            report: false,
            named: false,
            package_path: None,
        };
        grown.push(added("src/shadow.rs", &shadow));
        grown.push(added(
            "examples/shadow.rs",
            &format!("{shadow}\nfn main() {{ startup(); }}\n"),
        ));
        let after = findings(&CrateInput {
            root: Some(dir.clone()),
            manifest: Some(manifest(&dir)),
            files: grown,
        });
        assert_eq!(
            before,
            after,
            "{}: findings moved when same-named code was added",
            dir.display()
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} corpus crates were checked");
}
