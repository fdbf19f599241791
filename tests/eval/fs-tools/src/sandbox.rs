//! Keeps every path inside the workspace root.

use std::path::{Component, Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("{0} is outside the workspace root")]
    Escapes(String),
    #[error("path must not be empty")]
    Empty,
}

#[derive(Clone, Debug)]
pub struct Sandbox {
    root: PathBuf,
}

impl Sandbox {
    pub fn new(root: &Path) -> std::io::Result<Self> {
        Ok(Self {
            root: root.canonicalize()?,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolve a path the client gave, relative to the root, without touching the disk.
    pub fn resolve(&self, given: &str) -> Result<PathBuf, SandboxError> {
        if given.trim().is_empty() {
            return Err(SandboxError::Empty);
        }
        let mut out = self.root.clone();
        for part in Path::new(given.trim_start_matches('/')).components() {
            match part {
                Component::Normal(p) => out.push(p),
                Component::CurDir => {}
                Component::ParentDir => {
                    if !out.pop() || !out.starts_with(&self.root) {
                        return Err(SandboxError::Escapes(given.to_string()));
                    }
                }
                Component::RootDir | Component::Prefix(_) => {}
            }
        }
        if !out.starts_with(&self.root) {
            return Err(SandboxError::Escapes(given.to_string()));
        }
        Ok(out)
    }

    pub fn relative<'a>(&self, path: &'a Path) -> &'a Path {
        path.strip_prefix(&self.root).unwrap_or(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_dirs_cannot_escape() {
        let dir = tempfile::tempdir().unwrap();
        let sb = Sandbox::new(dir.path()).unwrap();
        assert!(sb.resolve("a/../b").is_ok());
        assert!(matches!(
            sb.resolve("../etc/passwd"),
            Err(SandboxError::Escapes(_))
        ));
        assert!(matches!(sb.resolve(""), Err(SandboxError::Empty)));
    }
}
