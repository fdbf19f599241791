//! Which files are crate roots and which file a `mod name;` declaration loads, as cargo and rustc
//! decide it: `src/lib.rs`, `src/main.rs`, `src/bin/*`, `examples/*`, `tests/*`, `benches/*`
//! and `build.rs` are roots; `mod a;` in `x.rs` loads `x/a.rs` or `x/a/mod.rs` (`a.rs` beside a
//! `mod.rs`, `lib.rs` or `main.rs`); `#[path = ".."]` overrides it.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use crate::options::{TargetKind, Targets};
use crate::source::FileId;

/// A crate root the package builds, and what it is called in `use` paths of the other roots.
#[derive(Clone, Debug)]
pub struct RootFile {
    pub file: FileId,
    /// The library's crate name (`my_server` for package `my-server`): the other roots of the
    /// package reach it by that name. `None` for binaries, examples, tests and benches.
    pub lib_name: Option<String>,
}

/// Package-relative paths of the crate's files, and the roots among them.
pub struct Layout {
    by_path: HashMap<PathBuf, FileId>,
    paths: Vec<Option<PathBuf>>,
}

impl Layout {
    /// `files`: each file with its path relative to the package root (`None` when the file is
    /// not under the package root, or there is no package).
    pub fn new(files: &[(FileId, Option<PathBuf>)]) -> Layout {
        let mut by_path = HashMap::new();
        let len = files.iter().map(|(f, _)| f.0 + 1).max().unwrap_or(0);
        let mut paths = vec![None; len];
        for (file, path) in files {
            if let Some(p) = path {
                let p = normalize(p);
                by_path.insert(p.clone(), *file);
                paths[file.0] = Some(p);
            }
        }
        Layout { by_path, paths }
    }

    pub fn path(&self, file: FileId) -> Option<&Path> {
        self.paths.get(file.0).and_then(|p| p.as_deref())
    }

    /// The file `include!("path")` written in `from` names (relative to `from`'s directory).
    pub fn included_file(&self, from: FileId, path: &str) -> Option<FileId> {
        let dir = self.path(from)?.parent().unwrap_or(Path::new(""));
        self.by_path.get(&normalize(&dir.join(path))).copied()
    }

    /// The crate roots cargo builds from these files, the library first: the standard places
    /// cargo infers (unless `targets` turns their kind off) and the roots Cargo.toml declares.
    pub fn roots(&self, package_name: Option<&str>, targets: &Targets) -> Vec<RootFile> {
        let inferred = |kind: TargetKind| !targets.not_inferred.contains(&kind);
        let mut roots = Vec::new();
        let lib = match &targets.lib {
            Some(path) => self.by_path.get(&normalize(path)),
            None if inferred(TargetKind::Lib) => self.by_path.get(Path::new("src/lib.rs")),
            None => None,
        };
        if let Some(&file) = lib {
            roots.push(RootFile {
                file,
                lib_name: package_name.map(|n| n.replace('-', "_")),
            });
        }
        let declared: Vec<PathBuf> = targets.declared.iter().map(|p| normalize(p)).collect();
        let mut others: Vec<(&PathBuf, FileId)> = self
            .by_path
            .iter()
            .filter(|(p, f)| {
                Some(*f) != lib && (target_kind(p).is_some_and(inferred) || declared.contains(p))
            })
            .map(|(p, f)| (p, *f))
            .collect();
        others.sort();
        for (_, file) in others {
            roots.push(RootFile {
                file,
                lib_name: None,
            });
        }
        roots
    }

    /// The file `mod name;` loads, declared in module file `declaring` whose own child directory
    /// is `child_dir` (package-relative); `path_attr` is its `#[path = ".."]`.
    pub fn module_file(
        &self,
        child_dir: &Path,
        declaring_dir: &Path,
        name: &str,
        path_attr: Option<&str>,
    ) -> Option<(FileId, PathBuf)> {
        let candidates: Vec<PathBuf> = match path_attr {
            Some(p) => vec![declaring_dir.join(p)],
            None => vec![
                child_dir.join(format!("{name}.rs")),
                child_dir.join(name).join("mod.rs"),
            ],
        };
        candidates.into_iter().find_map(|c| {
            let c = normalize(&c);
            self.by_path.get(&c).map(|f| (*f, c))
        })
    }
}

/// The kind of target cargo infers at `path`: `src/main.rs`, `src/bin/x.rs`,
/// `src/bin/x/main.rs`, `examples/x.rs`, `examples/x/main.rs`, `tests/x.rs`, `tests/x/main.rs`,
/// `benches/…`, `build.rs` (the library, `src/lib.rs`, is found apart).
fn target_kind(path: &Path) -> Option<TargetKind> {
    let parts: Vec<&str> = path
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    let kind = |dir: &str| match dir {
        "bin" => TargetKind::Bin,
        "examples" => TargetKind::Example,
        "tests" => TargetKind::Test,
        _ => TargetKind::Bench,
    };
    match parts.as_slice() {
        ["src", "main.rs"] => Some(TargetKind::Bin),
        ["build.rs"] => Some(TargetKind::Build),
        ["src", "bin", f] | [_, f] if !f.ends_with(".rs") => None,
        ["src", "bin", _] | ["src", "bin", _, "main.rs"] => Some(TargetKind::Bin),
        [dir @ ("examples" | "tests" | "benches"), _]
        | [dir @ ("examples" | "tests" | "benches"), _, "main.rs"] => Some(kind(dir)),
        _ => None,
    }
}

/// The directory a module file's `mod x;` children live in: beside `mod.rs`, `lib.rs`,
/// `main.rs` and crate roots, else in the directory named after the file.
pub fn child_dir(file_path: &Path, is_crate_root: bool) -> PathBuf {
    let dir = file_path.parent().unwrap_or(Path::new("")).to_path_buf();
    let stem = file_path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if is_crate_root || stem == "mod" {
        dir
    } else {
        dir.join(stem)
    }
}

/// `a/./b/../c` → `a/c`, lexically (the files are given, not looked up on disk).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<&std::ffi::OsStr> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(s) => out.push(s),
        }
    }
    out.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_and_module_files_follow_cargo_and_rustc() {
        let files: Vec<(FileId, Option<PathBuf>)> = [
            "src/lib.rs",
            "src/main.rs",
            "src/tools.rs",
            "src/tools/fs.rs",
            "src/net/mod.rs",
            "examples/demo.rs",
            "src/bin/cli/main.rs",
            "src/other/./x.rs",
        ]
        .iter()
        .enumerate()
        .map(|(i, p)| (FileId(i), Some(PathBuf::from(p))))
        .collect();
        let layout = Layout::new(&files);
        let roots = layout.roots(Some("my-server"), &Targets::default());
        assert_eq!(roots[0].file, FileId(0));
        assert_eq!(roots[0].lib_name.as_deref(), Some("my_server"));
        let ids: Vec<usize> = roots.iter().map(|r| r.file.0).collect();
        assert_eq!(ids, vec![0, 5, 6, 1]);
        let lib_children = child_dir(Path::new("src/lib.rs"), true);
        let found = layout.module_file(&lib_children, Path::new("src"), "tools", None);
        assert_eq!(found.map(|f| f.0), Some(FileId(2)));
        let tools_children = child_dir(Path::new("src/tools.rs"), false);
        assert_eq!(tools_children, PathBuf::from("src/tools"));
        let found = layout.module_file(&tools_children, Path::new("src"), "fs", None);
        assert_eq!(found.map(|f| f.0), Some(FileId(3)));
        let found = layout.module_file(&lib_children, Path::new("src"), "net", None);
        assert_eq!(found.map(|f| f.0), Some(FileId(4)));
        let found = layout.module_file(&lib_children, Path::new("src"), "y", Some("other/x.rs"));
        assert_eq!(found.map(|f| f.0), Some(FileId(7)));
    }
}
