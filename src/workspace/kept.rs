//! What the language server keeps from one analysis of a crate to the next: the discovery, with
//! the metadata of everything it depended on, and the bytes of every file read, with the
//! file's metadata from before the read. The next analysis re-uses them where that metadata is
//! unchanged, so a one-line edit in the editor neither walks the crate nor reads it again.
//!
//! Why metadata is enough: a file created, removed or renamed in a directory changes the
//! directory's mtime and ctime; a file written changes its own (and its size or inode
//! mostly), and setting an mtime back changes the ctime, which only the clock sets. What a
//! discovery depends on is the entries of each directory it listed (its walks, the package
//! roots), the ignore files, manifests and git directories ([`CONTROL_FILES`]) of those and
//! of every ancestor, and git's global excludes file: all of it is checked, the files present
//! or absent ([`depended_on`]). A timestamp is only as fine as the file system's clock tick, so
//! metadata taken within [`RACY`] of the run that took it (or later) proves nothing:
//! such a discovery or file is not kept, and the next analysis walks or reads again (git's
//! "racily clean" rule; the result cache has the same). A discovery that met a problem (an
//! unreadable path, a broken Cargo.toml, a symlink loop) is not kept either: those are
//! reported by walking again.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::read::ReadError;
use crate::workspace::cache::{FileStamp, RACY};
use crate::workspace::discover::{Discovery, Exclude};
use crate::workspace::manifest::Manifests;

/// The names in each directory a discovery looked at whose metadata it depends on: manifests
/// (a package root, a nested package, a workspace), the lock file, ignore files, and the
/// version-control directories that make `.gitignore` count.
const CONTROL_FILES: [&str; 6] = [
    "Cargo.toml",
    "Cargo.lock",
    ".gitignore",
    ".ignore",
    ".git",
    ".jj",
];

/// Everything a discovery's result depends on besides the file system: the same key and
/// unchanged metadata give the same discovery.
#[derive(Clone, Debug, PartialEq)]
pub struct DiscoveryKey {
    pub cwd: PathBuf,
    pub targets: Vec<PathBuf>,
    /// The paths of the unsaved buffers (not their text).
    pub unsaved: Vec<PathBuf>,
    pub exclude: Exclude,
    pub force_exclude: bool,
    pub gitignore: bool,
    pub absolute_paths: bool,
}

/// A path's metadata (followed through symlinks), or why there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    Stamp(FileStamp),
    Missing(std::io::ErrorKind),
}

impl Seen {
    fn of(path: &Path) -> Option<Seen> {
        match std::fs::metadata(path) {
            Ok(meta) => FileStamp::from_metadata(&meta).map(Seen::Stamp),
            Err(e) => Some(Seen::Missing(e.kind())),
        }
    }
}

struct KeptDiscovery {
    key: DiscoveryKey,
    discovery: Discovery,
    /// Each path the discovery depended on, with its metadata then.
    seen: Vec<(PathBuf, Seen)>,
    /// Git's global excludes file, as the walks found it.
    global_excludes: Option<PathBuf>,
}

struct KeptFile {
    path: PathBuf,
    stamp: FileStamp,
    bytes: Vec<u8>,
}

/// The files the last analysis read, in the order it read them: the next one reads the same
/// files in the same order unless the crate changed, so each is found at `next` without hashing
/// its path; the others through `by_path`, made on the first miss.
#[derive(Default)]
struct Previous {
    files: Vec<Option<KeptFile>>,
    next: usize,
    by_path: Option<HashMap<PathBuf, usize>>,
}

impl Previous {
    fn take(&mut self, path: &Path) -> Option<KeptFile> {
        let at_next = self
            .files
            .get(self.next)
            .and_then(Option::as_ref)
            .is_some_and(|f| f.path == path);
        let index = if at_next {
            self.next
        } else {
            let files = &self.files;
            let by_path = self.by_path.get_or_insert_with(|| {
                let paths = files.iter().enumerate();
                paths
                    .filter_map(|(i, f)| Some((f.as_ref()?.path.clone(), i)))
                    .collect()
            });
            *by_path.get(path)?
        };
        self.next = index + 1;
        self.files[index].take()
    }
}

/// The language server's discovery and file contents of one crate, from one analysis to the
/// next (see the module docs).
pub struct Kept {
    /// Metadata changed this shortly before an analysis began proves nothing to the next.
    racy: Duration,
    discovery: Option<KeptDiscovery>,
    /// The bytes of the files the last analysis read or re-used.
    files: Vec<KeptFile>,
    /// Those of the analysis before, while this one runs.
    previous: Previous,
    /// When the running analysis began looking at the file system.
    started: Option<SystemTime>,
    files_read: usize,
    discovery_reused: bool,
}

impl Default for Kept {
    fn default() -> Kept {
        Kept::with_racy_window(RACY)
    }
}

impl Kept {
    /// Nothing kept yet; metadata changed within `racy` of an analysis is not trusted (tests
    /// use a shorter window than [`RACY`], still longer than a file system's clock tick).
    pub fn with_racy_window(racy: Duration) -> Kept {
        Kept {
            racy,
            discovery: None,
            files: Vec::new(),
            previous: Previous::default(),
            started: None,
            files_read: 0,
            discovery_reused: false,
        }
    }

    /// How many files the last analysis read from disk (the others' bytes were kept).
    pub fn files_read(&self) -> usize {
        self.files_read
    }

    /// Did the last analysis re-use the discovery before it?
    pub fn discovery_reused(&self) -> bool {
        self.discovery_reused
    }

    /// Start an analysis that began looking at the file system at `started`: what it reads
    /// is kept for the next one, and only that.
    pub(crate) fn begin(&mut self, started: SystemTime) {
        self.started = Some(started);
        self.previous = Previous {
            files: self.files.drain(..).map(Some).collect(),
            ..Previous::default()
        };
        self.files_read = 0;
        self.discovery_reused = false;
    }

    /// The kept discovery when it was made for `key` and nothing it depended on changed, with
    /// every file's metadata taken now; `None` (and nothing kept) otherwise.
    pub(crate) fn reuse_discovery(&mut self, key: &DiscoveryKey) -> Option<Discovery> {
        let kept = self.discovery.take()?;
        if kept.key != *key || !kept.unchanged() {
            return None;
        }
        let mut discovery = Discovery {
            crates: kept.discovery.crates.clone(),
            ..Discovery::default()
        };
        for file in discovery.crates.iter_mut().flat_map(|c| &mut c.files) {
            let meta = std::fs::metadata(&file.path);
            let Some(before) = file.stamp else {
                // An unsaved buffer with no file: still none.
                if meta.is_ok() {
                    return None;
                }
                continue;
            };
            // A file gone, now a directory, or another file (through a symlink whose directory
            // was not listed): the walk would find something else.
            let meta = meta.ok().filter(|m| m.is_file())?;
            let stamp = FileStamp::from_metadata(&meta).filter(|s| s.inode == before.inode)?;
            file.stamp = Some(stamp);
        }
        self.discovery = Some(kept);
        self.discovery_reused = true;
        Some(discovery)
    }

    /// Keep `discovery`, made for `key` with `manifests`: every path it depended on is checked
    /// before it is used again.
    pub(crate) fn keep_discovery(
        &mut self,
        key: DiscoveryKey,
        discovery: &Discovery,
        manifests: &Manifests,
    ) {
        self.discovery = None;
        let Some(started) = self.started else {
            return;
        };
        let global_excludes = global_excludes(key.gitignore);
        let paths = depended_on(&key, discovery, manifests).into_iter();
        let seen = paths
            .chain(global_excludes.clone())
            .map(|path| match Seen::of(&path)? {
                Seen::Stamp(stamp) if stamp.changed_within(self.racy, started) => None,
                seen => Some((path, seen)),
            })
            .collect::<Option<Vec<_>>>();
        let Some(seen) = seen else {
            return;
        };
        self.discovery = Some(KeptDiscovery {
            key,
            discovery: Discovery {
                crates: discovery.crates.clone(),
                ..Discovery::default()
            },
            seen,
            global_excludes,
        });
    }

    /// The bytes of the file at `path`: those read before when `stamp` (its metadata, taken
    /// before this call) is what it was then; else read now, and kept with `stamp`.
    pub(crate) fn read(
        &mut self,
        path: &Path,
        stamp: Option<FileStamp>,
    ) -> Result<Vec<u8>, ReadError> {
        let previous = self.previous.take(path);
        let (Some(stamp), Some(started)) = (stamp, self.started) else {
            self.files_read += 1;
            return crate::read::read_source(path);
        };
        let (path, bytes) = match previous {
            Some(kept) if kept.stamp == stamp => (kept.path, kept.bytes),
            _ => {
                self.files_read += 1;
                (path.to_path_buf(), crate::read::read_source(path)?)
            }
        };
        if !stamp.changed_within(self.racy, started) {
            let kept = KeptFile {
                path,
                stamp,
                bytes: bytes.clone(),
            };
            self.files.push(kept);
        }
        Ok(bytes)
    }

    /// End the analysis: the files it did not read are forgotten.
    pub(crate) fn end(&mut self) {
        self.previous = Previous::default();
        self.started = None;
    }
}

impl KeptDiscovery {
    fn unchanged(&self) -> bool {
        global_excludes(self.key.gitignore) == self.global_excludes
            && self
                .seen
                .iter()
                .all(|(path, seen)| Seen::of(path) == Some(*seen))
    }
}

/// Git's global excludes file, as the walks find it (when they respect git's ignore files).
fn global_excludes(gitignore: bool) -> Option<PathBuf> {
    gitignore
        .then(ignore::gitignore::gitconfig_excludes_path)
        .flatten()
}

/// Every path a discovery for `key` with `manifests` depended on: each directory whose entries
/// it depends on (those its walks listed, and the dangling symlinks they passed; the package
/// roots, for their `src/`, `tests/`, .. and `build.rs`; those listed for member globs; the
/// targets' and buffers' directories); and in each of those, each directory a manifest or
/// lock file was looked for in and each ancestor of them all, the [`CONTROL_FILES`] and the
/// files git's exclude is read from. (An ancestor's other entries do not count: a file
/// created in `/tmp` does not make a crate below it walked again.)
fn depended_on(key: &DiscoveryKey, discovery: &Discovery, manifests: &Manifests) -> Vec<PathBuf> {
    let absolute = |p: &Path| crate::workspace::paths::normalize(&key.cwd.join(p));
    let given = key.targets.iter().chain(&key.unsaved).map(|p| absolute(p));
    let listed: BTreeSet<PathBuf> = given
        .filter_map(|p| p.parent().map(Path::to_path_buf))
        .chain(discovery.watched.iter().cloned())
        .chain(manifests.listed().iter().map(|p| absolute(p)))
        .chain(
            discovery
                .crates
                .iter()
                .filter_map(|c| c.package_root.clone()),
        )
        .collect();
    let mut dirs: BTreeSet<PathBuf> = BTreeSet::new();
    for start in listed
        .iter()
        .map(PathBuf::as_path)
        .chain(manifests.looked_in())
    {
        for dir in start.ancestors() {
            if !dirs.insert(dir.to_path_buf()) {
                break;
            }
        }
    }
    let mut paths = Vec::with_capacity(listed.len() + dirs.len() * (CONTROL_FILES.len() + 1));
    for dir in &dirs {
        paths.extend(CONTROL_FILES.iter().map(|name| dir.join(name)));
        if key.gitignore {
            paths.extend(git_exclude_files(dir));
        }
    }
    paths.extend(listed);
    paths
}

/// The files git's exclude for `dir` is read from, as the `ignore` crate finds them:
/// `.git/info/exclude`; in a worktree (`.git` a file naming its git directory), that directory's
/// `commondir` and the common directory's `info/exclude`. None without `.git`.
fn git_exclude_files(dir: &Path) -> Vec<PathBuf> {
    let git = dir.join(".git");
    if git.is_dir() {
        return vec![git.join("info/exclude")];
    }
    let first_line = |path: &Path| {
        let text = std::fs::read_to_string(path).ok()?;
        text.lines().next().map(str::to_string)
    };
    let Some(git_dir) =
        first_line(&git).and_then(|l| Some(PathBuf::from(l.strip_prefix("gitdir: ")?)))
    else {
        return Vec::new();
    };
    let commondir = git_dir.join("commondir");
    let common = first_line(&commondir).map(|line| {
        if line.starts_with('.') {
            git_dir.join(line)
        } else {
            PathBuf::from(line)
        }
    });
    let mut files = vec![commondir];
    files.extend(common.map(|c| c.join("info/exclude")));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files read in another order, or some not at all, are still found; each once.
    #[test]
    fn kept_files_are_found_in_any_order() {
        let stamp = FileStamp {
            size: 0,
            mtime_ns: 0,
            ctime_ns: 0,
            inode: 0,
        };
        let file = |path: &str| {
            let path = PathBuf::from(path);
            let bytes = Vec::new();
            Some(KeptFile { path, stamp, bytes })
        };
        let mut previous = Previous {
            files: vec![file("/a"), file("/b"), file("/c"), file("/d")],
            ..Previous::default()
        };
        let found = |p: &mut Previous, path: &str| p.take(Path::new(path)).map(|f| f.path);
        assert_eq!(found(&mut previous, "/a"), Some("/a".into()));
        assert_eq!(found(&mut previous, "/d"), Some("/d".into()));
        assert_eq!(found(&mut previous, "/b"), Some("/b".into()));
        assert_eq!(found(&mut previous, "/b"), None, "taken");
        assert_eq!(found(&mut previous, "/new"), None);
        assert_eq!(found(&mut previous, "/c"), Some("/c".into()));
    }
}
