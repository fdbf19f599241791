//! Which files to lint, and which crate each belongs to.
//!
//! The nearest ancestor directory whose Cargo.toml has a `[package]` section is a file's package
//! root; files under its `src/`, `tests/`, `benches/`, `examples/` and its `build.rs` form one
//! crate (the whole crate is read for context, only the files asked about are reported). Every
//! other `.rs` file (fixture directories and the like) is a crate of its own.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use lints::FileRole;

use crate::manifest::Manifests;

/// Directory names never descended into (at any depth below a given path).
const SKIPPED_DIRS: [&str; 4] = ["target", "vendor", "third_party", "node_modules"];

/// Package subdirectories whose files belong to the package's crate.
pub const MEMBER_DIRS: [&str; 4] = ["src", "tests", "benches", "examples"];

/// Config `exclude` globs, matched against paths relative to the config's directory (a pattern
/// without `/` also matches any file or directory name).
#[derive(Clone, Debug, Default)]
pub struct Exclude {
    base: PathBuf,
    full: GlobSet,
    names: GlobSet,
}

impl Exclude {
    pub fn new(base: &Path, patterns: &[String]) -> Result<Exclude, String> {
        let mut full = GlobSetBuilder::new();
        let mut names = GlobSetBuilder::new();
        for pattern in patterns {
            let trimmed = pattern.trim_end_matches('/');
            let trimmed = trimmed.strip_prefix("./").unwrap_or(trimmed);
            let glob = GlobBuilder::new(trimmed)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("invalid exclude pattern `{pattern}`: {e}"))?;
            if trimmed.contains('/') {
                full.add(glob);
            } else {
                names.add(glob);
            }
        }
        let build = |b: GlobSetBuilder| {
            b.build()
                .map_err(|e| format!("invalid exclude patterns: {e}"))
        };
        Ok(Exclude {
            base: base.to_path_buf(),
            full: build(full)?,
            names: build(names)?,
        })
    }

    /// Is `path` or one of its directories (up to the config's directory) excluded? This is
    /// the test for paths given on the command line with `--force-exclude`, which are not
    /// reached by a walk that prunes excluded directories.
    pub fn matches_path_or_parent(&self, path: &Path) -> bool {
        path.ancestors()
            .take_while(|p| p.starts_with(&self.base) && *p != self.base)
            .any(|p| self.matches(p))
    }

    /// Is `path` (absolute, normalised) excluded?
    pub fn matches(&self, path: &Path) -> bool {
        let Ok(rel) = path.strip_prefix(&self.base) else {
            return false;
        };
        if self.full.is_match(rel) {
            return true;
        }
        !self.names.is_empty() && rel.components().any(|c| self.names.is_match(c.as_os_str()))
    }
}

/// A file to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscoveredFile {
    /// Absolute and lexically normalised: what we read.
    pub path: PathBuf,
    /// What reports show: relative to the current directory when under it, else as given.
    pub display: PathBuf,
    pub role: FileRole,
    /// `false` for files read only for crate context.
    pub report: bool,
}

/// The files of one crate, sorted by display path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrateFiles {
    /// The package directory; `None` for a file linted on its own.
    pub package_root: Option<PathBuf>,
    pub files: Vec<DiscoveredFile>,
}

#[derive(Debug, Default)]
pub struct Discovery {
    /// Packages first (by root), then single files (by path).
    pub crates: Vec<CrateFiles>,
    /// One line per path that could not be walked (missing path, symlink loop, permission).
    pub errors: Vec<String>,
}

impl Discovery {
    /// Number of files that will be reported on.
    pub fn reported_files(&self) -> usize {
        self.crates
            .iter()
            .flat_map(|c| &c.files)
            .filter(|f| f.report)
            .count()
    }
}

/// Find and group the files under `paths` (relative ones are taken from `cwd`). Config excludes
/// apply to what is found below the given paths; with `force_exclude` they apply to the given
/// paths themselves too (ruff's `--force-exclude`, for pre-commit, which passes every file).
pub fn discover(
    paths: &[PathBuf],
    cwd: &Path,
    exclude: &Exclude,
    force_exclude: bool,
    manifests: &mut Manifests,
) -> Discovery {
    let mut walker = Walker::new(cwd, exclude);
    let mut asked: Vec<Found> = Vec::new();
    for given in paths {
        let abs = normalize(&cwd.join(given));
        if std::fs::symlink_metadata(&abs).is_err() {
            walker
                .errors
                .push(format!("path not found: {}", given.display()));
        } else if force_exclude && exclude.matches_path_or_parent(&abs) {
            continue;
        } else if abs.is_dir() {
            walker.walk(&abs, given, &mut asked);
        } else {
            let display = display_path(&abs, cwd, given, &abs);
            walker.add(abs, display, &mut asked);
        }
    }
    walker.group(asked, manifests)
}

/// A file found on disk, before grouping.
struct Found {
    path: PathBuf,
    display: PathBuf,
}

struct Walker<'a> {
    cwd: &'a Path,
    exclude: &'a Exclude,
    errors: Vec<String>,
    /// Canonical path → already found, so overlapping paths and symlinks read a file once.
    seen: HashMap<PathBuf, ()>,
}

impl<'a> Walker<'a> {
    fn new(cwd: &'a Path, exclude: &'a Exclude) -> Self {
        Walker {
            cwd,
            exclude,
            errors: Vec::new(),
            seen: HashMap::new(),
        }
    }

    fn add(&mut self, path: PathBuf, display: PathBuf, out: &mut Vec<Found>) {
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if self.seen.insert(key, ()).is_none() {
            out.push(Found { path, display });
        }
    }

    /// Every `.rs` file under `root`, skipping build output, hidden, vendored and excluded
    /// directories below it.
    fn walk(&mut self, root: &Path, given: &Path, out: &mut Vec<Found>) {
        let exclude = self.exclude;
        let entries = walkdir::WalkDir::new(root)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !(is_skipped(e) || exclude.matches(e.path())));
        for entry in entries {
            match entry {
                Ok(e)
                    if e.file_type().is_file()
                        && e.path().extension() == Some(OsStr::new("rs")) =>
                {
                    let path = e.path().to_path_buf();
                    let display = display_path(&path, self.cwd, given, root);
                    self.add(path, display, out);
                }
                Ok(_) => {}
                Err(e) => {
                    if let Some(message) = walk_error(&e, self.cwd) {
                        self.errors.push(message);
                    }
                }
            }
        }
    }

    /// Group the files asked about into crates, adding each package's other files as context.
    fn group(mut self, asked: Vec<Found>, manifests: &mut Manifests) -> Discovery {
        let mut packages: BTreeMap<PathBuf, Vec<DiscoveredFile>> = BTreeMap::new();
        let mut singles: Vec<CrateFiles> = Vec::new();
        for found in asked {
            match member_of(&found.path, manifests) {
                Some((root, role)) => packages.entry(root).or_default().push(DiscoveredFile {
                    path: found.path,
                    display: found.display,
                    role,
                    report: true,
                }),
                None => singles.push(CrateFiles {
                    package_root: None,
                    files: vec![DiscoveredFile {
                        role: role_from_components(&found.display),
                        path: found.path,
                        display: found.display,
                        report: true,
                    }],
                }),
            }
        }
        let mut crates = Vec::new();
        for (root, mut files) in packages {
            files.extend(self.package_files(&root, false, manifests));
            files.sort_by(|a, b| a.display.cmp(&b.display));
            crates.push(CrateFiles {
                package_root: Some(root),
                files,
            });
        }
        singles.sort_by(|a, b| a.files[0].display.cmp(&b.files[0].display));
        crates.extend(singles);
        self.finish(crates)
    }

    /// The package's files not found yet: `src/`, `tests/`, `benches/`, `examples/` and
    /// `build.rs`, without excluded files and nested packages.
    fn package_files(
        &mut self,
        root: &Path,
        report: bool,
        manifests: &mut Manifests,
    ) -> Vec<DiscoveredFile> {
        let mut found = Vec::new();
        for dir in MEMBER_DIRS {
            let dir = root.join(dir);
            if dir.is_dir() {
                self.walk(&dir, &dir, &mut found);
            }
        }
        let build_rs = root.join("build.rs");
        if build_rs.is_file() && !self.exclude.matches(&build_rs) {
            let display = display_path(&build_rs, self.cwd, &build_rs, &build_rs);
            self.add(build_rs, display, &mut found);
        }
        found
            .into_iter()
            .filter_map(|found| {
                // A nested package inside `src/` (or a fixture crate) is not part of this one.
                let (r, role) = member_of(&found.path, manifests)?;
                (r == root).then_some(DiscoveredFile {
                    path: found.path,
                    display: found.display,
                    role,
                    report,
                })
            })
            .collect()
    }

    fn finish(self, crates: Vec<CrateFiles>) -> Discovery {
        // A directory met again while collecting context must not be reported twice.
        let mut errors: Vec<String> = Vec::new();
        for e in self.errors {
            if !errors.contains(&e) {
                errors.push(e);
            }
        }
        Discovery { crates, errors }
    }
}

/// A cargo package to lint whole, with the target files that lie outside its standard
/// directories (`[lib] path = "lib.rs"` and the files its `mod` declarations reach).
#[derive(Clone, Debug)]
pub struct PackageSeed {
    pub root: PathBuf,
    pub extra_files: Vec<(PathBuf, FileRole)>,
}

/// Every file of each package, all reported (`cargo mcp-lint`). Config excludes apply.
pub fn discover_packages(
    seeds: &[PackageSeed],
    cwd: &Path,
    exclude: &Exclude,
    manifests: &mut Manifests,
) -> Discovery {
    let mut walker = Walker::new(cwd, exclude);
    let mut crates = Vec::new();
    for seed in seeds {
        let mut files = walker.package_files(&seed.root, true, manifests);
        for (path, role) in &seed.extra_files {
            let path = normalize(path);
            if exclude.matches_path_or_parent(&path) {
                continue;
            }
            let display = display_path(&path, cwd, &path, &path);
            let mut added = Vec::new();
            walker.add(path, display, &mut added);
            files.extend(added.into_iter().map(|f| DiscoveredFile {
                path: f.path,
                display: f.display,
                role: *role,
                report: true,
            }));
        }
        files.sort_by(|a, b| a.display.cmp(&b.display));
        crates.push(CrateFiles {
            package_root: Some(seed.root.clone()),
            files,
        });
    }
    walker.finish(crates)
}

/// The package `path` belongs to, with its role there, if it is one of the package's files.
pub fn member_of(path: &Path, manifests: &mut Manifests) -> Option<(PathBuf, FileRole)> {
    let root = manifests.package_root(path)?;
    let rel = path.strip_prefix(&root).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let is_member = MEMBER_DIRS.contains(&first) && rel.components().count() > 1
        || rel == Path::new("build.rs");
    if !is_member {
        return None;
    }
    let role = if first == "tests" || first == "benches" {
        FileRole::Test
    } else {
        FileRole::Source
    };
    Some((root, role))
}

/// Role of a file outside any package: test when a path component is `tests` or `benches`.
pub fn role_from_components(path: &Path) -> FileRole {
    let is_test = path.parent().is_some_and(|dir| {
        dir.components()
            .any(|c| matches!(c.as_os_str().to_str(), Some("tests" | "benches")))
    });
    if is_test {
        FileRole::Test
    } else {
        FileRole::Source
    }
}

fn is_skipped(entry: &walkdir::DirEntry) -> bool {
    let name = entry.file_name().to_string_lossy();
    if name.starts_with('.') {
        return true;
    }
    entry.file_type().is_dir() && SKIPPED_DIRS.contains(&name.as_ref())
}

/// A walk error as one line, or `None` for a dangling symlink that is not a Rust file.
fn walk_error(e: &walkdir::Error, cwd: &Path) -> Option<String> {
    let shown = |p: &Path| relative_to(p, cwd).display().to_string();
    if let Some(ancestor) = e.loop_ancestor() {
        let path = e.path().map(shown).unwrap_or_default();
        return Some(format!(
            "symlink loop: {path} points to its ancestor {}; not followed",
            shown(ancestor)
        ));
    }
    let path = e.path();
    let io = e.io_error();
    if io.is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
        && path.is_some_and(|p| p.extension() != Some(OsStr::new("rs")))
    {
        return None;
    }
    let reason = io.map_or_else(|| e.to_string(), |io| io.to_string());
    Some(match path {
        Some(p) => format!("could not read {}: {reason}", shown(p)),
        None => format!("could not walk a directory: {reason}"),
    })
}

/// `path` relative to `cwd` when it lies under it.
pub fn relative_to(path: &Path, cwd: &Path) -> PathBuf {
    match path.strip_prefix(cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}

/// Relative to `cwd` when under it; otherwise the given path joined with the part below `root`.
fn display_path(path: &Path, cwd: &Path, given: &Path, root: &Path) -> PathBuf {
    if let Ok(rel) = path.strip_prefix(cwd) {
        return rel.to_path_buf();
    }
    match path.strip_prefix(root) {
        Ok(rel) if rel.as_os_str().is_empty() => given.to_path_buf(),
        Ok(rel) => given.join(rel),
        Err(_) => path.to_path_buf(),
    }
}

/// `cwd`-joined path with `.` and `..` resolved lexically (symlinks are kept as the user wrote).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::write;

    fn run(root: &Path, paths: &[&str], exclude: &Exclude) -> Discovery {
        let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
        discover(&paths, root, exclude, false, &mut Manifests::new(root))
    }

    fn summary(d: &Discovery) -> Vec<(Option<String>, Vec<String>)> {
        d.crates
            .iter()
            .map(|c| {
                let files = c
                    .files
                    .iter()
                    .map(|f| {
                        let role = if f.role == FileRole::Test {
                            " test"
                        } else {
                            ""
                        };
                        let report = if f.report { "" } else { " ctx" };
                        format!("{}{role}{report}", f.display.display())
                    })
                    .collect();
                let root = c
                    .package_root
                    .as_ref()
                    .and_then(|r| r.file_name())
                    .map(|n| n.to_string_lossy().into_owned());
                (root, files)
            })
            .collect()
    }

    fn project() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        write(root, "p/Cargo.toml", "[package]\nname = \"p\"\n");
        for f in [
            "p/src/lib.rs",
            "p/src/a/b.rs",
            "p/tests/t.rs",
            "p/benches/b.rs",
            "p/examples/e.rs",
            "p/build.rs",
            "p/ui-tests/lint/fixture.rs",
            "p/target/debug/gen.rs",
            "p/.hidden/h.rs",
            "p/vendor/v.rs",
            "p/src/node_modules/n.rs",
            "p/src/generated/g.rs",
            "loose/tests/x.rs",
            "p/src/nested/Cargo.toml",
            "p/src/nested/src/lib.rs",
        ] {
            write(root, f, "");
        }
        write(
            root,
            "p/src/nested/Cargo.toml",
            "[package]\nname = \"nested\"\n",
        );
        tmp
    }

    #[test]
    fn groups_packages_single_files_roles_and_skips() {
        let tmp = project();
        let root = tmp.path().canonicalize().expect("canonical");
        let d = run(&root, &["."], &Exclude::default());
        assert!(d.errors.is_empty(), "{:?}", d.errors);
        assert_eq!(
            summary(&d),
            vec![
                (
                    Some("p".into()),
                    vec![
                        "p/benches/b.rs test".into(),
                        "p/build.rs".into(),
                        "p/examples/e.rs".into(),
                        "p/src/a/b.rs".into(),
                        "p/src/generated/g.rs".into(),
                        "p/src/lib.rs".into(),
                        "p/tests/t.rs test".into(),
                    ]
                ),
                (
                    Some("nested".into()),
                    vec!["p/src/nested/src/lib.rs".into()]
                ),
                (None, vec!["loose/tests/x.rs test".into()]),
                (None, vec!["p/ui-tests/lint/fixture.rs".into()]),
            ]
        );
    }

    #[test]
    fn explicit_files_bring_their_crate_as_context_and_excludes_apply() {
        let tmp = project();
        let root = tmp.path().canonicalize().expect("canonical");
        let exclude = Exclude::new(&root, &["p/src/generated/**".into(), "e.rs".into()])
            .expect("valid globs");
        let d = run(&root, &["p/src/a/b.rs", "p/src/../src/a/b.rs"], &exclude);
        assert_eq!(
            summary(&d),
            vec![(
                Some("p".into()),
                vec![
                    "p/benches/b.rs test ctx".into(),
                    "p/build.rs ctx".into(),
                    "p/src/a/b.rs".into(),
                    "p/src/lib.rs ctx".into(),
                    "p/tests/t.rs test ctx".into(),
                ]
            )]
        );
        assert_eq!(d.reported_files(), 1);
    }

    #[test]
    fn missing_paths_are_errors_and_outside_paths_keep_their_given_form() {
        let tmp = project();
        let root = tmp.path().canonicalize().expect("canonical");
        let elsewhere = tempfile::tempdir().expect("tempdir");
        let d = run(
            elsewhere.path(),
            &["nope", root.join("loose").to_str().expect("utf-8")],
            &Exclude::default(),
        );
        assert_eq!(d.errors, vec!["path not found: nope".to_string()]);
        assert_eq!(d.crates[0].files[0].display, root.join("loose/tests/x.rs"));
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_are_reported_once_and_not_followed() {
        let tmp = project();
        let root = tmp.path().canonicalize().expect("canonical");
        std::os::unix::fs::symlink(root.join("loose"), root.join("loose/tests/again"))
            .expect("symlink");
        let d = run(&root, &["loose"], &Exclude::default());
        assert_eq!(d.errors.len(), 1, "{:?}", d.errors);
        assert!(
            d.errors[0].starts_with("symlink loop: loose/tests/again"),
            "{:?}",
            d.errors
        );
        assert_eq!(
            summary(&d),
            vec![(None, vec!["loose/tests/x.rs test".into()])]
        );
    }
}
