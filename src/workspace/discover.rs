//! Which files to lint, and which crate each belongs to.
//!
//! The nearest ancestor directory whose Cargo.toml has a `[package]` section is a file's package
//! root; files under its `src/`, `tests/`, `benches/`, `examples/` and its `build.rs` form one
//! crate (the whole crate is read for context, only the files asked about are reported; of
//! those, the analysis leaves out the files no target root's module tree reaches unless they
//! were [`DiscoveredFile::named`]). Every other `.rs` file (fixture directories and the like) is
//! a crate of its own.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use lints::FileRole;

use crate::workspace::cache::FileStamp;
use crate::workspace::manifest::Manifests;
use crate::workspace::paths::{normalize, relative_to};

/// Directory names never descended into (at any depth below a given path).
const SKIPPED_DIRS: [&str; 4] = ["target", "vendor", "third_party", "node_modules"];

/// Package subdirectories whose files belong to the package's crate.
pub const MEMBER_DIRS: [&str; 4] = ["src", "tests", "benches", "examples"];

/// Config `exclude` globs, matched against paths relative to the config's directory (a pattern
/// without `/` also matches any file or directory name).
#[derive(Clone, Debug, Default)]
pub struct Exclude {
    base: PathBuf,
    /// As written: two sets of the same patterns from the same base match alike.
    patterns: Vec<String>,
    /// Patterns with a `/`, matched against the path below `base`.
    full: GlobSet,
    /// Patterns without one, matched against each name.
    names: GlobSet,
    /// Patterns starting with `/`, matched against the whole path too.
    absolute: GlobSet,
}

impl Exclude {
    pub fn new(base: &Path, patterns: &[String]) -> Result<Exclude, String> {
        let mut full = GlobSetBuilder::new();
        let mut names = GlobSetBuilder::new();
        let mut absolute = GlobSetBuilder::new();
        for pattern in patterns {
            let glob = |text: &str| {
                GlobBuilder::new(text)
                    .literal_separator(true)
                    .build()
                    .map_err(|e| format!("invalid exclude pattern `{pattern}`: {e}"))
            };
            let trimmed = pattern.trim_end_matches('/');
            let trimmed = trimmed.strip_prefix("./").unwrap_or(trimmed);
            if let Some(anchored) = trimmed.strip_prefix('/') {
                // `/gen/**`: an absolute path, or (as in .gitignore) anchored at `base`.
                absolute.add(glob(trimmed)?);
                full.add(glob(anchored)?);
            } else if trimmed.contains('/') {
                full.add(glob(trimmed)?);
            } else {
                names.add(glob(trimmed)?);
            }
        }
        let build = |b: GlobSetBuilder| {
            b.build()
                .map_err(|e| format!("invalid exclude patterns: {e}"))
        };
        Ok(Exclude {
            base: base.to_path_buf(),
            patterns: patterns.to_vec(),
            full: build(full)?,
            names: build(names)?,
            absolute: build(absolute)?,
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
        if self.full.is_empty() && self.names.is_empty() {
            return false;
        }
        if self.absolute.is_match(path) {
            return true;
        }
        let Ok(rel) = path.strip_prefix(&self.base) else {
            return false;
        };
        if self.full.is_match(rel) {
            return true;
        }
        !self.names.is_empty() && rel.components().any(|c| self.names.is_match(c.as_os_str()))
    }
}

impl PartialEq for Exclude {
    fn eq(&self, other: &Exclude) -> bool {
        self.base == other.base && self.patterns == other.patterns
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
    /// Named by the user (a file on the command line, an editor's document): reported even
    /// when no target root's module tree reaches it.
    pub named: bool,
    /// The file's metadata when it was found (for the cache), if it could be read.
    pub stamp: Option<FileStamp>,
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
    /// One line per path that could not be walked (missing path, permission).
    pub errors: Vec<String>,
    /// What was walked around without losing a file: a symlink to an ancestor directory is
    /// not followed (every file below it is reached through the ancestor itself).
    pub warnings: Vec<String>,
    /// Every directory the walks listed and every dangling symlink they passed: what the found
    /// files depend on besides the ignore files and manifests (a file added to a directory,
    /// removed or renamed there changes its metadata; the language server checks it before it
    /// re-uses a discovery).
    pub watched: Vec<PathBuf>,
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
/// With `gitignore`, the walks leave out what git ignores (a path given is linted even so).
/// Directories are walked in parallel; the result does not depend on the number of threads.
pub fn discover(
    paths: &[PathBuf],
    cwd: &Path,
    exclude: &Exclude,
    force_exclude: bool,
    gitignore: bool,
    manifests: &mut Manifests,
) -> Discovery {
    let mut walker = Walker::new(cwd, exclude, gitignore);
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
            walker.walked.push(abs);
        } else if let Err(crate::read::ReadError::NotAFile(kind)) =
            crate::read::check(&abs, u64::MAX)
        {
            // A FIFO would block the read forever, a device never ends: not opened at all.
            walker.errors.push(format!(
                "{}: {kind}, not a regular file; not read",
                given.display()
            ));
        } else {
            let display = display_path(&abs, cwd, given, &abs);
            let before = asked.len();
            walker.add(abs, display, &mut asked);
            for found in &mut asked[before..] {
                found.named = true;
            }
        }
    }
    preload_manifests(&asked, manifests);
    walker.group(asked, manifests)
}

/// Read, in parallel, the Cargo.toml files that may own the found files: in every directory a
/// found file sits in, and their ancestors.
fn preload_manifests(found: &[Found], manifests: &mut Manifests) {
    let mut seen: HashSet<&Path> = HashSet::new();
    for parent in found.iter().filter_map(|f| f.path.parent()) {
        // Once a directory is known, so are its ancestors.
        for dir in parent.ancestors() {
            if !seen.insert(dir) {
                break;
            }
        }
    }
    let mut dirs: Vec<PathBuf> = seen.into_iter().map(Path::to_path_buf).collect();
    dirs.sort();
    manifests.preload(&dirs);
}

/// A file found on disk, before grouping.
struct Found {
    path: PathBuf,
    display: PathBuf,
    stamp: Option<FileStamp>,
    /// Given on the command line as a file.
    named: bool,
}

/// What makes two paths the same file: device and inode where there are such things.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum FileKey {
    #[cfg_attr(not(unix), allow(dead_code))]
    Inode(u64, u64),
    Path(PathBuf),
}

impl FileKey {
    /// The key of `path`, from `meta` (followed through symlinks) when at hand.
    fn of(path: &Path, meta: Option<&std::fs::Metadata>) -> FileKey {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = match meta {
                Some(m) => Some(m.clone()),
                None => std::fs::metadata(path).ok(),
            };
            if let Some(m) = meta {
                return FileKey::Inode(m.dev(), m.ino());
            }
        }
        let _ = meta;
        FileKey::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// What a parallel walk yields, in walk order.
enum Item {
    File(PathBuf, FileKey, Option<FileStamp>),
    /// A directory listed, or a dangling symlink passed by.
    Watched(PathBuf),
    Error(String),
    Warning(String),
}

struct Walker<'a> {
    cwd: &'a Path,
    exclude: &'a Exclude,
    /// Leave out what `.gitignore`, `.ignore`, `.git/info/exclude` and git's global excludes
    /// ignore.
    gitignore: bool,
    errors: Vec<String>,
    warnings: Vec<String>,
    /// Files already found, so overlapping paths and symlinks read a file once.
    seen: HashSet<FileKey>,
    /// The directories given on the command line and walked whole.
    walked: Vec<PathBuf>,
    /// See [`Discovery::watched`].
    watched: Vec<PathBuf>,
}

impl<'a> Walker<'a> {
    fn new(cwd: &'a Path, exclude: &'a Exclude, gitignore: bool) -> Self {
        Walker {
            cwd,
            exclude,
            gitignore,
            errors: Vec::new(),
            warnings: Vec::new(),
            seen: HashSet::new(),
            walked: Vec::new(),
            watched: Vec::new(),
        }
    }

    /// A file named outside a walk (on the command line, `build.rs`, a target's own path):
    /// its key and stamp from one metadata call.
    fn add(&mut self, path: PathBuf, display: PathBuf, out: &mut Vec<Found>) {
        let meta = std::fs::metadata(&path).ok();
        let key = FileKey::of(&path, meta.as_ref());
        let stamp = meta.as_ref().and_then(FileStamp::from_metadata);
        self.add_stamped(path, display, key, stamp, out);
    }

    fn add_stamped(
        &mut self,
        path: PathBuf,
        display: PathBuf,
        key: FileKey,
        stamp: Option<FileStamp>,
        out: &mut Vec<Found>,
    ) {
        if self.seen.insert(key) {
            out.push(Found {
                path,
                display,
                stamp,
                named: false,
            });
        }
    }

    /// Every `.rs` file under `root`, skipping build output, hidden, vendored, excluded and
    /// (with `gitignore`) git-ignored files and directories below it; symlinks are followed,
    /// loops reported and not followed.
    fn walk(&mut self, root: &Path, given: &Path, out: &mut Vec<Found>) {
        let items = walk_tree(root, self.exclude, self.gitignore, self.cwd);
        for item in items {
            match item {
                Item::File(path, key, stamp) => {
                    let display = display_path(&path, self.cwd, given, root);
                    self.add_stamped(path, display, key, stamp, out);
                }
                Item::Watched(path) => self.watched.push(path),
                Item::Error(e) => self.errors.push(e),
                Item::Warning(w) => self.warnings.push(w),
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
                    named: found.named,
                    stamp: found.stamp,
                }),
                None => singles.push(CrateFiles {
                    package_root: None,
                    files: vec![DiscoveredFile {
                        role: role_from_components(&found.display),
                        path: found.path,
                        display: found.display,
                        report: true,
                        named: found.named,
                        stamp: found.stamp,
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
        // Under a directory walked whole, the package's files were all found already.
        if self.walked.iter().any(|w| root.starts_with(w)) {
            return Vec::new();
        }
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
        // Files of one directory below the root share their package and role: asked once per
        // directory (the root's own files are asked one by one: `build.rs` is special).
        let mut by_dir: HashMap<PathBuf, Option<(PathBuf, FileRole)>> = HashMap::new();
        found
            .into_iter()
            .filter_map(|found| {
                // A nested package inside `src/` (or a fixture crate) is not part of this one.
                let (r, role) = match found.path.parent().filter(|dir| *dir != root) {
                    Some(dir) => by_dir
                        .entry(dir.to_path_buf())
                        .or_insert_with(|| member_of(&found.path, manifests))
                        .clone()?,
                    None => member_of(&found.path, manifests)?,
                };
                (r == root).then_some(DiscoveredFile {
                    path: found.path,
                    display: found.display,
                    role,
                    report,
                    named: false,
                    stamp: found.stamp,
                })
            })
            .collect()
    }

    fn finish(self, crates: Vec<CrateFiles>) -> Discovery {
        // A directory met again while collecting context must not be reported twice.
        let once = |lines: Vec<String>| {
            let mut seen = HashSet::new();
            lines
                .into_iter()
                .filter(|l| seen.insert(l.clone()))
                .collect()
        };
        Discovery {
            crates,
            errors: once(self.errors),
            warnings: once(self.warnings),
            watched: self.watched,
        }
    }
}

/// A cargo package to lint whole, with the target files that lie outside its standard
/// directories (`[lib] path = "lib.rs"` and the files its `mod` declarations reach).
#[derive(Clone, Debug)]
pub struct PackageSeed {
    pub root: PathBuf,
    pub extra_files: Vec<(PathBuf, FileRole)>,
}

/// Every file of each package, all reported (`cargo mcp-lint`). Config excludes apply, and
/// with `gitignore` what git ignores is left out.
pub fn discover_packages(
    seeds: &[PackageSeed],
    cwd: &Path,
    exclude: &Exclude,
    gitignore: bool,
    manifests: &mut Manifests,
) -> Discovery {
    let mut walker = Walker::new(cwd, exclude, gitignore);
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
                named: false,
                stamp: f.stamp,
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
    let root = manifests.package_root_of_file(path)?;
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

/// The `.rs` files under `root` and the errors met, in path order whatever the number of
/// threads: the `ignore` crate's parallel walk (ripgrep's), on as many threads as the current
/// rayon pool has.
fn walk_tree(root: &Path, exclude: &Exclude, gitignore: bool, cwd: &Path) -> Vec<Item> {
    let filter = exclude.clone();
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .follow_links(true)
        .hidden(true)
        .parents(gitignore)
        .ignore(gitignore)
        .git_ignore(gitignore)
        .git_global(gitignore)
        .git_exclude(gitignore)
        .threads(rayon::current_num_threads())
        .filter_entry(move |entry| entry.depth() == 0 || !skipped(entry, &filter));
    let items = std::sync::Mutex::new(Vec::new());
    builder.build_parallel().run(|| {
        let items = &items;
        Box::new(move |entry| {
            if let Some(item) = item(entry, cwd) {
                items.lock().unwrap_or_else(|e| e.into_inner()).push(item);
            }
            ignore::WalkState::Continue
        })
    });
    let mut items = items.into_inner().unwrap_or_else(|e| e.into_inner());
    // Files first, by path; then what is watched, by path; then the messages, by text.
    let rank = |item: &Item| match item {
        Item::File(..) => 0,
        Item::Watched(_) => 1,
        Item::Error(_) | Item::Warning(_) => 2,
    };
    items.sort_by(|a, b| match (a, b) {
        (Item::File(a, ..), Item::File(b, ..)) | (Item::Watched(a), Item::Watched(b)) => a.cmp(b),
        (Item::Error(a) | Item::Warning(a), Item::Error(b) | Item::Warning(b)) => a.cmp(b),
        _ => rank(a).cmp(&rank(b)),
    });
    items
}

/// Build output, vendored code and excluded paths are not descended into.
fn skipped(entry: &ignore::DirEntry, exclude: &Exclude) -> bool {
    let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
    (is_dir && SKIPPED_DIRS.contains(&entry.file_name().to_string_lossy().as_ref()))
        || exclude.matches(entry.path())
}

/// What one entry of the walk yields: a Rust file, an error, or nothing.
fn item(entry: Result<ignore::DirEntry, ignore::Error>, cwd: &Path) -> Option<Item> {
    let shown = |p: &Path| relative_to(p, cwd).display().to_string();
    let entry = match entry {
        Ok(entry) => entry,
        Err(e) => return walk_error(e, cwd),
    };
    let path = entry.path();
    if entry.file_type().is_some_and(|t| t.is_dir()) {
        return Some(Item::Watched(path.to_path_buf()));
    }
    if path.extension() != Some(OsStr::new("rs")) {
        return None;
    }
    // Followed through symlinks, as the walk follows them.
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            let key = FileKey::of(path, Some(&meta));
            let stamp = FileStamp::from_metadata(&meta);
            Some(Item::File(path.to_path_buf(), key, stamp))
        }
        Ok(_) => None,
        Err(e) => Some(Item::Error(format!("could not read {}: {e}", shown(path)))),
    }
}

/// A walk error as a problem line; a dangling symlink that does not claim to be a Rust file is
/// only watched.
fn walk_error(error: ignore::Error, cwd: &Path) -> Option<Item> {
    let shown = |p: &Path| relative_to(p, cwd).display().to_string();
    match error {
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error(*err, cwd)
        }
        ignore::Error::Loop { ancestor, child } => Some(Item::Warning(format!(
            "symlink loop: {} points to its ancestor {}; not followed",
            shown(&child),
            shown(&ancestor)
        ))),
        ignore::Error::WithPath { path, err } => {
            let is_rs = path.extension() == Some(OsStr::new("rs"));
            match err.io_error() {
                // Where it points may be created later.
                Some(e) if e.kind() == std::io::ErrorKind::NotFound && !is_rs => {
                    Some(Item::Watched(path))
                }
                Some(e) => Some(Item::Error(format!("could not read {}: {e}", shown(&path)))),
                None => Some(Item::Error(format!("{}: {err}", shown(&path)))),
            }
        }
        other => Some(Item::Error(other.to_string())),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::write;

    fn run(root: &Path, paths: &[&str], exclude: &Exclude) -> Discovery {
        let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
        discover(
            &paths,
            root,
            exclude,
            false,
            true,
            &mut Manifests::new(root),
        )
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
        assert!(d.errors.is_empty(), "{:?}", d.errors);
        assert_eq!(d.warnings.len(), 1, "{:?}", d.warnings);
        assert!(
            d.warnings[0].starts_with("symlink loop: loose/tests/again"),
            "{:?}",
            d.warnings
        );
        assert_eq!(
            summary(&d),
            vec![(None, vec!["loose/tests/x.rs test".into()])]
        );
    }
}
