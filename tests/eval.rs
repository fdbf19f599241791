//! Evaluation on a hand-labelled corpus: realistic MCP servers under `tests/eval/<name>/` (rmcp,
//! the other SDKs, and hand-rolled JSON-RPC over `serde_json`), each a standalone crate (its own
//! `[workspace]`) with an `expected.txt` listing every finding a reader of the rules expects,
//! labelled without looking at mcp-lint's output.
//!
//! Each crate is analysed in-process the way the CLI does it (manifest facts from its Cargo.toml,
//! files under `src/` and `examples/` as source and under `tests/` as test code, default `Options`), and the
//! findings are compared with the labels as (path, start line, lint name) multisets. The test
//! prints a per-server table of expected, found, true and false positives, false negatives,
//! precision and recall, lists every mismatch with its location and message, and fails on any
//! mismatch.
//!
//! The `expected.txt` grammar is in `eval_support`.
//! `EVAL_SERVER=substring` runs only the matching servers.

mod eval_support;

use std::path::{Path, PathBuf};

use eval_support::{assert_labels_in_bounds, expected, mismatches, score, table, Key, Score};
use lints::{CrateInput, Dependency, FileRole, Manifest, Options, SourceInput};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/eval")
}

/// Every corpus crate: a directory of `tests/eval` holding a Cargo.toml.
fn servers() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/eval is readable")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn dependency(key: &str, spec: &toml::Value) -> Dependency {
    match spec {
        toml::Value::String(version) => Dependency {
            name: key.to_string(),
            version: Some(version.clone()),
            rename: None,
            path: None,
        },
        table => {
            let package = table.get("package").and_then(toml::Value::as_str);
            Dependency {
                name: package.unwrap_or(key).to_string(),
                version: table
                    .get("version")
                    .and_then(toml::Value::as_str)
                    .map(str::to_string),
                rename: package.map(|_| key.to_string()),
                path: None,
            }
        }
    }
}

/// Package name and dependencies (all three kinds) of a corpus crate's Cargo.toml.
fn manifest(dir: &Path) -> Manifest {
    let path = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).expect("Cargo.toml is readable");
    let table: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let package_field = |field: &str| {
        table
            .get("package")
            .and_then(|p| p.get(field))
            .and_then(toml::Value::as_str)
            .map(str::to_string)
    };
    let dependencies = ["dependencies", "dev-dependencies", "build-dependencies"]
        .iter()
        .filter_map(|kind| table.get(*kind).and_then(toml::Value::as_table))
        .flat_map(|deps| deps.iter().map(|(k, v)| dependency(k, v)))
        .collect();
    Manifest {
        package_name: package_field("name"),
        package_version: package_field("version"),
        published: false,
        locked: None,
        targets: Default::default(),
        dependencies,
    }
}

/// `.rs` files under `dir`, recursively, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The crate as the CLI would hand it to the analysis; paths are relative to the crate root.
fn crate_input(dir: &Path) -> CrateInput {
    let mut files = Vec::new();
    for (sub, role) in [
        ("src", FileRole::Source),
        ("examples", FileRole::Source),
        ("tests", FileRole::Test),
    ] {
        let mut paths = Vec::new();
        rust_files(&dir.join(sub), &mut paths);
        files.extend(paths.into_iter().map(|path| {
            SourceInput {
                contents: std::fs::read(&path).expect("source file is readable"),
                path: path
                    .strip_prefix(dir)
                    .expect("file is under its crate")
                    .to_path_buf(),
                role,
                report: true,
                named: false,
                package_path: None,
            }
        }));
    }
    CrateInput {
        root: Some(dir.to_path_buf()),
        manifest: Some(manifest(dir)),
        files,
    }
}

/// Findings of the analysis, each with its message.
fn found(dir: &Path) -> Vec<(Key, String)> {
    let reports = lints::analyze(&crate_input(dir), &Options::default());
    let mut out = Vec::new();
    for report in reports {
        let file = report.path.to_string_lossy().replace('\\', "/");
        for d in report.diagnostics {
            out.push((
                (file.clone(), d.span.start_line, d.lint.name.to_string()),
                d.message,
            ));
        }
    }
    out
}

#[test]
fn corpus_findings_match_the_labels() {
    let filter = std::env::var("EVAL_SERVER").ok();
    let mut rows: Vec<(String, Score)> = Vec::new();
    let mut details = String::new();
    let mut total = Score::default();
    for dir in servers() {
        let name = dir
            .file_name()
            .expect("corpus directory has a name")
            .to_string_lossy()
            .into_owned();
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let s = score(expected(&dir), found(&dir));
        mismatches(&mut details, &name, &s);
        total.add(&s);
        total
            .false_positives
            .extend(s.false_positives.iter().cloned());
        total
            .false_negatives
            .extend(s.false_negatives.iter().cloned());
        rows.push((name, s));
    }
    assert!(
        !rows.is_empty(),
        "no corpus server matched EVAL_SERVER={filter:?}"
    );
    let table = table(
        rows.iter()
            .map(|(name, s)| (name.as_str(), s))
            .chain([("TOTAL", &total)]),
    );
    println!("{table}");
    if !details.is_empty() {
        println!("mismatches:\n{details}");
    }
    assert!(
        total.false_positives.is_empty() && total.false_negatives.is_empty(),
        "mcp-lint disagrees with the hand labels: {} false positives, {} false negatives\n{table}\n{details}",
        total.false_positives.len(),
        total.false_negatives.len()
    );
}

/// The MCP SDKs a corpus server may be written for; a server without one is hand-rolled.
const SDKS: [&str; 6] = [
    "rmcp",
    "rust-mcp-sdk",
    "pmcp",
    "turbomcp",
    "mcp-attr",
    "ultrafast-mcp",
];

#[test]
fn every_server_has_labels_and_a_versioned_sdk_or_serde_json() {
    let all = servers();
    assert!(all.len() >= 8, "the corpus has {} servers", all.len());
    for dir in all {
        assert!(
            dir.join("expected.txt").is_file(),
            "{} has no expected.txt",
            dir.display()
        );
        let m = manifest(&dir);
        let sdks: Vec<_> = m
            .dependencies
            .iter()
            .filter(|d| SDKS.contains(&d.name.as_str()))
            .collect();
        if sdks.is_empty() {
            assert!(
                m.dependencies
                    .iter()
                    .any(|d| d.name == "serde_json" && d.version.is_some()),
                "{} has no MCP SDK and no versioned serde_json to hand-roll JSON-RPC with",
                dir.display()
            );
        } else {
            assert!(
                sdks.iter().all(|d| d.version.is_some()),
                "{} depends on an MCP SDK without a version",
                dir.display()
            );
        }
        assert_labels_in_bounds(&dir, &expected(&dir));
    }
}
