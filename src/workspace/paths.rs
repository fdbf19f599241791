//! Paths as CI tools want them: resolved (symlinks too), relative to the repository root or to
//! a baseline file's directory, with `/` separators, and as URIs for SARIF; and the lexical
//! helpers every module shares (`normalize`, `relative_to`).

use std::path::{Component, Path, PathBuf};

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

/// `path` relative to `cwd` when it lies under it.
pub fn relative_to(path: &Path, cwd: &Path) -> PathBuf {
    match path.strip_prefix(cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}

/// `path` (relative ones taken from `cwd`) made absolute, with symlinks resolved as far as it
/// exists (a file not written yet gets its directory's resolved path) and `.`/`..` resolved
/// lexically beyond.
pub fn resolve(cwd: &Path, path: &Path) -> PathBuf {
    let joined = normalize(&cwd.join(path));
    for existing in joined.ancestors() {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let rest = joined.strip_prefix(existing).unwrap_or(Path::new(""));
            return if rest.as_os_str().is_empty() {
                real
            } else {
                real.join(rest)
            };
        }
    }
    joined
}

/// The repository root for `cwd`: the nearest directory at or above it holding `.git` (a
/// directory, or a file in a worktree or submodule); `cwd` itself outside any repository.
/// GitHub resolves SARIF and annotation paths against the repository root.
pub fn repository_root(cwd: &Path) -> PathBuf {
    let cwd = resolve(cwd, Path::new("."));
    cwd.ancestors()
        .find(|dir| dir.join(".git").exists())
        .unwrap_or(&cwd)
        .to_path_buf()
}

/// `to` relative to the directory `from`, `/`-separated, with `..` where `to` is not below
/// `from`. Both must be absolute and resolved; `None` when they share no root (another drive).
pub fn relative(from: &Path, to: &Path) -> Option<String> {
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    if from.first() != to.first() {
        return None;
    }
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    parts.extend(
        to[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        return Some(".".to_string());
    }
    Some(parts.join("/"))
}

/// `path` below `root` as a `/`-separated relative path, or `None` when it is outside.
pub fn below(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// Percent-encode a `/`-separated path for use in a URI: everything but unreserved characters,
/// `/` and a few harmless sub-delimiters is encoded (`:` too, so a relative reference never
/// looks like a scheme), byte by byte in UTF-8.
pub fn uri_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'/'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b'@'
            );
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A `file://` URI for an absolute path (a directory URI ends in `/` when `dir` is set).
pub fn file_uri(path: &Path, dir: bool) -> String {
    let parts: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            Component::RootDir => None,
            Component::Prefix(p) => Some(
                p.as_os_str()
                    .to_string_lossy()
                    .trim_start_matches(r"\\?\")
                    .to_string(),
            ),
            other => Some(other.as_os_str().to_string_lossy().into_owned()),
        })
        .collect();
    let mut uri = format!("file:///{}", uri_encode(&parts.join("/")));
    if dir && !uri.ends_with('/') {
        uri.push('/');
    }
    // A Windows drive keeps its colon (`file:///C:/src/`).
    if cfg!(windows) {
        if let Some(rest) = uri.strip_prefix("file:///") {
            if rest.len() >= 4 && &rest[1..4] == "%3A" {
                uri = format!("file:///{}:{}", &rest[..1], &rest[4..]);
            }
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_and_descend() {
        let r = |a: &str, b: &str| relative(Path::new(a), Path::new(b));
        assert_eq!(r("/repo", "/repo/src/a.rs").as_deref(), Some("src/a.rs"));
        assert_eq!(
            r("/repo/ci", "/repo/src/a.rs").as_deref(),
            Some("../src/a.rs")
        );
        assert_eq!(r("/repo", "/repo").as_deref(), Some("."));
        assert_eq!(r("/a/b/c", "/a/x").as_deref(), Some("../../x"));
        assert_eq!(
            below(Path::new("/repo"), Path::new("/repo/src/a.rs")).as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(below(Path::new("/repo"), Path::new("/other/a.rs")), None);
    }

    #[test]
    fn uris_encode_what_a_uri_cannot_hold() {
        assert_eq!(uri_encode("src/a b#1%.rs"), "src/a%20b%231%25.rs");
        assert_eq!(uri_encode("c:x/é.rs"), "c%3Ax/%C3%A9.rs");
        assert_eq!(uri_encode("src/a-b_c~d.rs"), "src/a-b_c~d.rs");
        if cfg!(unix) {
            assert_eq!(file_uri(Path::new("/r/a b"), true), "file:///r/a%20b/");
            assert_eq!(file_uri(Path::new("/r/x.rs"), false), "file:///r/x.rs");
            assert_eq!(file_uri(Path::new("/"), true), "file:///");
        }
    }

    #[test]
    fn the_repository_root_is_the_nearest_dir_with_git() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(root.join("repo/.git")).unwrap();
        std::fs::create_dir_all(root.join("repo/server/src")).unwrap();
        std::fs::create_dir_all(root.join("plain")).unwrap();
        assert_eq!(
            repository_root(&root.join("repo/server/src")),
            root.join("repo")
        );
        assert_eq!(repository_root(&root.join("repo")), root.join("repo"));
        // A worktree's `.git` is a file.
        std::fs::create_dir_all(root.join("wt/sub")).unwrap();
        std::fs::write(root.join("wt/.git"), "gitdir: elsewhere\n").unwrap();
        assert_eq!(repository_root(&root.join("wt/sub")), root.join("wt"));
        // Symlinks resolve as far as the path exists.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("repo"), root.join("link")).unwrap();
            assert_eq!(
                resolve(&root, Path::new("link/server/x.json")),
                root.join("repo/server/x.json")
            );
            assert_eq!(
                resolve(&root.join("link"), Path::new("new/../y")),
                root.join("repo/y")
            );
        }
        // Outside a repository (unless the temp dir itself is in one): the directory itself.
        if !root.ancestors().any(|d| d.join(".git").exists()) {
            assert_eq!(repository_root(&root.join("plain")), root.join("plain"));
        }
    }
}
