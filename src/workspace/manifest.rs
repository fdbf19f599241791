//! Cargo.toml: which directories are package roots, and the facts the analysis needs
//! (package name, dependencies with `workspace = true` resolved against the workspace root,
//! path dependencies' directories).
//!
//! Every Cargo.toml is read at most once per run; a broken one is reported once (exit 2) and
//! treated as a package root without facts, so its files are still linted.
//!
//! A dependency's version is the one Cargo.lock pins (at the workspace root, else beside the
//! package's Cargo.toml) when there is one, else the Cargo.toml requirement: SDKs change their
//! wire behaviour between versions. A missing or unreadable Cargo.lock is no error (it is
//! optional); the requirement is used.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lints::sdk::Version;
use lints::{Dependency, Manifest, TargetKind, Targets};
use toml::{Table, Value};

use crate::read;

/// A directory's Cargo.toml, parsed or not.
#[derive(Clone, Debug)]
pub enum CargoToml {
    Parsed(Arc<Table>),
    /// Present but unreadable or not valid TOML.
    Broken,
}

impl CargoToml {
    pub fn table(&self) -> Option<&Table> {
        match self {
            CargoToml::Parsed(t) => Some(t),
            CargoToml::Broken => None,
        }
    }

    /// A `[package]` section makes its directory a package root. A broken manifest is assumed
    /// to be one: the user meant that directory to be a crate.
    pub fn is_package(&self) -> bool {
        match self.table() {
            Some(t) => t.contains_key("package"),
            None => true,
        }
    }

    pub fn is_workspace(&self) -> bool {
        self.table().is_some_and(|t| t.contains_key("workspace"))
    }
}

/// Cache of Cargo.toml files by directory, with the errors met while reading them.
#[derive(Debug, Default)]
pub struct Manifests {
    /// Paths in error messages are shown relative to this directory.
    cwd: PathBuf,
    by_dir: HashMap<PathBuf, Option<CargoToml>>,
    /// Cargo.lock by directory: package name → the versions it pins.
    locks: HashMap<PathBuf, Arc<Locked>>,
    /// Directories listed to match `[workspace] members` globs.
    listed: Vec<PathBuf>,
    errors: Vec<String>,
}

/// The versions a Cargo.lock pins, by package name.
type Locked = lints::LockedVersions;

impl Manifests {
    pub fn new(cwd: &Path) -> Self {
        Manifests {
            cwd: cwd.to_path_buf(),
            ..Self::default()
        }
    }

    /// The Cargo.toml in `dir` (an absolute, normalised directory), if there is one.
    pub fn get(&mut self, dir: &Path) -> Option<CargoToml> {
        if let Some(cached) = self.by_dir.get(dir) {
            return cached.clone();
        }
        let (loaded, error) = load(dir, &self.cwd);
        self.errors.extend(error);
        self.by_dir.insert(dir.to_path_buf(), loaded.clone());
        loaded
    }

    /// Read the Cargo.toml files of `dirs` in parallel (on the current rayon pool), so later
    /// [`Manifests::get`] calls find them cached. Errors are kept in `dirs` order.
    pub fn preload(&mut self, dirs: &[PathBuf]) {
        use rayon::prelude::*;
        let todo: Vec<&PathBuf> = dirs
            .iter()
            .filter(|d| !self.by_dir.contains_key(*d))
            .collect();
        let cwd = &self.cwd;
        let loaded: Vec<_> = todo.par_iter().map(|dir| load(dir, cwd)).collect();
        for (dir, (toml, error)) in todo.into_iter().zip(loaded) {
            self.errors.extend(error);
            self.by_dir.insert(dir.clone(), toml);
        }
    }

    /// The nearest ancestor of `path` (or `path` itself, for a directory) that is a package root.
    pub fn package_root(&mut self, path: &Path) -> Option<PathBuf> {
        let start = if path.is_dir() { path } else { path.parent()? };
        start
            .ancestors()
            .find(|dir| self.get(dir).is_some_and(|m| m.is_package()))
            .map(Path::to_path_buf)
    }

    /// [`Manifests::package_root`] of a path known to be a file (no metadata lookup).
    pub fn package_root_of_file(&mut self, file: &Path) -> Option<PathBuf> {
        file.parent()?
            .ancestors()
            .find(|dir| self.get(dir).is_some_and(|m| m.is_package()))
            .map(Path::to_path_buf)
    }

    /// The workspace root above (or at) a package directory; none when that workspace's
    /// `exclude` names the package's directory (or one above it): cargo builds it as a workspace
    /// of its own, with its own Cargo.lock.
    pub fn workspace_root(&mut self, package_dir: &Path) -> Option<(PathBuf, Arc<Table>)> {
        let (dir, table) = package_dir
            .ancestors()
            .find_map(|dir| match self.get(dir)? {
                CargoToml::Parsed(t) if t.contains_key("workspace") => Some((dir.to_path_buf(), t)),
                _ => None,
            })?;
        let excluded = table
            .get("workspace")
            .and_then(|w| w.get("exclude"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .any(|e| package_dir.starts_with(crate::workspace::paths::normalize(&dir.join(e))));
        (!excluded).then_some((dir, table))
    }

    /// The package directories `[workspace] members` names in the workspace rooted at `dir`
    /// (globs such as `crates/*` matched one directory level per `/`), without its `exclude`d
    /// ones, sorted. Directories that are not packages are left out.
    pub fn workspace_members(&mut self, dir: &Path) -> Vec<PathBuf> {
        let Some(CargoToml::Parsed(table)) = self.get(dir) else {
            return Vec::new();
        };
        let list = |key: &str| -> Vec<String> {
            table
                .get("workspace")
                .and_then(|w| w.get(key))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        };
        let excluded: Vec<PathBuf> = list("exclude")
            .iter()
            .map(|e| crate::workspace::paths::normalize(&dir.join(e)))
            .collect();
        let mut members: Vec<PathBuf> = list("members")
            .iter()
            .flat_map(|pattern| expand_member(dir, pattern, &mut self.listed))
            .filter(|m| m.starts_with(dir) && !excluded.iter().any(|e| m.starts_with(e)))
            .collect();
        members.sort();
        members.dedup();
        members.retain(|m| self.get(m).is_some_and(|t| t.is_package()));
        members
    }

    /// Facts about the package rooted at `package_dir`; `None` when its Cargo.toml is broken.
    pub fn facts(&mut self, package_dir: &Path) -> Option<Manifest> {
        let table = match self.get(package_dir)? {
            CargoToml::Parsed(t) => t,
            CargoToml::Broken => return None,
        };
        let package_name = table
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let workspace = self.workspace_root(package_dir);
        let package_version = package_version(&table, workspace.as_ref().map(|(_, t)| &**t));
        let workspace_deps = workspace.as_ref().and_then(|(dir, t)| {
            let deps = t.get("workspace")?.get("dependencies")?.as_table()?;
            Some((dir.as_path(), deps))
        });
        let lock_dir = workspace
            .as_ref()
            .map_or(package_dir, |(dir, _)| dir.as_path());
        let locked = self.locked(lock_dir);
        let mut dependencies = Vec::new();
        // A set, not `Vec::contains`: a manifest of 100k dependencies stays linear.
        let mut seen = HashSet::new();
        for deps in dependency_tables(&table) {
            for (key, spec) in deps {
                if let Some(mut dep) = dependency(key, spec, package_dir, workspace_deps) {
                    if let Some(pinned) = locked_version(&locked, &dep) {
                        dep.version = Some(format!("={pinned}"));
                    }
                    if seen.insert((dep.name.clone(), dep.version.clone(), dep.rename.clone())) {
                        dependencies.push(dep);
                    }
                }
            }
        }
        Some(Manifest {
            package_name,
            package_version,
            published: is_published(package_dir),
            dependencies,
            locked: (!locked.is_empty()).then_some(locked),
            targets: targets(&table),
        })
    }

    /// The versions the Cargo.lock in `dir` pins (empty without a readable one), read once.
    fn locked(&mut self, dir: &Path) -> Arc<Locked> {
        if let Some(cached) = self.locks.get(dir) {
            return cached.clone();
        }
        let locked = Arc::new(read_lock(dir, &self.cwd));
        self.locks.insert(dir.to_path_buf(), locked.clone());
        locked
    }

    /// Errors met so far (each broken Cargo.toml once), drained.
    pub fn take_errors(&mut self) -> Vec<String> {
        std::mem::take(&mut self.errors)
    }

    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// Every directory whose Cargo.toml or Cargo.lock was looked for.
    pub fn looked_in(&self) -> impl Iterator<Item = &Path> {
        self.by_dir
            .keys()
            .chain(self.locks.keys())
            .map(PathBuf::as_path)
    }

    /// Every directory listed to match a member glob.
    pub fn listed(&self) -> &[PathBuf] {
        &self.listed
    }
}

/// Whether the Cargo.toml in `dir` is cargo's normalised copy of a published package: it opens
/// with the notice `cargo package` writes.
pub fn is_published(dir: &Path) -> bool {
    use std::io::Read as _;
    const NOTICE: &[u8] = b"# THIS FILE IS AUTOMATICALLY GENERATED BY CARGO";
    let path = dir.join("Cargo.toml");
    // A FIFO would block the open: only a regular file is read.
    if !path.is_file() {
        return false;
    }
    let mut head = [0u8; NOTICE.len()];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head.eq_ignore_ascii_case(NOTICE))
}

/// The Cargo.toml in `dir`, if any, and the error met reading it.
fn load(dir: &Path, cwd: &Path) -> (Option<CargoToml>, Option<String>) {
    let path = dir.join("Cargo.toml");
    if !path.is_file() {
        return (None, None);
    }
    match read_toml(&path, cwd) {
        Ok(table) => (Some(CargoToml::Parsed(Arc::new(table))), None),
        Err(message) => (Some(CargoToml::Broken), Some(message)),
    }
}

/// The directories a `members` entry names below `dir`: each `/`-separated part is a name, or
/// a glob (`*`, `?`, `[..]`) matched against the subdirectories there (the directories listed
/// are added to `listed`).
fn expand_member(dir: &Path, pattern: &str, listed: &mut Vec<PathBuf>) -> Vec<PathBuf> {
    let mut found = vec![dir.to_path_buf()];
    for part in pattern.split('/').filter(|p| !p.is_empty() && *p != ".") {
        if !part.contains(['*', '?', '[']) {
            found = found.into_iter().map(|d| d.join(part)).collect();
            continue;
        }
        let Ok(glob) = globset::Glob::new(part) else {
            return Vec::new();
        };
        let matcher = glob.compile_matcher();
        let mut next = Vec::new();
        for d in &found {
            listed.push(d.clone());
            let Ok(entries) = std::fs::read_dir(d) else {
                continue;
            };
            for entry in entries.flatten() {
                let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
                if is_dir && matcher.is_match(entry.file_name()) {
                    next.push(entry.path());
                }
            }
        }
        found = next;
    }
    found
        .iter()
        .map(|d| crate::workspace::paths::normalize(d))
        .collect()
}

/// Read and parse a TOML file; the error names the file (relative to `cwd` when under it).
pub fn read_toml(path: &Path, cwd: &Path) -> Result<Table, String> {
    let shown = crate::workspace::paths::relative_to(path, cwd);
    let text = read::read_text(path, read::MAX_DATA_BYTES)
        .map_err(|e| format!("could not read {}: {e}", shown.display()))?;
    text.parse::<Table>().map_err(|e| {
        format!(
            "could not parse {}: {}",
            shown.display(),
            shortened_lines(e.to_string().trim_end())
        )
    })
}

/// The longest line of a TOML error shown: the parser quotes the offending line, which in a
/// generated or hostile file can be megabytes long.
const MAX_ERROR_LINE: usize = 200;

fn shortened_lines(message: &str) -> String {
    message
        .lines()
        .map(|line| match line.char_indices().nth(MAX_ERROR_LINE) {
            Some((cut, _)) => format!("{}…", &line[..cut]),
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

const DEPENDENCY_KINDS: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];

/// `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]` and their `[target.*.…]` forms.
fn dependency_tables(manifest: &Table) -> Vec<&Table> {
    let mut tables: Vec<&Table> = DEPENDENCY_KINDS
        .iter()
        .filter_map(|k| manifest.get(*k)?.as_table())
        .collect();
    if let Some(targets) = manifest.get("target").and_then(Value::as_table) {
        for target in targets.values().filter_map(Value::as_table) {
            tables.extend(
                DEPENDENCY_KINDS
                    .iter()
                    .filter_map(|k| target.get(*k)?.as_table()),
            );
        }
    }
    tables
}

/// One dependency entry: `name = "1"`, `name = { version, package, path }`, or
/// `workspace = true` (the key stays the member's; `package`, `version` and `path` come from
/// the workspace's entry, its `path` relative to the workspace root).
fn dependency(
    key: &str,
    spec: &Value,
    package_dir: &Path,
    workspace_deps: Option<(&Path, &Table)>,
) -> Option<Dependency> {
    let inherits = spec
        .get("workspace")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if inherits {
        // Unresolvable inheritance still names the crate: rmcp's presence matters on its own.
        return Some(
            match workspace_deps.and_then(|(dir, w)| Some((dir, w.get(key)?))) {
                Some((dir, ws_spec)) => plain_dependency(key, ws_spec, dir),
                None => Dependency {
                    name: key.to_string(),
                    version: None,
                    rename: None,
                    path: None,
                },
            },
        );
    }
    Some(plain_dependency(key, spec, package_dir))
}

/// `[package] version`, or the workspace's `[workspace.package] version` when inherited
/// (`version.workspace = true`).
fn package_version(table: &Table, workspace: Option<&Table>) -> Option<String> {
    let version = table.get("package")?.get("version")?;
    if let Some(v) = version.as_str() {
        return Some(v.to_string());
    }
    let inherited = version.get("workspace").and_then(Value::as_bool) == Some(true);
    inherited
        .then(|| {
            workspace?
                .get("workspace")?
                .get("package")?
                .get("version")?
                .as_str()
        })
        .flatten()
        .map(str::to_string)
}

/// The versions the Cargo.lock in `dir` pins, by package name (empty without a readable one: a
/// The crate roots Cargo.toml declares ([`Targets`]): `[lib] path`, each `[[bin]]`,
/// `[[example]]`, `[[test]]` and `[[bench]]` by its `path` or else the default paths of its
/// `name`, `package.build`, and the `auto*` keys set to `false` (cargo then infers no target
/// of that kind, only the declared ones are built).
fn targets(table: &Table) -> Targets {
    let package = table.get("package").and_then(Value::as_table);
    let package_name = package.and_then(|p| p.get("name")).and_then(Value::as_str);
    let mut targets = Targets::default();
    let lib_path = table
        .get("lib")
        .and_then(|l| l.get("path"))
        .and_then(Value::as_str);
    targets.lib = lib_path.map(PathBuf::from);
    let off = |key: &str| package.and_then(|p| p.get(key)).and_then(Value::as_bool) == Some(false);
    for (key, kind) in [
        ("autolib", TargetKind::Lib),
        ("autobins", TargetKind::Bin),
        ("autoexamples", TargetKind::Example),
        ("autotests", TargetKind::Test),
        ("autobenches", TargetKind::Bench),
    ] {
        if off(key) {
            targets.not_inferred.push(kind);
        }
    }
    match package.and_then(|p| p.get("build")) {
        Some(Value::Boolean(false)) => targets.not_inferred.push(TargetKind::Build),
        Some(Value::String(path)) => {
            targets.not_inferred.push(TargetKind::Build);
            targets.declared.push(PathBuf::from(path));
        }
        _ => {}
    }
    for (key, dir) in [
        ("bin", "src/bin"),
        ("example", "examples"),
        ("test", "tests"),
        ("bench", "benches"),
    ] {
        let declared = table.get(key).and_then(Value::as_array);
        for target in declared.into_iter().flatten() {
            if let Some(path) = target.get("path").and_then(Value::as_str) {
                targets.declared.push(PathBuf::from(path));
            } else if let Some(name) = target.get("name").and_then(Value::as_str) {
                // Where cargo looks for a target declared by name only.
                if key == "bin" && Some(name) == package_name {
                    targets.declared.push(PathBuf::from("src/main.rs"));
                }
                targets
                    .declared
                    .push(Path::new(dir).join(format!("{name}.rs")));
                targets
                    .declared
                    .push(Path::new(dir).join(name).join("main.rs"));
            }
        }
    }
    targets
}

/// lock file is optional, so an unreadable one is no error).
pub fn read_lock(dir: &Path, cwd: &Path) -> Locked {
    let path = dir.join("Cargo.lock");
    let mut locked = Locked::new();
    let table = path.is_file().then(|| read_toml(&path, cwd).ok()).flatten();
    let packages = table
        .as_ref()
        .and_then(|t| t.get("package"))
        .and_then(Value::as_array);
    for package in packages.into_iter().flatten() {
        if let (Some(name), Some(version)) = (
            package.get("name").and_then(Value::as_str),
            package.get("version").and_then(Value::as_str),
        ) {
            locked
                .entry(name.to_string())
                .or_default()
                .push(version.to_string());
        }
    }
    locked
}

/// A manifest read without its lock (`cargo metadata --no-deps` gives requirements) with the
/// versions `locked` pins: each dependency's, and every pin for what depends on the SDK's own
/// dependencies.
pub fn pin(manifest: &mut Manifest, locked: &Arc<Locked>) {
    for dep in &mut manifest.dependencies {
        if let Some(pinned) = locked_version(locked, dep) {
            dep.version = Some(format!("={pinned}"));
        }
    }
    manifest.locked = (!locked.is_empty()).then(|| locked.clone());
}

/// The version Cargo.lock pins for `dep`: the only one it pins for that package, or the only
/// one that meets the requirement's major version (minor for 0.x) when it pins several.
fn locked_version<'l>(locked: &'l Locked, dep: &Dependency) -> Option<&'l str> {
    let versions = locked.get(&dep.name)?;
    if let [only] = versions.as_slice() {
        return Some(only);
    }
    let wanted = Version::from_requirement(dep.version.as_deref()?)?;
    let mut fitting = versions.iter().filter(|v| {
        Version::from_requirement(v).is_some_and(|v| {
            v.major == wanted.major && (wanted.major > 0 || v.minor == wanted.minor)
        })
    });
    match (fitting.next(), fitting.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// A dependency as written; a `path` is read from `base`, the manifest's directory.
fn plain_dependency(key: &str, spec: &Value, base: &Path) -> Dependency {
    match spec {
        Value::String(version) => Dependency {
            name: key.to_string(),
            version: Some(version.clone()),
            rename: None,
            path: None,
        },
        _ => {
            let package = spec.get("package").and_then(Value::as_str);
            Dependency {
                name: package.unwrap_or(key).to_string(),
                version: spec
                    .get("version")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                rename: package.filter(|p| *p != key).map(|_| key.to_string()),
                path: spec
                    .get("path")
                    .and_then(Value::as_str)
                    .map(|p| crate::workspace::paths::normalize(&base.join(p))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::write;

    fn dep(name: &str, version: Option<&str>) -> Dependency {
        Dependency {
            name: name.into(),
            version: version.map(Into::into),
            rename: None,
            path: None,
        }
    }

    fn renamed(key: &str, name: &str, version: &str) -> Dependency {
        Dependency {
            rename: Some(key.into()),
            ..dep(name, Some(version))
        }
    }

    #[test]
    fn targets_follow_declared_paths_names_and_auto_keys() {
        let table: Table = toml::from_str(
            r#"[package]
name = "srv"
autobins = false
autotests = false
build = "tools/gen.rs"

[lib]
path = "src/server.rs"

[[bin]]
name = "srv"

[[bin]]
name = "cli"
path = "cli/main.rs"

[[example]]
name = "demo"
"#,
        )
        .expect("toml");
        let t = targets(&table);
        assert_eq!(t.lib, Some(PathBuf::from("src/server.rs")));
        assert_eq!(
            t.not_inferred,
            [TargetKind::Bin, TargetKind::Test, TargetKind::Build]
        );
        let declared: Vec<&str> = t.declared.iter().filter_map(|p| p.to_str()).collect();
        assert_eq!(
            declared,
            [
                "tools/gen.rs",
                "src/main.rs",
                "src/bin/srv.rs",
                "src/bin/srv/main.rs",
                "cli/main.rs",
                "examples/demo.rs",
                "examples/demo/main.rs"
            ]
        );
        assert_eq!(targets(&Table::new()), Targets::default());
    }

    #[test]
    fn facts_cover_every_dependency_kind_renames_and_workspace_inheritance() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        write(
            &root,
            "Cargo.toml",
            r#"[workspace]
members = ["server"]
[workspace.package]
version = "2.3.7"
[workspace.dependencies]
rmcp = { version = "0.8", features = ["server"] }
serde = "1"
sdk = { package = "pmcp", version = "1.4" }
helpers = { path = "crates/helpers" }
"#,
        );
        write(
            &root,
            "server/Cargo.toml",
            r#"[package]
name = "srv"
version.workspace = true
[dependencies]
rmcp.workspace = true
mcp = { package = "rust-mcp-sdk", version = "=0.5.1" }
local = { path = "../local" }
sdk.workspace = true
helpers.workspace = true
util = { package = "my-util", path = "./../crates/util/" }
[dev-dependencies]
serde = { workspace = true }
client = { package = "rmcp", version = "0.9" }
[build-dependencies]
cc = "1.0"
[target.'cfg(unix)'.dependencies]
libc = { version = "0.2" }
[target.'cfg(windows)'.dependencies]
rmcp_win = { package = "rmcp", version = "0.8" }
"#,
        );
        let mut m = Manifests::new(&root);
        let facts = m.facts(&root.join("server")).expect("parsed");
        assert_eq!(facts.package_name.as_deref(), Some("srv"));
        assert_eq!(facts.package_version.as_deref(), Some("2.3.7"));
        let mut deps = facts.dependencies.clone();
        deps.sort_by(|a, b| (&a.name, &a.rename).cmp(&(&b.name, &b.rename)));
        assert_eq!(
            deps,
            vec![
                dep("cc", Some("1.0")),
                Dependency {
                    path: Some(root.join("crates/helpers")),
                    ..dep("helpers", None)
                },
                dep("libc", Some("0.2")),
                Dependency {
                    path: Some(root.join("local")),
                    ..dep("local", None)
                },
                Dependency {
                    rename: Some("util".into()),
                    path: Some(root.join("crates/util")),
                    ..dep("my-util", None)
                },
                renamed("sdk", "pmcp", "1.4"),
                dep("rmcp", Some("0.8")),
                renamed("client", "rmcp", "0.9"),
                renamed("rmcp_win", "rmcp", "0.8"),
                renamed("mcp", "rust-mcp-sdk", "=0.5.1"),
                dep("serde", Some("1")),
            ]
        );
        assert_eq!(
            m.package_root(&root.join("server/src/lib.rs")),
            Some(root.join("server"))
        );
        assert_eq!(
            m.package_root(&root.join("other.rs")),
            None,
            "virtual manifest"
        );
        assert!(m.take_errors().is_empty());
    }

    #[test]
    fn cargo_lock_pins_the_version_else_the_requirement_stands() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let manifest = "[package]\nname = \"srv\"\n[dependencies]\nturbomcp = \"2\"\nrmcp = \"0.8\"\npmcp = \"1\"\n";
        write(&root, "Cargo.toml", manifest);
        write(&root, "unlocked/Cargo.toml", manifest);
        // Two rmcp versions: the one the requirement takes; two pmcp 1.x: ambiguous.
        write(
            &root,
            "Cargo.lock",
            r#"version = 4
[[package]]
name = "turbomcp"
version = "2.3.7"
[[package]]
name = "rmcp"
version = "0.8.5"
[[package]]
name = "rmcp"
version = "1.8.0"
[[package]]
name = "pmcp"
version = "1.20.0"
[[package]]
name = "pmcp"
version = "1.4.0"
[[package]]
name = "rust-mcp-schema"
version = "0.7.5"
"#,
        );
        let mut m = Manifests::new(&root);
        let facts = m.facts(&root).expect("parsed");
        let version = |name: &str| {
            facts
                .dependencies
                .iter()
                .find(|d| d.name == name)
                .and_then(|d| d.version.clone())
        };
        assert_eq!(version("turbomcp").as_deref(), Some("=2.3.7"));
        assert_eq!(version("rmcp").as_deref(), Some("=0.8.5"));
        assert_eq!(version("pmcp").as_deref(), Some("1"));
        // Every pin, a dependency's dependency too (rust-mcp-sdk 0.7's fixes hang on its schema).
        let locked = facts.locked.as_deref().expect("the lock's pins");
        assert_eq!(locked["rust-mcp-schema"], ["0.7.5"]);
        assert_eq!(locked["rmcp"], ["0.8.5", "1.8.0"]);
        let unlocked = m.facts(&root.join("unlocked")).expect("parsed");
        assert!(unlocked.dependencies.contains(&dep("turbomcp", Some("2"))));
        assert!(unlocked.locked.is_none());
        assert!(m.take_errors().is_empty());
    }

    #[test]
    fn workspace_members_follow_globs_and_exclude() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        write(
            &root,
            "Cargo.toml",
            "[workspace]\nmembers = [\"server\", \"crates/*\", \"./tools/x?\"]\nexclude = [\"crates/old\"]\n",
        );
        for dir in ["server", "crates/a", "crates/b", "crates/old", "tools/x1"] {
            write(
                &root,
                &format!("{dir}/Cargo.toml"),
                "[package]\nname = \"p\"\n",
            );
        }
        // Not packages: a directory without a manifest, a virtual manifest.
        std::fs::create_dir_all(root.join("crates/empty")).expect("mkdir");
        write(&root, "tools/x2/Cargo.toml", "[workspace]\n");
        let mut m = Manifests::new(&root);
        let members: Vec<PathBuf> = ["crates/a", "crates/b", "server", "tools/x1"]
            .iter()
            .map(|d| root.join(d))
            .collect();
        assert_eq!(m.workspace_members(&root), members);
        assert!(m.workspace_members(&root.join("server")).is_empty());
        // An excluded package is a workspace of its own: its own Cargo.lock says its versions.
        assert_eq!(
            m.workspace_root(&root.join("crates/a")).map(|(dir, _)| dir),
            Some(root.clone())
        );
        assert!(m.workspace_root(&root.join("crates/old")).is_none());
        write(
            &root,
            "crates/old/Cargo.lock",
            "[[package]]\nname = \"rmcp\"\nversion = \"0.16.0\"\n",
        );
        write(
            &root,
            "Cargo.lock",
            "[[package]]\nname = \"rmcp\"\nversion = \"3.11.0\"\n",
        );
        write(
            &root,
            "crates/old/Cargo.toml",
            "[package]\nname = \"old\"\n\n[dependencies]\nrmcp = \"0.16\"\n",
        );
        let mut m = Manifests::new(&root);
        let facts = m.facts(&root.join("crates/old")).expect("facts");
        assert_eq!(facts.dependencies[0].version.as_deref(), Some("=0.16.0"));
    }

    #[test]
    fn broken_manifest_is_a_package_root_without_facts_and_one_error() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        write(&root, "Cargo.toml", "[package\nname = ");
        let mut m = Manifests::new(&root);
        assert_eq!(
            m.package_root(&root.join("src/main.rs")),
            Some(root.clone())
        );
        assert!(m.facts(&root).is_none());
        let errors = m.take_errors();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("could not parse") && errors[0].contains("Cargo.toml"));
    }
}
