//! Path resolution inside the workspace roots the server was started with.

use std::path::{Component, Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("`{0}` is outside the workspace roots ({1})")]
    OutsideRoots(String, String),
    #[error("`{0}` contains `..`; give a path relative to a workspace root")]
    ParentTraversal(String),
    #[error("`{0}` does not exist")]
    Missing(String),
}

pub struct Sandbox {
    roots: Vec<PathBuf>,
}

impl Sandbox {
    pub fn new(roots: Vec<PathBuf>) -> Self {
        let roots = roots
            .into_iter()
            .map(|r| r.canonicalize().unwrap_or(r))
            .collect();
        Self { roots }
    }

    pub fn describe_roots(&self) -> String {
        self.roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Resolve a path the model gave to an absolute path inside one of the roots.
    pub fn resolve(&self, requested: &str) -> Result<PathBuf, SandboxError> {
        let candidate = Path::new(requested);
        if candidate
            .components()
            .any(|c| matches!(c, Component::ParentDir))
        {
            return Err(SandboxError::ParentTraversal(requested.to_string()));
        }
        if candidate.is_absolute() {
            return if self.roots.iter().any(|r| candidate.starts_with(r)) {
                Ok(candidate.to_path_buf())
            } else {
                Err(SandboxError::OutsideRoots(
                    requested.to_string(),
                    self.describe_roots(),
                ))
            };
        }
        for root in &self.roots {
            let joined = root.join(candidate);
            if joined.exists() {
                return Ok(joined);
            }
        }
        Err(SandboxError::Missing(requested.to_string()))
    }

    /// Like `resolve`, for a path that may not exist yet (the target of a write).
    pub fn resolve_new(&self, requested: &str) -> Result<PathBuf, SandboxError> {
        match self.resolve(requested) {
            Err(SandboxError::Missing(_)) => Ok(self.roots[0].join(requested)),
            other => other,
        }
    }
}
