//! Linting for the editor: the crate a document belongs to, found and read the way `mcp-lint
//! check` does (discovery, Cargo.toml, configuration), with the in-memory text of every open
//! document of that crate in place of what is on disk. No LSP types here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lints::{CrateInput, FileRole, SourceInput};

use crate::config;
use crate::discover::{self, Exclude};
use crate::manifest::Manifests;

/// The unit the analysis runs on: a package (by its root directory), or a `.rs` file outside
/// any package, linted on its own.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CrateKey {
    Package(PathBuf),
    File(PathBuf),
}

impl CrateKey {
    /// The crate `path` (absolute, normalised) belongs to.
    pub fn of(path: &Path, manifests: &mut Manifests) -> CrateKey {
        match discover::member_of(path, manifests) {
            Some((root, _)) => CrateKey::Package(root),
            None => CrateKey::File(path.to_path_buf()),
        }
    }

    /// Where the configuration lookup starts.
    fn start(&self) -> &Path {
        match self {
            CrateKey::Package(root) => root,
            CrateKey::File(path) => path,
        }
    }

    /// A directory to show paths relative to when no workspace folder contains the crate.
    pub fn dir(&self) -> &Path {
        match self {
            CrateKey::Package(root) => root,
            CrateKey::File(path) => path.parent().unwrap_or(path),
        }
    }
}

/// What linting one crate produced.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Findings for each open document that was linted (an excluded one has no entry).
    pub files: BTreeMap<PathBuf, Vec<lints::Diagnostic>>,
    /// Problems the user should hear about (unreadable files, a broken Cargo.toml); the crate
    /// was linted anyway.
    pub problems: Vec<String>,
}

/// Lint the crate `key` with `open` (the open documents of that crate: absolute path → text)
/// substituted for the files on disk. Paths in messages are relative to `cwd`. `Err` is a
/// configuration error: like `mcp-lint check`, nothing is linted then.
pub fn lint_crate(
    key: &CrateKey,
    open: &BTreeMap<PathBuf, String>,
    cwd: &Path,
) -> Result<Outcome, String> {
    let mut manifests = Manifests::new(cwd);
    let config = config::load(None, cwd, &[key.start().to_path_buf()], &mut manifests)?;
    let options = config::options(config.as_ref(), &default_check_args()?)?;
    let exclude = config::exclude(config.as_ref(), cwd)?;

    let mut outcome = Outcome::default();
    let files = match key {
        CrateKey::Package(root) => {
            package_files(root, open, cwd, &exclude, &mut manifests, &mut outcome)
        }
        CrateKey::File(path) if open.contains_key(path) && !excluded(&exclude, path) => {
            vec![(path.clone(), discover::role_from_components(path))]
        }
        CrateKey::File(_) => Vec::new(),
    };
    let mut inputs = Vec::with_capacity(files.len());
    for (path, role) in files {
        let (contents, report) = match open.get(&path) {
            Some(text) => (text.as_bytes().to_vec(), true),
            None => match std::fs::read(&path) {
                Ok(bytes) => (bytes, false),
                Err(e) => {
                    let shown = discover::relative_to(&path, cwd);
                    outcome
                        .problems
                        .push(format!("could not read {}: {e}", shown.display()));
                    continue;
                }
            },
        };
        inputs.push(SourceInput {
            path,
            contents,
            role,
            report,
        });
    }
    let input = CrateInput {
        root: match key {
            CrateKey::Package(root) => Some(root.clone()),
            CrateKey::File(_) => None,
        },
        manifest: match key {
            CrateKey::Package(root) => manifests.facts(root),
            CrateKey::File(_) => None,
        },
        files: inputs,
    };
    outcome.problems.extend(manifests.take_errors());
    if input.files.iter().any(|f| f.report) {
        for report in lints::analyze(&input, &options) {
            outcome.files.insert(report.path, report.diagnostics);
        }
    }
    Ok(outcome)
}

/// Every file of the package at `root` (what `check` reads for context: its member directories
/// and `build.rs`), plus open documents of the package that are not on disk yet.
fn package_files(
    root: &Path,
    open: &BTreeMap<PathBuf, String>,
    cwd: &Path,
    exclude: &Exclude,
    manifests: &mut Manifests,
    outcome: &mut Outcome,
) -> Vec<(PathBuf, FileRole)> {
    let mut paths: Vec<PathBuf> = discover::MEMBER_DIRS
        .iter()
        .map(|d| root.join(d))
        .filter(|d| d.is_dir())
        .collect();
    let build_rs = root.join("build.rs");
    if build_rs.is_file() {
        paths.push(build_rs);
    }
    let discovery = discover::discover(&paths, cwd, exclude, true, manifests);
    outcome.problems.extend(discovery.errors);
    let mut files: Vec<(PathBuf, FileRole)> = discovery
        .crates
        .into_iter()
        .filter(|c| c.package_root.as_deref() == Some(root))
        .flat_map(|c| c.files)
        .map(|f| (f.path, f.role))
        .collect();
    for path in open.keys() {
        if files.iter().any(|(p, _)| p == path) || path.exists() || excluded(exclude, path) {
            continue;
        }
        if let Some((r, role)) = discover::member_of(path, manifests) {
            if r == root {
                files.push((path.clone(), role));
            }
        }
    }
    files
}

/// Is `path`, or a directory above it, excluded by the configuration?
fn excluded(exclude: &Exclude, path: &Path) -> bool {
    path.ancestors().any(|p| exclude.matches(p))
}

/// `check`'s defaults for everything the command line could set: the server takes its settings
/// from the configuration files only.
fn default_check_args() -> Result<crate::cli::CheckArgs, String> {
    match crate::cli::parse(["mcp-lint", "check"]) {
        Ok(crate::cli::Cli {
            command: crate::cli::Command::Check(args),
        }) => Ok(args),
        _ => Err("internal error: the default `check` arguments do not parse".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::write;

    const BAD: &str = "use rmcp::{ErrorData as McpError, model::*, tool, tool_router};\n\
        #[tool_router]\nimpl S {\n    #[tool(description = \"Read\")]\n    \
        async fn read(&self) -> Result<CallToolResult, McpError> {\n        \
        let t = std::fs::read_to_string(\"x\").map_err(|e| McpError::internal_error(e.to_string(), None))?;\n        \
        Ok(CallToolResult::success(vec![ContentBlock::text(t)]))\n    }\n}\n";

    fn project() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        write(
            &root,
            "Cargo.toml",
            "[package]\nname = \"srv\"\nversion = \"0.1.0\"\n[dependencies]\nrmcp = \"1.8\"\n",
        );
        write(&root, "src/main.rs", "mod tools;\nfn main() {}\n");
        write(&root, "src/tools.rs", BAD);
        (tmp, root)
    }

    fn names(outcome: &Outcome, path: &Path) -> Vec<&'static str> {
        outcome.files[path].iter().map(|d| d.lint.name).collect()
    }

    #[test]
    fn open_documents_replace_the_disk_and_only_they_are_reported() {
        let (_tmp, root) = project();
        let tools = root.join("src/tools.rs");
        let key = CrateKey::of(&tools, &mut Manifests::new(&root));
        assert_eq!(key, CrateKey::Package(root.clone()));

        let open = BTreeMap::from([(tools.clone(), BAD.to_string())]);
        let outcome = lint_crate(&key, &open, &root).expect("config is fine");
        assert_eq!(
            outcome.files.keys().collect::<Vec<_>>(),
            vec![&tools],
            "main.rs is context only"
        );
        assert_eq!(names(&outcome, &tools), ["tool_failure_as_protocol_error"]);

        // The in-memory text wins over the file on disk.
        let fixed = BAD.replace(
            "let t = std::fs::read_to_string(\"x\").map_err(|e| McpError::internal_error(e.to_string(), None))?;",
            "let t = \"fixed\".to_string();",
        );
        let open = BTreeMap::from([(tools.clone(), fixed)]);
        let outcome = lint_crate(&key, &open, &root).expect("config is fine");
        assert_eq!(names(&outcome, &tools), Vec::<&str>::new());
    }

    #[test]
    fn unsaved_new_files_join_their_package_and_excludes_and_config_errors_apply() {
        let (_tmp, root) = project();
        let new = root.join("src/new.rs");
        let key = CrateKey::of(&new, &mut Manifests::new(&root));
        assert_eq!(key, CrateKey::Package(root.clone()));
        let open = BTreeMap::from([(new.clone(), BAD.to_string())]);
        let outcome = lint_crate(&key, &open, &root).expect("config is fine");
        assert_eq!(names(&outcome, &new), ["tool_failure_as_protocol_error"]);

        write(&root, "mcp-lint.toml", "exclude = [\"new.rs\"]\n");
        let outcome = lint_crate(&key, &open, &root).expect("config is fine");
        assert!(outcome.files.is_empty(), "{:?}", outcome.files);

        write(&root, "mcp-lint.toml", "[lints]\nMCP001 = \"alow\"\n");
        let error = lint_crate(&key, &open, &root).unwrap_err();
        assert!(
            error.contains("mcp-lint.toml") && error.contains("did you mean `allow`"),
            "{error}"
        );
    }

    #[test]
    fn files_outside_packages_are_their_own_crate_and_broken_manifests_are_problems() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let loose = root.join("loose.rs");
        let key = CrateKey::of(&loose, &mut Manifests::new(&root));
        assert_eq!(key, CrateKey::File(loose.clone()));
        let open = BTreeMap::from([(loose.clone(), "fn main() {".to_string())]);
        let outcome = lint_crate(&key, &open, &root).expect("no config");
        assert_eq!(names(&outcome, &loose), ["parse_error"]);

        write(&root, "p/Cargo.toml", "[package\n");
        let lib = root.join("p/src/lib.rs");
        let key = CrateKey::of(&lib, &mut Manifests::new(&root));
        let open = BTreeMap::from([(lib.clone(), "fn f() {}".to_string())]);
        let outcome = lint_crate(&key, &open, &root).expect("no config");
        assert_eq!(names(&outcome, &lib), Vec::<&str>::new());
        assert_eq!(outcome.problems.len(), 1, "{:?}", outcome.problems);
        assert!(outcome.problems[0].contains("p/Cargo.toml"));
    }
}
